// Element-wise activations as layers: ReLU, sigmoid, tanh, GELU; any shape in, the same shape out.
package dev.loopjit.nn;

/**
 * An element-wise activation ({@link ActivationKernels}); the shape is unchanged. Each backward
 * takes what its derivative needs: ReLU and GELU the input, sigmoid and tanh the output.
 */
public enum Activation implements Layer {
  RELU, SIGMOID, TANH, GELU;

  static final int RELU_CODE = 1, SIGMOID_CODE = 2, TANH_CODE = 3, GELU_CODE = 4;

  /** The lower-case name used on the command line and in printed models. */
  public String label() {
    return name().toLowerCase();
  }

  @Override
  public String describe() {
    return label();
  }

  @Override
  public Shape outputShape(Shape in) {
    return in;
  }

  @Override
  public void addForward(LayerSite s) {
    int n = s.rows * s.in.size();
    switch (this) {
      case RELU -> s.graph().task(s.id("relu"), ActivationKernels::reluForward, s.x, s.y, n);
      case SIGMOID -> s.graph().task(s.id("sigmoid"), ActivationKernels::sigmoidForward, s.x, s.y, n);
      case TANH -> s.graph().task(s.id("tanh"), ActivationKernels::tanhForward, s.x, s.y, n);
      case GELU -> s.graph().task(s.id("gelu"), ActivationKernels::geluForward, s.x, s.y, n);
    }
  }

  @Override
  public void addBackward(LayerSite s) {
    if (!s.needsInputGradient()) return;
    int n = s.rows * s.in.size();
    switch (this) {
      case RELU -> s.graph().task(s.id("relu_dx"), ActivationKernels::reluBackward, s.x, s.dy, s.dx, n);
      case SIGMOID -> s.graph().task(s.id("sigmoid_dx"), ActivationKernels::sigmoidBackward, s.y, s.dy, s.dx, n);
      case TANH -> s.graph().task(s.id("tanh_dx"), ActivationKernels::tanhBackward, s.y, s.dy, s.dx, n);
      case GELU -> s.graph().task(s.id("gelu_dx"), ActivationKernels::geluBackward, s.x, s.dy, s.dx, n);
    }
  }

  @Override
  public int code() {
    return switch (this) {
      case RELU -> RELU_CODE;
      case SIGMOID -> SIGMOID_CODE;
      case TANH -> TANH_CODE;
      case GELU -> GELU_CODE;
    };
  }

  static Activation ofCode(int code) {
    for (Activation a : values()) if (a.code() == code) return a;
    throw new IllegalArgumentException("no activation has code " + code);
  }
}
