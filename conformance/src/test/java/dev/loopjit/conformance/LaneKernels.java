// Conformance kernels for the coarsen pass: shapes a CPU device computes in blocks of lanes (and rows), each bit-identical to the jvm.
package dev.loopjit.conformance;

import dev.loopjit.api.Parallel;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;

/**
 * Kernels whose inner loop reads along x, so that on a CPU OpenCL device, when the counts are
 * multiples of the lanes (16) and rows (4) and every access is proven in range at launch, one
 * work-item computes a block of iterations ({@code coarsen} pass). Checked against the jvm by
 * {@link LaneKernelsTest} at sizes that coarsen and sizes that do not.
 */
public final class LaneKernels {
  private LaneKernels() {}

  /** Float matmul, C = A·B with A m×k and B k×n. */
  public static void matmul(FloatArray a, FloatArray b, FloatArray c, int m, int n, int k) {
    for (@Parallel int i = 0; i < m; i++)
      for (@Parallel int j = 0; j < n; j++) {
        float acc = 0f;
        for (int p = 0; p < k; p++) acc += a.get(i * k + p) * b.get(p * n + j);
        c.set(i * n + j, acc);
      }
  }

  /** Int matmul: sums that overflow wrap as Java's do, in every lane. */
  public static void matmulInt(int[] a, int[] b, int[] c, int m, int n, int k) {
    for (@Parallel int i = 0; i < m; i++)
      for (@Parallel int j = 0; j < n; j++) {
        int acc = 0;
        for (int p = 0; p < k; p++) acc += a[i * k + p] * b[p * n + j];
        c[i * n + j] = acc;
      }
  }

  /** Double matmul with a bias row, a uniform branch on a parameter and a helper. */
  public static void denseDouble(double[] x, double[] w, double[] bias, double[] out, int batch, int outputs, int inputs, boolean relu) {
    for (@Parallel int r = 0; r < batch; r++)
      for (@Parallel int o = 0; o < outputs; o++) {
        double s = bias[o];
        for (int q = 0; q < inputs; q++) s = s + x[r * inputs + q] * w[q * outputs + o];
        out[r * outputs + o] = relu ? activate(s) : s;
      }
  }

  private static double activate(double s) {
    return Math.max(0.0, s);
  }

  /** 1-D: column sums of a rows×n matrix, scaled, with a select that differs per lane. */
  public static void columnSums(float[] m, float[] out, int rows) {
    for (@Parallel int j = 0; j < out.length; j++) {
      float s = 0f;
      for (int r = 0; r < rows; r++) {
        float v = m[r * out.length + j];
        s += v > 0f ? v : -0.5f * v;
      }
      out[j] = s * 0.25f;
    }
  }

  /** The transpose of a product: stores across x (j · m + i), loads along it. */
  public static void productTransposed(float[] a, float[] b, float[] t, int m, int n, int k) {
    for (@Parallel int i = 0; i < m; i++)
      for (@Parallel int j = 0; j < n; j++) {
        float acc = 1f;
        for (int p = 0; p < k; p++) acc = acc * 0.5f + a[i * k + p] - b[p * n + j];
        t[j * m + i] = acc;
      }
  }

  /** Narrow inputs and a narrow output: bytes and shorts widened per lane, the sum narrowed back. */
  public static void narrow(byte[] a, short[] b, short[] out, IntArray scale, int rows) {
    for (@Parallel int j = 0; j < out.length; j++) {
      int s = scale.get(0);
      for (int r = 0; r < rows; r++) s = s * 3 + a[r * out.length + j] * b[r * out.length + j];
      out[j] = (short) (s >> 2);
    }
  }

  /** A dense layer with W as (out, in): each output reads a row of W, across x — the jammed form, 8 × 8 per work-item. */
  public static void denseRows(FloatArray x, FloatArray w, FloatArray bias, FloatArray y, int batch, int in, int out) {
    for (@Parallel int r = 0; r < batch; r++)
      for (@Parallel int o = 0; o < out; o++) {
        float acc = bias.get(o);
        for (int i = 0; i < in; i++) acc += x.get(r * in + i) * w.get(o * in + i);
        y.set(r * out + o, acc);
      }
  }

  /** Matrix-vector: a row per iteration (1-D, jammed), with a long accumulator beside the float one. */
  public static void matrixVector(float[] m, float[] v, float[] out, long[] checksum, int cols) {
    for (@Parallel int i = 0; i < out.length; i++) {
      float s = 0f;
      long c = i;
      for (int j = 0; j < cols; j++) {
        s += m[i * cols + j] * v[j];
        c = c * 31 + (long) m[i * cols + j];
      }
      out[i] = s;
      checksum[i] = c;
    }
  }

  /** A branch that differs between rows, not lanes (even rows sum, odd rows do not): lanes alone. */
  public static void evenRows(float[] a, float[] b, float[] c, int n) {
    for (@Parallel int i = 0; i < n; i++)
      for (@Parallel int j = 0; j < n; j++) {
        float acc = 0f;
        if ((i & 1) == 0) {
          for (int p = 0; p < n; p++) acc += a[i * n + p] * b[p * n + j];
        } else {
          acc = b[j] * 2f;
        }
        c[i * n + j] = acc;
      }
  }
}
