// Conformance kernels over double: exact IEEE operations, compensated sums, Math functions with stated ULPs.
package dev.loopjit.conformance;

import dev.loopjit.api.Parallel;
import dev.loopjit.types.DoubleArray;

/** double kernels, checked against the jvm by {@link DoubleKernelsTest}. */
public final class DoubleKernels {
  private DoubleKernels() {}

  public static void daxpy(double a, DoubleArray x, DoubleArray y) {
    for (@Parallel int i = 0; i < y.getSize(); i++) y.set(i, a * x.get(i) + y.get(i));
  }

  public static void arithmetic(double[] a, double[] b, double[] out) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = (a[i] + b[i]) * (a[i] - b[i]) / (b[i] + 3.0);
  }

  /** sqrt and %: both exact in Java. Two results per element. */
  public static void sqrtRemainder(double[] a, double[] b, double[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      out[2 * i] = Math.sqrt(a[i]);
      out[2 * i + 1] = a[i] % b[i];
    }
  }

  /** floor, ceil, rint and Math.round to long. */
  public static void roundings(double[] a, double[] out, long[] rounded) {
    for (@Parallel int i = 0; i < a.length; i++) {
      out[3 * i] = Math.floor(a[i]);
      out[3 * i + 1] = Math.ceil(a[i]);
      out[3 * i + 2] = Math.rint(a[i]);
      rounded[i] = Math.round(a[i]);
    }
  }

  public static void expLog(double[] a, double[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      out[2 * i] = Math.exp(a[i]);
      out[2 * i + 1] = Math.log(a[i]);
    }
  }

  public static void trig(double[] a, double[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      out[3 * i] = Math.sin(a[i]);
      out[3 * i + 1] = Math.cos(a[i]);
      out[3 * i + 2] = Math.tan(a[i]);
    }
  }

  public static void powAtan2(double[] a, double[] b, double[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      out[2 * i] = Math.pow(a[i], b[i]);
      out[2 * i + 1] = Math.atan2(a[i], b[i]);
    }
  }

  public static void cbrtHypotExpm1Log1p(double[] a, double[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      out[4 * i] = Math.cbrt(a[i]);
      out[4 * i + 1] = Math.hypot(a[i], 3.0);
      out[4 * i + 2] = Math.expm1(a[i]);
      out[4 * i + 3] = Math.log1p(a[i]);
    }
  }

  /** Kahan summation per row: reassociating or fusing it changes the result, so it checks both are absent. */
  public static void kahanRowSums(DoubleArray m, DoubleArray out, int cols) {
    for (@Parallel int r = 0; r < out.getSize(); r++) {
      double sum = 0.0, compensation = 0.0;
      for (int c = 0; c < cols; c++) {
        double y = m.get(r * cols + c) - compensation;
        double t = sum + y;
        compensation = (t - sum) - y;
        sum = t;
      }
      out.set(r, sum);
    }
  }

  /** float operands promoted to double, float products widened after rounding, doubles narrowed. */
  public static void mixedPrecision(float[] a, double[] b, double[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      float f = a[i] * a[i];
      out[2 * i] = a[i] * b[i] + f;
      out[2 * i + 1] = (float) b[i] + a[i] * 0.1f;
    }
  }
}
