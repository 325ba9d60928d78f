// What a Sequential model is made of: dense layers and element-wise activations. Descriptions only; the kernels are elsewhere.
package dev.loopjit.nn;

/**
 * One layer of a {@link Sequential} model. A closed set, so that the code that wires layers into
 * task graphs is an exhaustive {@code switch}.
 *
 * <pre>{@code
 * Sequential.of(784, Layer.dense(256), Layer.relu(), Layer.dense(10));
 * }</pre>
 */
public sealed interface Layer permits Layer.Dense, Layer.Activation {
  /** A fully connected layer with {@code units} outputs: {@code y = x · Wᵀ + b} ({@link DenseKernels}). */
  record Dense(int units) implements Layer {
    public Dense {
      if (units <= 0) throw new IllegalArgumentException("a dense layer needs at least one unit, not " + units);
    }
  }

  /** An element-wise activation ({@link ActivationKernels}); the width is unchanged. */
  enum Activation implements Layer {
    RELU, SIGMOID, TANH, GELU;

    /** The lower-case name used on the command line and in weight files. */
    public String label() {
      return name().toLowerCase();
    }
  }

  static Dense dense(int units) {
    return new Dense(units);
  }

  static Activation relu() {
    return Activation.RELU;
  }

  static Activation sigmoid() {
    return Activation.SIGMOID;
  }

  static Activation tanh() {
    return Activation.TANH;
  }

  static Activation gelu() {
    return Activation.GELU;
  }
}
