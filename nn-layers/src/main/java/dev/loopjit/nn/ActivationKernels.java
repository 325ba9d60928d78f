// Element-wise activations as forward/backward @Parallel-loop pairs: ReLU, sigmoid, tanh, GELU.
// Each backward sits beside its forward and takes what its derivative needs: the input x or the output y.
package dev.loopjit.nn;

import dev.loopjit.api.Parallel;
import dev.loopjit.types.FloatArray;

/**
 * Activations over {@code n} elements (a batch of rows, flattened): x, y, dy, dx all (n).
 * The math functions run in double and round to float, as {@code (float) Math.exp(v)} does in Java.
 */
public final class ActivationKernels {
  /** sqrt(2/π), for the tanh form of GELU. */
  static final float GELU_SCALE = 0.7978845608f;
  static final float GELU_CUBIC = 0.044715f;

  private ActivationKernels() {}

  /** {@code y = max(x, 0)}. */
  public static void reluForward(FloatArray x, FloatArray y, int n) {
    for (@Parallel int i = 0; i < n; i++) {
      float v = x.get(i);
      y.set(i, v > 0f ? v : 0f);
    }
  }

  /** {@code dx = dy} where {@code x > 0}, else 0 (the subgradient at 0 is taken as 0). */
  public static void reluBackward(FloatArray x, FloatArray dy, FloatArray dx, int n) {
    for (@Parallel int i = 0; i < n; i++) dx.set(i, x.get(i) > 0f ? dy.get(i) : 0f);
  }

  /** {@code y = 1 / (1 + e^-x)}, through e^-|x| so that no exp overflows. */
  public static void sigmoidForward(FloatArray x, FloatArray y, int n) {
    for (@Parallel int i = 0; i < n; i++) y.set(i, sigmoid(x.get(i)));
  }

  /** {@code dx = dy · y (1 - y)}, from the forward's output. */
  public static void sigmoidBackward(FloatArray y, FloatArray dy, FloatArray dx, int n) {
    for (@Parallel int i = 0; i < n; i++) {
      float s = y.get(i);
      dx.set(i, dy.get(i) * s * (1f - s));
    }
  }

  /** {@code y = tanh(x)}. */
  public static void tanhForward(FloatArray x, FloatArray y, int n) {
    for (@Parallel int i = 0; i < n; i++) y.set(i, (float) Math.tanh(x.get(i)));
  }

  /** {@code dx = dy (1 - y²)}, from the forward's output. */
  public static void tanhBackward(FloatArray y, FloatArray dy, FloatArray dx, int n) {
    for (@Parallel int i = 0; i < n; i++) {
      float t = y.get(i);
      dx.set(i, dy.get(i) * (1f - t * t));
    }
  }

  /** GELU, tanh form (GPT-2's): {@code y = x/2 · (1 + tanh(√(2/π) (x + 0.044715 x³)))}. */
  public static void geluForward(FloatArray x, FloatArray y, int n) {
    for (@Parallel int i = 0; i < n; i++) {
      float v = x.get(i);
      float t = (float) Math.tanh(GELU_SCALE * (v + GELU_CUBIC * v * v * v));
      y.set(i, 0.5f * v * (1f + t));
    }
  }

  /** {@code dx = dy · (½(1 + t) + ½x (1 - t²) √(2/π) (1 + 3·0.044715 x²))}, t as in the forward. */
  public static void geluBackward(FloatArray x, FloatArray dy, FloatArray dx, int n) {
    for (@Parallel int i = 0; i < n; i++) {
      float v = x.get(i);
      float t = (float) Math.tanh(GELU_SCALE * (v + GELU_CUBIC * v * v * v));
      float inner = GELU_SCALE * (1f + 3f * GELU_CUBIC * v * v);
      dx.set(i, dy.get(i) * (0.5f * (1f + t) + 0.5f * v * (1f - t * t) * inner));
    }
  }

  /** The logistic function, stable for any x. Inlined into the kernels that call it. */
  static float sigmoid(float v) {
    float e = (float) Math.exp(-Math.abs(v));
    return v >= 0f ? 1f / (1f + e) : e / (1f + e);
  }
}
