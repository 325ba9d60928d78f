// What a Sequential model is made of. Each layer owns its wiring: shape rule, parameters, initialisation, tasks and weight-file code.
package dev.loopjit.nn;

import dev.loopjit.types.FloatArray;
import java.util.Random;

/**
 * One layer of a {@link Sequential} model. A layer is a small value (its settings) that knows
 * everything about itself: the shape it makes of its input (and which inputs it refuses), how
 * many parameters it has and how they start, the tasks of its forward and backward passes, and
 * its code in the weight file. Adding a layer is one file implementing this interface, plus its
 * name in the {@code permits} clause and its line in {@link #decode} here.
 *
 * <pre>{@code
 * import static dev.loopjit.nn.Layer.*;
 * Sequential.of(784, dense(256), relu(), dense(10));
 * Sequential.of(shape(1, 28, 28), conv(32, 3), relu(), maxPool(2), conv(64, 3), relu(), maxPool(2),
 *     flatten(), dense(128), relu(), dropout(0.25f), dense(10));
 * }</pre>
 *
 * The methods below are what {@link Sequential} calls; a user composes layers with the factories.
 */
public sealed interface Layer permits Dense, Activation, Conv2D, MaxPool2D, AvgPool2D, Flatten, Dropout, BatchNorm, LayerNorm {
  /** How the layer prints in a model: {@code "dense 256"}, {@code "conv 32 3×3"}. */
  String describe();

  /**
   * The shape this layer makes of one row of shape {@code in}. Throws
   * {@link IllegalArgumentException} saying what it needs and what it got when {@code in} does
   * not fit ({@link Sequential} adds which layer it is).
   */
  Shape outputShape(Shape in);

  /** How many trained parameters the layer has for input {@code in}, in its part of the model's array. */
  default int parameterCount(Shape in) {
    return 0;
  }

  /** How many floats of non-trained state (running statistics) the layer keeps for input {@code in}. */
  default int stateCount(Shape in) {
    return 0;
  }

  /**
   * Seeded initial parameters at {@code params[at..]} and state at {@code state[stateAt..]};
   * {@code next} is the layer after this one (null for the last), which decides the scale of
   * weights that feed a rectifier.
   */
  default void initialize(Shape in, FloatArray params, int at, FloatArray state, int stateAt, Random random, Layer next) {}

  /** Whether, in training ({@code true}) or inference, the output is the input itself: no tasks, one buffer. */
  default boolean passesThrough(boolean training) {
    return false;
  }

  /** Adds the forward pass x → y. */
  void addForward(LayerSite site);

  /** Adds the backward pass: the parameter gradients and, where {@link LayerSite#needsInputGradient()}, dx from dy. */
  void addBackward(LayerSite site);

  /** The layer's stable code in weight files ({@link Weights}). */
  int code();

  /** The layer's settings as int words for the weight file (floats as their IEEE bits); {@link #decode} reads them back. */
  default int[] config() {
    return new int[0];
  }

  /** The layer a weight file describes by {@code code} and {@code config}; {@link IllegalArgumentException} for an unknown code. */
  static Layer decode(int code, int[] config) {
    return switch (code) {
      case Dense.CODE -> Dense.fromConfig(config);
      case Activation.RELU_CODE, Activation.SIGMOID_CODE, Activation.TANH_CODE, Activation.GELU_CODE -> Activation.ofCode(code);
      case Conv2D.CODE -> Conv2D.fromConfig(config);
      case MaxPool2D.CODE -> MaxPool2D.fromConfig(config);
      case AvgPool2D.CODE -> AvgPool2D.fromConfig(config);
      case Flatten.CODE -> new Flatten();
      case Dropout.CODE -> Dropout.fromConfig(config);
      case BatchNorm.CODE -> BatchNorm.fromConfig(config);
      case LayerNorm.CODE -> LayerNorm.fromConfig(config);
      default -> throw new IllegalArgumentException("unknown layer code " + code);
    };
  }

  /** Checks that a weight file gave {@code count} config words. */
  static int[] expect(int[] config, int count, String layer) {
    if (config.length != count) throw new IllegalArgumentException(layer + " takes " + count + " settings, not " + config.length);
    return config;
  }

  /** Whether weights feeding {@code next} should get He's scale (a rectifier follows) rather than Xavier's. */
  static boolean rectified(Layer next) {
    return next == Activation.RELU || next == Activation.GELU;
  }

  // ---- the factories ----

  /** The shape of one input row: {@code shape(784)}, {@code shape(1, 28, 28)}. */
  static Shape shape(int... dims) {
    return Shape.of(dims);
  }

  /** A fully connected layer with {@code units} outputs. */
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

  /** A convolution of {@code filters} filters of {@code kernel × kernel}, stride 1, no padding, with bias. */
  static Conv2D conv(int filters, int kernel) {
    return new Conv2D(filters, kernel);
  }

  /** A convolution with a stride and zero padding, with bias. */
  static Conv2D conv(int filters, int kernel, int stride, int padding) {
    return new Conv2D(filters, kernel, stride, padding, true, 0);
  }

  /** Max pooling over {@code size × size} windows with stride {@code size}. */
  static MaxPool2D maxPool(int size) {
    return new MaxPool2D(size, size);
  }

  /** Max pooling over {@code size × size} windows, {@code stride} apart. */
  static MaxPool2D maxPool(int size, int stride) {
    return new MaxPool2D(size, stride);
  }

  /** Average pooling over {@code size × size} windows with stride {@code size}. */
  static AvgPool2D avgPool(int size) {
    return new AvgPool2D(size, size);
  }

  /** Average pooling over {@code size × size} windows, {@code stride} apart. */
  static AvgPool2D avgPool(int size, int stride) {
    return new AvgPool2D(size, stride);
  }

  /** (C, H, W) → (C·H·W); the data does not move. */
  static Flatten flatten() {
    return new Flatten();
  }

  /** Zeroes each element with probability {@code rate} in training (scaling the rest by 1/(1 - rate)); nothing at inference. */
  static Dropout dropout(float rate) {
    return new Dropout(rate);
  }

  /** Batch normalisation per channel (per feature for vectors), momentum 0.1, ε = 1e-5. */
  static BatchNorm batchNorm() {
    return new BatchNorm(0.1f, 1e-5f);
  }

  /** Layer normalisation over each row, ε = 1e-5. */
  static LayerNorm layerNorm() {
    return new LayerNorm(1e-5f);
  }
}
