// Conformance kernels for @Reduce: every operator and type, several outputs, reductions in nested and 2-D loops.
package dev.loopjit.conformance;

import dev.loopjit.api.Parallel;
import dev.loopjit.api.Reduce;
import dev.loopjit.types.DoubleArray;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import dev.loopjit.types.LongArray;

/** Reductions as a TornadoVM user writes them; the jvm runs them as the sequential loops they are. */
public final class ReductionKernels {
  private ReductionKernels() {}

  public static void sumLong(long[] in, @Reduce long[] out) {
    for (@Parallel int i = 0; i < in.length; i++) out[0] += in[i];
  }

  public static void productDouble(DoubleArray in, @Reduce DoubleArray out) {
    for (@Parallel int i = 0; i < in.getSize(); i++) out.set(0, out.get(0) * in.get(i));
  }

  public static void minInt(IntArray in, @Reduce IntArray out) {
    for (@Parallel int i = 0; i < in.getSize(); i++) out.set(0, Math.min(out.get(0), in.get(i)));
  }

  public static void maxDouble(double[] in, @Reduce double[] out) {
    for (@Parallel int i = 0; i < in.length; i++) out[0] = Math.max(in[i], out[0]);
  }

  /** Math.min's NaN and signed-zero rules must survive the tree. */
  public static void minFloat(float[] in, @Reduce float[] out) {
    for (@Parallel int i = 0; i < in.length; i++) out[0] = Math.min(out[0], in[i]);
  }

  /** Three outputs of one task, one of them at index 1, and a product of longs that wraps. */
  public static void statistics(float[] in, @Reduce float[] sum, @Reduce float[] extremes, @Reduce long[] product) {
    for (@Parallel int i = 0; i < in.length; i++) {
      float v = in[i];
      sum[0] += v * v;
      extremes[1] = Math.max(extremes[1], v);
      product[0] *= (long) v | 1;
    }
  }

  /** Several updates per work-item, from a sequential loop inside the parallel one. */
  public static void rowsTotal(int[] m, @Reduce int[] out, int cols) {
    for (@Parallel int r = 0; r < m.length / cols; r++)
      for (int c = 0; c < cols; c++) out[0] += m[r * cols + c];
  }

  /** A 2-D nest: the tree spans the whole work-group. */
  public static void total2d(FloatArray m, @Reduce FloatArray out, int rows, int cols) {
    for (@Parallel int r = 0; r < rows; r++)
      for (@Parallel int c = 0; c < cols; c++) out.set(0, out.get(0) + m.get(r * cols + c));
  }

  /** Refused: the reduce array is read for something else. */
  public static void readsItsOutput(float[] in, @Reduce float[] out) {
    for (@Parallel int i = 0; i < in.length; i++) out[0] = out[0] + in[i] * out[0];
  }

  /** Refused: subtraction is not an associative reduction. */
  public static void subtracts(int[] in, @Reduce int[] out) {
    for (@Parallel int i = 0; i < in.length; i++) out[0] = out[0] - in[i];
  }

  private static int plus(int a, int b) {
    return a + b;
  }

  private static long times(long a, long b) {
    return a * b;
  }

  /**
   * Updates through helpers in the cases of a switch. Each reaches the reduce pass as the helper's
   * body, a block, then the update ({@code {a = x; b = out[0]; t = a + b} out[0] = t}); the locals
   * are forwarded into the update in a case as at the top of the iteration.
   */
  public static void sumBySwitch(int[] in, @Reduce int[] out, @Reduce long[] product) {
    for (@Parallel int i = 0; i < in.length; i++) {
      switch (in[i] & 3) {
        case 0 -> out[0] = plus(out[0], in[i]);
        case 1 -> {
          out[0] = plus(2 * in[i], out[0]);
          product[0] = times(product[0], in[i] | 1);
        }
        case 2 -> product[0] = times(in[i] >> 2 | 1, product[0]);
        default -> out[0] = plus(out[0], 1);
      }
    }
  }

  /** Updates through a helper in an if's arms and in a sequential loop inside the parallel one. */
  public static void sumByBranchAndLoop(int[] m, @Reduce int[] out, int cols) {
    for (@Parallel int r = 0; r < m.length / cols; r++) {
      if ((r & 1) == 0) out[0] = plus(out[0], m[r * cols]);
      else out[0] = plus(-m[r * cols], out[0]);
      for (int c = 1; c < cols; c++) out[0] = plus(m[r * cols + c], out[0]);
    }
  }
}
