// Conformance kernels for the coarsen pass's rows form: loops whose lanes read along rows of memory side by side, read a block at a time by columns.
package dev.loopjit.conformance;

import dev.loopjit.api.Parallel;

/**
 * Kernels whose inner loop reads {@code a[row(x) + j]}: each lane of x its own row. On a CPU
 * OpenCL device, where the counts are multiples of the block and every access is proven in range
 * at launch, such a loop runs 8 iterations at a time with the rows read into a tile by columns
 * (the rows form); where a shape keeps it from that (a load behind a {@code ?:}, a stride of 2,
 * a start the loop changes, a narrow element), the jammed form. Checked against the jvm by
 * {@link RowKernelsTest}, each at trip counts below, at and past a block.
 */
public final class RowKernels {
  private RowKernels() {}

  /** Two rows read per lane (a and b), a loop from 3, a lane-independent value computed inside the loop. */
  public static void rowDot(float[] a, float[] b, float[] v, float[] out, int cols) {
    for (@Parallel int i = 0; i < out.length; i++) {
      float s = 0f;
      for (int j = 3; j < cols; j++) {
        float t = v[j] * 0.5f;
        s += a[i * cols + j] * b[i * cols + j] + t;
      }
      out[i] = s;
    }
  }

  /** Int and long rows: sums that wrap as Java's do; a row read twice. */
  public static void rowSumsInt(int[] m, long[] wide, int[] out, long[] outWide, int cols) {
    for (@Parallel int i = 0; i < out.length; i++) {
      int s = 0;
      long w = 0;
      for (int j = 0; j < cols; j++) {
        s = s * 3 + m[i * cols + j] + (m[i * cols + j] >> 2);
        w += wide[i * cols + j] * 1_000_003L;
      }
      out[i] = s;
      outWide[i] = w;
    }
  }

  /** Double, 2-D: rows of x (batch) jammed, rows of w read side by side, an offset into w. */
  public static void denseDouble(double[] x, double[] w, double[] out, int batch, int in, int outputs, int offset) {
    for (@Parallel int r = 0; r < batch; r++)
      for (@Parallel int o = 0; o < outputs; o++) {
        double s = 0;
        for (int i = 0; i < in; i++) s = s + x[r * in + i] * w[offset + o * in + i];
        out[r * outputs + o] = s;
      }
  }

  /** The blocked loop inside another: channels of a row, each row a run of cols elements. */
  public static void channelSums(float[] m, float[] out, int channels, int cols) {
    for (@Parallel int i = 0; i < out.length; i++) {
      float s = 0f;
      for (int c = 0; c < channels; c++)
        for (int j = 0; j < cols; j++) s += m[(i * channels + c) * cols + j] * (c + 1);
      out[i] = s;
    }
  }

  /** The row's load only under a {@code ?:} (not made by every iteration): jammed, not blocked. */
  public static void selected(float[] m, float[] v, float[] out, int cols) {
    for (@Parallel int i = 0; i < out.length; i++) {
      float s = 0f;
      for (int j = 0; j < cols; j++) s += v[j] > 0f ? m[i * cols + j] : v[j];
      out[i] = s;
    }
  }

  /** Every other element of the row (a stride of 2): not blocked. */
  public static void strided(float[] m, float[] out, int cols) {
    for (@Parallel int i = 0; i < out.length; i++) {
      float s = 0f;
      for (int j = 0; j < cols / 2; j++) s += m[i * cols + 2 * j];
      out[i] = s;
    }
  }

  /** A start the loop moves (p): not blocked. */
  public static void moving(float[] m, float[] out, int cols) {
    for (@Parallel int i = 0; i < out.length; i++) {
      float s = 0f;
      int p = i * cols;
      for (int j = 0; j < cols; j++) {
        s = s * 0.5f + m[p + j];
        p = p + (j & 1) - (j & 1);
      }
      out[i] = s;
    }
  }

  /** Bytes and shorts (no vector load of them): jammed, widened per lane. */
  public static void narrow(byte[] m, short[] n, int[] out, int cols) {
    for (@Parallel int i = 0; i < out.length; i++) {
      int s = 0;
      for (int j = 0; j < cols; j++) s += m[i * cols + j] * n[i * cols + j];
      out[i] = s;
    }
  }
}
