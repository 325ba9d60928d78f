// The dense (fully connected) layer as @Parallel-loop kernels: y = x · Wᵀ + b over a batch, and its backward pass.
// Not a layer object: Sequential places W and b in the flat parameter array and wires these into task graphs.
package dev.loopjit.nn;

import dev.loopjit.api.Parallel;
import dev.loopjit.types.FloatArray;

/**
 * A dense layer in the manner of llm.c: plain loops over flat arrays. Shapes, row-major:
 * <pre>
 * B = rows of the batch, IN = input features, OUT = output features
 * x (B, IN), y (B, OUT), W (OUT, IN) at params[w], b (OUT) at params[bias]
 * </pre>
 * Each kernel comes three times. The {@code …Naive} one is the reference: one work-item per output
 * element and a sequential sum. The plain one gives each work-item a 4×4 tile of outputs, so that
 * every value loaded feeds four products instead of one (on PoCL ~10× faster; a CPU device does
 * not vectorise a loop inside a work-item, and strict float semantics forbid reordering the sum);
 * GPUs run it. The {@code …Strips} one, for CPUs and the JVM, keeps 8 rows × up to 128 columns in
 * private rows and adds an outer product per step of the sum, a loop that vectorises (2–3× less
 * CPU time than the tiles on PoCL for 1600 → 128). Each output's sum runs in the same order in all
 * three, so they agree bit for bit with each other and, since Java forbids FMA contraction, on
 * every device.
 */
public final class DenseKernels {
  /** Outputs per work-item along each tile dimension. */
  static final int TILE = 4;

  private DenseKernels() {}

  /** {@code y = x · Wᵀ + b}. x (B, IN), params: W (OUT, IN) at w, b (OUT) at bias; y (B, OUT). */
  public static void denseForward(FloatArray x, FloatArray params, int w, int bias, FloatArray y, int batch, int in, int out) {
    for (@Parallel int bt = 0; bt < (batch + TILE - 1) / TILE; bt++)
      for (@Parallel int ot = 0; ot < (out + TILE - 1) / TILE; ot++)
        tile(x, 0, in, 1, params, w, 1, in, params, bias, y, 0, out, batch, out, in, bt * TILE, ot * TILE);
  }

  /** {@code dx = dy · W}: the gradient passed down. dy (B, OUT), params: W (OUT, IN) at w; dx (B, IN). */
  public static void denseBackwardInput(FloatArray dy, FloatArray params, int w, FloatArray dx, int batch, int in, int out) {
    for (@Parallel int bt = 0; bt < (batch + TILE - 1) / TILE; bt++)
      for (@Parallel int it = 0; it < (in + TILE - 1) / TILE; it++)
        tile(dy, 0, out, 1, params, w, in, 1, params, -1, dx, 0, in, batch, in, out, bt * TILE, it * TILE);
  }

  /**
   * {@code dW = dyᵀ · x}, written over (not added to) the gradient, so a step needs no zeroing.
   * dy (B, OUT), x (B, IN); grads: dW (OUT, IN) at w.
   */
  public static void denseBackwardWeights(FloatArray dy, FloatArray x, FloatArray grads, int w, int batch, int in, int out) {
    for (@Parallel int ot = 0; ot < (out + TILE - 1) / TILE; ot++)
      for (@Parallel int it = 0; it < (in + TILE - 1) / TILE; it++)
        tile(dy, 0, 1, out, x, 0, in, 1, x, -1, grads, w, in, out, in, batch, ot * TILE, it * TILE);
  }

  /** {@code db = Σ_b dy[b]}. dy (B, OUT); grads: db (OUT) at bias. */
  public static void denseBackwardBias(FloatArray dy, FloatArray grads, int bias, int batch, int out) {
    for (@Parallel int o = 0; o < out; o++) {
      float acc = 0f;
      for (int b = 0; b < batch; b++) acc += dy.get(b * out + o);
      grads.set(bias + o, acc);
    }
  }

  /** Reference for {@link #denseForward}: one work-item per output, the library's {@link dev.loopjit.tasks.Dense#forwardAt}. */
  public static void denseForwardNaive(FloatArray x, FloatArray params, int w, int bias, FloatArray y, int batch, int in, int out) {
    dev.loopjit.tasks.Dense.forwardAt(x, params, w, params, bias, y, batch, in, out);
  }

  /**
   * {@link #denseForwardNaive} over the weights transposed ({@link #weightsTransposed}: wt (IN, OUT)),
   * one output per work-item, the same sums in the same order: the shape of a matrix product, whose
   * outputs lie side by side along the weights' rows, which CPU compilers coarsen into vector rows.
   * At batch 128, 784 → 256, with its transpose: 0.70–0.78 ms against 4.3 for the naive kernel on
   * {@code jvm-mt} (two cores), and the same as the naive kernel on PoCL.
   */
  public static void denseForwardTransposedNaive(FloatArray x, FloatArray wt, FloatArray params, int bias, FloatArray y, int batch, int in, int out) {
    for (@Parallel int b = 0; b < batch; b++)
      for (@Parallel int o = 0; o < out; o++) {
        float acc = params.get(bias + o);
        for (int i = 0; i < in; i++) acc += x.get(b * in + i) * wt.get(i * out + o);
        y.set(b * out + o, acc);
      }
  }

  /** Reference for {@link #denseBackwardInput}. */
  public static void denseBackwardInputNaive(FloatArray dy, FloatArray params, int w, FloatArray dx, int batch, int in, int out) {
    for (@Parallel int b = 0; b < batch; b++)
      for (@Parallel int i = 0; i < in; i++) {
        float acc = 0f;
        for (int o = 0; o < out; o++) acc += dy.get(b * out + o) * params.get(w + o * in + i);
        dx.set(b * in + i, acc);
      }
  }

  /** Reference for {@link #denseBackwardWeights}. */
  public static void denseBackwardWeightsNaive(FloatArray dy, FloatArray x, FloatArray grads, int w, int batch, int in, int out) {
    for (@Parallel int o = 0; o < out; o++)
      for (@Parallel int i = 0; i < in; i++) {
        float acc = 0f;
        for (int b = 0; b < batch; b++) acc += dy.get(b * out + o) * x.get(b * in + i);
        grads.set(w + o * in + i, acc);
      }
  }

  /** Columns per work-item in the strip kernels; rows per work-item are {@link ConvKernels#ROWS}. */
  static final int STRIP = 128;

  /** {@code wt (IN, OUT) = Wᵀ}, for {@link #denseForwardStrips}. params: W (OUT, IN) at w. */
  public static void weightsTransposed(FloatArray params, int w, FloatArray wt, int in, int out) {
    for (@Parallel int i = 0; i < in; i++)
      for (@Parallel int o = 0; o < out; o++) wt.set(i * out + o, params.get(w + o * in + i));
  }

  /**
   * {@link #denseForward} as outer products, for CPUs: a work-item computes 8 rows of the batch
   * for up to {@link #STRIP} outputs, kept in private rows; the loop over the outputs carries no
   * reduction, so it vectorises. The same sums in the same order: equal bit for bit.
   * x (B, IN), wt (IN, OUT) from {@link #weightsTransposed}, b (OUT) at params[bias]; y (B, OUT).
   */
  public static void denseForwardStrips(FloatArray x, FloatArray wt, FloatArray params, int bias, FloatArray y, int batch, int in, int out) {
    for (@Parallel int os = 0; os < (out + STRIP - 1) / STRIP; os++)
      for (@Parallel int bb = 0; bb < (batch + 7) / 8; bb++) {
        int b = bb * 8, o0 = os * STRIP, n = Math.min(STRIP, out - o0), last = batch - 1;
        int a0 = b * in, a1 = Math.min(b + 1, last) * in, a2 = Math.min(b + 2, last) * in, a3 = Math.min(b + 3, last) * in;
        int a4 = Math.min(b + 4, last) * in, a5 = Math.min(b + 5, last) * in, a6 = Math.min(b + 6, last) * in, a7 = Math.min(b + 7, last) * in;
        float[] c0 = new float[STRIP], c1 = new float[STRIP], c2 = new float[STRIP], c3 = new float[STRIP];
        float[] c4 = new float[STRIP], c5 = new float[STRIP], c6 = new float[STRIP], c7 = new float[STRIP];
        for (int q = 0; q < n; q++) {
          float v = params.get(bias + o0 + q);
          c0[q] = v; c1[q] = v; c2[q] = v; c3[q] = v; c4[q] = v; c5[q] = v; c6[q] = v; c7[q] = v;
        }
        for (int i = 0; i < in; i++) {
          float x0 = x.get(a0 + i), x1 = x.get(a1 + i), x2 = x.get(a2 + i), x3 = x.get(a3 + i);
          float x4 = x.get(a4 + i), x5 = x.get(a5 + i), x6 = x.get(a6 + i), x7 = x.get(a7 + i);
          int row = i * out + o0;
          for (int q = 0; q < n; q++) {
            float w = wt.get(row + q);
            c0[q] += x0 * w; c1[q] += x1 * w; c2[q] += x2 * w; c3[q] += x3 * w;
            c4[q] += x4 * w; c5[q] += x5 * w; c6[q] += x6 * w; c7[q] += x7 * w;
          }
        }
        storeStrip(y, b * out + o0, out, n, Math.min(8, batch - b), c0, c1, c2, c3, c4, c5, c6, c7);
      }
  }

  /** {@link #denseBackwardInput} as outer products: 8 rows of the batch, up to {@link #STRIP} inputs. dy (B, OUT), W (OUT, IN) at w; dx (B, IN). */
  public static void denseBackwardInputStrips(FloatArray dy, FloatArray params, int w, FloatArray dx, int batch, int in, int out) {
    for (@Parallel int is = 0; is < (in + STRIP - 1) / STRIP; is++)
      for (@Parallel int bb = 0; bb < (batch + 7) / 8; bb++) {
        int b = bb * 8, i0 = is * STRIP, n = Math.min(STRIP, in - i0), last = batch - 1;
        int a0 = b * out, a1 = Math.min(b + 1, last) * out, a2 = Math.min(b + 2, last) * out, a3 = Math.min(b + 3, last) * out;
        int a4 = Math.min(b + 4, last) * out, a5 = Math.min(b + 5, last) * out, a6 = Math.min(b + 6, last) * out, a7 = Math.min(b + 7, last) * out;
        float[] c0 = new float[STRIP], c1 = new float[STRIP], c2 = new float[STRIP], c3 = new float[STRIP];
        float[] c4 = new float[STRIP], c5 = new float[STRIP], c6 = new float[STRIP], c7 = new float[STRIP];
        for (int o = 0; o < out; o++) {
          float x0 = dy.get(a0 + o), x1 = dy.get(a1 + o), x2 = dy.get(a2 + o), x3 = dy.get(a3 + o);
          float x4 = dy.get(a4 + o), x5 = dy.get(a5 + o), x6 = dy.get(a6 + o), x7 = dy.get(a7 + o);
          int row = w + o * in + i0;
          for (int q = 0; q < n; q++) {
            float v = params.get(row + q);
            c0[q] += x0 * v; c1[q] += x1 * v; c2[q] += x2 * v; c3[q] += x3 * v;
            c4[q] += x4 * v; c5[q] += x5 * v; c6[q] += x6 * v; c7[q] += x7 * v;
          }
        }
        storeStrip(dx, b * in + i0, in, n, Math.min(8, batch - b), c0, c1, c2, c3, c4, c5, c6, c7);
      }
  }

  /** {@link #denseBackwardWeights} as outer products: 8 outputs, up to {@link #STRIP} inputs each. dy (B, OUT), x (B, IN); dW (OUT, IN) at grads[w]. */
  public static void denseBackwardWeightsStrips(FloatArray dy, FloatArray x, FloatArray grads, int w, int batch, int in, int out) {
    for (@Parallel int is = 0; is < (in + STRIP - 1) / STRIP; is++)
      for (@Parallel int ob = 0; ob < (out + 7) / 8; ob++) {
        int o = ob * 8, i0 = is * STRIP, n = Math.min(STRIP, in - i0), last = out - 1;
        int d1 = Math.min(o + 1, last), d2 = Math.min(o + 2, last), d3 = Math.min(o + 3, last), d4 = Math.min(o + 4, last);
        int d5 = Math.min(o + 5, last), d6 = Math.min(o + 6, last), d7 = Math.min(o + 7, last);
        float[] c0 = new float[STRIP], c1 = new float[STRIP], c2 = new float[STRIP], c3 = new float[STRIP];
        float[] c4 = new float[STRIP], c5 = new float[STRIP], c6 = new float[STRIP], c7 = new float[STRIP];
        for (int b = 0; b < batch; b++) {
          int at = b * out;
          float x0 = dy.get(at + o), x1 = dy.get(at + d1), x2 = dy.get(at + d2), x3 = dy.get(at + d3);
          float x4 = dy.get(at + d4), x5 = dy.get(at + d5), x6 = dy.get(at + d6), x7 = dy.get(at + d7);
          int row = b * in + i0;
          for (int q = 0; q < n; q++) {
            float v = x.get(row + q);
            c0[q] += x0 * v; c1[q] += x1 * v; c2[q] += x2 * v; c3[q] += x3 * v;
            c4[q] += x4 * v; c5[q] += x5 * v; c6[q] += x6 * v; c7[q] += x7 * v;
          }
        }
        storeStrip(grads, w + o * in + i0, in, n, Math.min(8, out - o), c0, c1, c2, c3, c4, c5, c6, c7);
      }
  }

  /** Writes the first {@code rows} of eight private rows, {@code n} values each, at {@code at}, {@code at + stride}, …. Inlined. */
  private static void storeStrip(FloatArray out, int at, int stride, int n, int rows, float[] c0, float[] c1, float[] c2, float[] c3, float[] c4,
      float[] c5, float[] c6, float[] c7) {
    for (int q = 0; q < n; q++) {
      out.set(at + q, c0[q]);
      if (rows > 1) out.set(at + stride + q, c1[q]);
      if (rows > 2) out.set(at + 2 * stride + q, c2[q]);
      if (rows > 3) out.set(at + 3 * stride + q, c3[q]);
      if (rows > 4) out.set(at + 4 * stride + q, c4[q]);
      if (rows > 5) out.set(at + 5 * stride + q, c5[q]);
      if (rows > 6) out.set(at + 6 * stride + q, c6[q]);
      if (rows > 7) out.set(at + 7 * stride + q, c7[q]);
    }
  }

  /**
   * One 4×4 tile of {@code C = init + A · B}, rows {@code r0..r0+3} and columns {@code c0..c0+3}
   * clipped to {@code rows × cols}, summing over k = 0..depth-1 in order:
   * <pre>
   * A(r, k) = a[r·aRow + k·aK + aAt]      B(k, c) = m[bAt + k·bK + c·bCol]
   * C(r, c) = out[outAt + r·outRow + c]   init(c) = init[initAt + c], or 0 when initAt &lt; 0
   * </pre>
   * Rows and columns past the edge load from the last valid one (in bounds, results dropped), so
   * the loop has no branches. Inlined into each kernel; the strides of 1 fold away there.
   */
  private static void tile(FloatArray a, int aAt, int aRow, int aK, FloatArray m, int bAt, int bK, int bCol, FloatArray init, int initAt,
      FloatArray out, int outAt, int outRow, int rows, int cols, int depth, int r0, int c0) {
    int ra0 = aAt + r0 * aRow, ra1 = aAt + Math.min(r0 + 1, rows - 1) * aRow;
    int ra2 = aAt + Math.min(r0 + 2, rows - 1) * aRow, ra3 = aAt + Math.min(r0 + 3, rows - 1) * aRow;
    int cb0 = bAt + c0 * bCol, cb1 = bAt + Math.min(c0 + 1, cols - 1) * bCol;
    int cb2 = bAt + Math.min(c0 + 2, cols - 1) * bCol, cb3 = bAt + Math.min(c0 + 3, cols - 1) * bCol;
    float i0 = 0f, i1 = 0f, i2 = 0f, i3 = 0f;
    if (initAt >= 0) {
      i0 = init.get(initAt + c0);
      i1 = init.get(initAt + Math.min(c0 + 1, cols - 1));
      i2 = init.get(initAt + Math.min(c0 + 2, cols - 1));
      i3 = init.get(initAt + Math.min(c0 + 3, cols - 1));
    }
    float s00 = i0, s01 = i1, s02 = i2, s03 = i3, s10 = i0, s11 = i1, s12 = i2, s13 = i3;
    float s20 = i0, s21 = i1, s22 = i2, s23 = i3, s30 = i0, s31 = i1, s32 = i2, s33 = i3;
    for (int k = 0; k < depth; k++) {
      float a0 = a.get(ra0 + k * aK), a1 = a.get(ra1 + k * aK), a2 = a.get(ra2 + k * aK), a3 = a.get(ra3 + k * aK);
      float b0 = m.get(cb0 + k * bK), b1 = m.get(cb1 + k * bK), b2 = m.get(cb2 + k * bK), b3 = m.get(cb3 + k * bK);
      s00 += a0 * b0; s01 += a0 * b1; s02 += a0 * b2; s03 += a0 * b3;
      s10 += a1 * b0; s11 += a1 * b1; s12 += a1 * b2; s13 += a1 * b3;
      s20 += a2 * b0; s21 += a2 * b1; s22 += a2 * b2; s23 += a2 * b3;
      s30 += a3 * b0; s31 += a3 * b1; s32 += a3 * b2; s33 += a3 * b3;
    }
    int at = outAt + r0 * outRow + c0;
    storeRow(out, at, c0, cols, s00, s01, s02, s03);
    if (r0 + 1 < rows) storeRow(out, at + outRow, c0, cols, s10, s11, s12, s13);
    if (r0 + 2 < rows) storeRow(out, at + 2 * outRow, c0, cols, s20, s21, s22, s23);
    if (r0 + 3 < rows) storeRow(out, at + 3 * outRow, c0, cols, s30, s31, s32, s33);
  }

  private static void storeRow(FloatArray out, int at, int c0, int cols, float v0, float v1, float v2, float v3) {
    out.set(at, v0);
    if (c0 + 1 < cols) out.set(at + 1, v1);
    if (c0 + 2 < cols) out.set(at + 2, v2);
    if (c0 + 3 < cols) out.set(at + 3, v3);
  }
}
