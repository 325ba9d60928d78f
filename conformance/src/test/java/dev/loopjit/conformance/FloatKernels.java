// Conformance kernels over float: exact IEEE operations (no FMA contraction) and Math functions computed in double.
package dev.loopjit.conformance;

import dev.loopjit.api.Parallel;
import dev.loopjit.types.FloatArray;

/**
 * float kernels, checked against the jvm by {@link FloatKernelsTest}. Java rounds every float
 * operation on its own (no fused multiply-add, no reassociation), and {@code (float) Math.sqrt}
 * is correctly rounded, so everything but the transcendental functions must match bit for bit.
 */
public final class FloatKernels {
  private FloatKernels() {}

  public static void saxpy(float a, FloatArray x, FloatArray y) {
    for (@Parallel int i = 0; i < y.getSize(); i++) y.set(i, a * x.get(i) + y.get(i));
  }

  /** + - * / on every kind of value, NaN and infinities included. */
  public static void arithmetic(float[] a, float[] b, float[] out) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = (a[i] + b[i]) * (a[i] - b[i]) / (b[i] + 3f);
  }

  /** Java's float % (C's fmod): exact, with NaN for a zero divisor. */
  public static void remainder(float[] a, float[] b, float[] out) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = a[i] % b[i];
  }

  /** sqrt of a float widened to double and rounded back: the correctly rounded float sqrt. */
  public static void sqrt(float[] a, float[] out) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = (float) Math.sqrt(a[i]) + (float) Math.sqrt(Math.abs(a[i]) * 0.5f);
  }

  /** floor, ceil and rint: three results per element. */
  public static void roundings(float[] a, float[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      out[3 * i] = (float) Math.floor(a[i]);
      out[3 * i + 1] = (float) Math.ceil(a[i]);
      out[3 * i + 2] = (float) Math.rint(a[i]);
    }
  }

  /** exp and log in double, rounded to float: two results per element. */
  public static void expLog(float[] a, float[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      out[2 * i] = (float) Math.exp(a[i]);
      out[2 * i + 1] = (float) Math.log(a[i]);
    }
  }

  public static void sinCos(float[] a, float[] sin, float[] cos) {
    for (@Parallel int i = 0; i < a.length; i++) {
      sin[i] = (float) Math.sin(a[i]);
      cos[i] = (float) Math.cos(a[i]);
    }
  }

  /** The activations: a sigmoid from exp in float arithmetic, and tanh. */
  public static void sigmoidTanh(FloatArray x, FloatArray sigmoid, FloatArray tanh) {
    for (@Parallel int i = 0; i < x.getSize(); i++) {
      sigmoid.set(i, 1f / (1f + (float) Math.exp(-x.get(i))));
      tanh.set(i, (float) Math.tanh(x.get(i)));
    }
  }

  public static void powHypot(float[] a, float[] b, float[] pow, float[] hypot) {
    for (@Parallel int i = 0; i < a.length; i++) {
      pow[i] = (float) Math.pow(a[i], b[i]);
      hypot[i] = (float) Math.hypot(a[i], b[i]);
    }
  }

  /** C (n x m) = A (n x k) B (k x m), one work-item per element, products summed in order. */
  public static void matmul(FloatArray a, FloatArray b, FloatArray c, int n, int m, int k) {
    for (@Parallel int i = 0; i < n; i++)
      for (@Parallel int j = 0; j < m; j++) {
        float acc = 0f;
        for (int p = 0; p < k; p++) acc += a.get(i * k + p) * b.get(p * m + j);
        c.set(i * m + j, acc);
      }
  }

  /** A 3-point stencil over the interior; the ends keep their values. */
  public static void stencil(float[] in, float[] out) {
    for (@Parallel int i = 1; i < in.length - 1; i++) out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
  }

  /** Row-wise softmax: a max, a sum of exps and a division per row. */
  public static void softmaxRows(FloatArray x, FloatArray out, int cols) {
    for (@Parallel int r = 0; r < x.getSize() / cols; r++) {
      float max = Float.NEGATIVE_INFINITY;
      for (int c = 0; c < cols; c++) max = Math.max(max, x.get(r * cols + c));
      float sum = 0f;
      for (int c = 0; c < cols; c++) {
        float e = (float) Math.exp(x.get(r * cols + c) - max);
        out.set(r * cols + c, e);
        sum += e;
      }
      for (int c = 0; c < cols; c++) out.set(r * cols + c, out.get(r * cols + c) / sum);
    }
  }
}
