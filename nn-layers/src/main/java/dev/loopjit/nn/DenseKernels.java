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
 * Each kernel comes twice. The {@code …Naive} one is the reference: one work-item per output
 * element and a sequential sum. The other gives each work-item a 4×4 tile of outputs, so that
 * every value loaded feeds four products instead of one (on PoCL ~10× faster; a CPU device does
 * not vectorise a loop inside a work-item, and strict float semantics forbid reordering the sum).
 * Each output's sum runs in the same order in both, so they agree bit for bit with each other and,
 * since Java forbids FMA contraction, on every device.
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

  /** Reference for {@link #denseForward}: one work-item per output. */
  public static void denseForwardNaive(FloatArray x, FloatArray params, int w, int bias, FloatArray y, int batch, int in, int out) {
    for (@Parallel int b = 0; b < batch; b++)
      for (@Parallel int o = 0; o < out; o++) {
        float acc = params.get(bias + o);
        for (int i = 0; i < in; i++) acc += x.get(b * in + i) * params.get(w + o * in + i);
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
