// BLAS-3: C = A·B four ways — the naive loop, tiles in local memory, register blocks, and outer-product strips (fastest on CPUs).
package dev.loopjit.tasks;

import dev.loopjit.api.KernelContext;
import dev.loopjit.api.Parallel;
import dev.loopjit.api.WorkerGrid2D;
import dev.loopjit.types.FloatArray;

/**
 * Single-precision matrix products over flat row-major arrays, {@code C = A·B} with
 * <pre>
 * M = rows of A and C, N = columns of B and C, K = columns of A = rows of B
 * a (M, K), b (K, N), c (M, N)
 * </pre>
 * {@link #gemmNaive} is the reference; the other three compute every {@code c[i][j]} as the same
 * sum in the same order ({@code 0 + a[i][0]·b[0][j] + a[i][1]·b[1][j] + …}), so with Java's strict
 * float semantics (no FMA contraction) all four agree bit for bit with each other and on every
 * device. They differ only in how work is shared out:
 * <ul>
 * <li>{@link #gemmNaive}: one work-item per element of C;
 * <li>{@link #gemmTiled}: a {@code KernelContext} kernel, the GPU textbook version — a work-group
 *     of {@link #TILE}×{@link #TILE} work-items stages tiles of A and B in local memory;
 * <li>{@link #gemmRegisterBlocked}: one work-item per 4×4 block of C in sixteen scalars, so each
 *     value loaded feeds four products;
 * <li>{@link #gemmOuterProduct}: one work-item per 8×256 strip of C, kept in eight private rows
 *     and updated by one outer product per k. Its innermost loop runs along a row of B with no
 *     reduction in it, which a CPU OpenCL compiler vectorises: the fastest here by far
 *     (docs/PERFORMANCE.md, "tornado-tasks").
 * </ul>
 *
 * <pre>{@code
 * new TaskGraph("mm").task("gemm", Blas3::gemmOuterProduct, a, b, c, m, n, k)
 * }</pre>
 */
public final class Blas3 {
  /** Side of the square tiles of {@link #gemmTiled}; its work-groups are TILE×TILE. */
  public static final int TILE = 16;
  /** Rows of C per work-item in {@link #gemmOuterProduct}. */
  public static final int STRIP_ROWS = 8;
  /** Columns of C per work-item in {@link #gemmOuterProduct}. */
  public static final int STRIP_COLS = 256;
  /** Rows and columns of C per work-item in {@link #gemmRegisterBlocked}. */
  public static final int BLOCK = 4;

  private Blas3() {}

  /** {@code C = A·B}, one work-item per element of C: the reference. a (M, K), b (K, N), c (M, N). */
  public static void gemmNaive(FloatArray a, FloatArray b, FloatArray c, int m, int n, int k) {
    for (@Parallel int i = 0; i < m; i++)
      for (@Parallel int j = 0; j < n; j++) {
        float acc = 0f;
        for (int p = 0; p < k; p++) acc += a.get(i * k + p) * b.get(p * n + j);
        c.set(i * n + j, acc);
      }
  }

  /**
   * {@code C = A·B} through local memory: each work-group computes a TILE×TILE tile of C, one
   * element per work-item, and walks K one tile at a time — all its work-items load one element
   * of A's tile and one of B's, wait, then each sums a row of one against a column of the other.
   * Launch with {@link #tiledGrid}. a (M, K), b (K, N), c (M, N).
   */
  public static void gemmTiled(KernelContext ctx, FloatArray a, FloatArray b, FloatArray c, int m, int n, int k) {
    float[] tileA = ctx.allocateFloatLocalArray(TILE * TILE);   // (TILE rows of C, TILE of K)
    float[] tileB = ctx.allocateFloatLocalArray(TILE * TILE);   // (TILE of K, TILE columns of C)
    int tx = ctx.localIdx, ty = ctx.localIdy;
    int row = ctx.groupIdy * TILE + ty, col = ctx.groupIdx * TILE + tx;
    float acc = 0f;
    for (int p0 = 0; p0 < k; p0 += TILE) {
      // Edge tiles: a load outside A or B is skipped and the k loop below stops at K, so the sum is the naive one.
      if (row < m && p0 + tx < k) tileA[ty * TILE + tx] = a.get(row * k + p0 + tx);
      if (p0 + ty < k && col < n) tileB[ty * TILE + tx] = b.get((p0 + ty) * n + col);
      ctx.localBarrier();
      int depth = Math.min(TILE, k - p0);
      for (int p = 0; p < depth; p++) acc += tileA[ty * TILE + p] * tileB[p * TILE + tx];
      ctx.localBarrier();   // the next tile overwrites what others may still be reading
    }
    if (row < m && col < n) c.set(row * n + col, acc);
  }

  /** The launch of {@link #gemmTiled} for an (M, N) result: x along N, y along M, TILE×TILE work-groups. */
  public static WorkerGrid2D tiledGrid(int m, int n) {
    WorkerGrid2D grid = new WorkerGrid2D(n, m);
    grid.setLocalWork(TILE, TILE, 1);
    return grid;
  }

  /**
   * {@code C = A·B}, one work-item per 4×4 block of C held in sixteen scalars: per k it loads
   * four values of A and four of B and makes sixteen products. Rows and columns past the edge
   * load the last valid one (in bounds, never stored), so the k loop has no branches.
   * a (M, K), b (K, N), c (M, N).
   */
  public static void gemmRegisterBlocked(FloatArray a, FloatArray b, FloatArray c, int m, int n, int k) {
    for (@Parallel int ib = 0; ib < (m + BLOCK - 1) / BLOCK; ib++)
      for (@Parallel int jb = 0; jb < (n + BLOCK - 1) / BLOCK; jb++) {
        int i = ib * BLOCK, j = jb * BLOCK;
        int a0 = i * k, a1 = Math.min(i + 1, m - 1) * k, a2 = Math.min(i + 2, m - 1) * k, a3 = Math.min(i + 3, m - 1) * k;
        int b0 = j, b1 = Math.min(j + 1, n - 1), b2 = Math.min(j + 2, n - 1), b3 = Math.min(j + 3, n - 1);
        float c00 = 0f, c01 = 0f, c02 = 0f, c03 = 0f, c10 = 0f, c11 = 0f, c12 = 0f, c13 = 0f;
        float c20 = 0f, c21 = 0f, c22 = 0f, c23 = 0f, c30 = 0f, c31 = 0f, c32 = 0f, c33 = 0f;
        for (int p = 0; p < k; p++) {
          float x0 = a.get(a0 + p), x1 = a.get(a1 + p), x2 = a.get(a2 + p), x3 = a.get(a3 + p);
          int row = p * n;
          float y0 = b.get(row + b0), y1 = b.get(row + b1), y2 = b.get(row + b2), y3 = b.get(row + b3);
          c00 += x0 * y0; c01 += x0 * y1; c02 += x0 * y2; c03 += x0 * y3;
          c10 += x1 * y0; c11 += x1 * y1; c12 += x1 * y2; c13 += x1 * y3;
          c20 += x2 * y0; c21 += x2 * y1; c22 += x2 * y2; c23 += x2 * y3;
          c30 += x3 * y0; c31 += x3 * y1; c32 += x3 * y2; c33 += x3 * y3;
        }
        storeRow4(c, i, j, m, n, c00, c01, c02, c03);
        storeRow4(c, i + 1, j, m, n, c10, c11, c12, c13);
        storeRow4(c, i + 2, j, m, n, c20, c21, c22, c23);
        storeRow4(c, i + 3, j, m, n, c30, c31, c32, c33);
      }
  }

  /** Row {@code i} of a 4-wide block at column {@code j}, clipped to (M, N). */
  private static void storeRow4(FloatArray c, int i, int j, int m, int n, float v0, float v1, float v2, float v3) {
    if (i >= m) return;
    int at = i * n + j;
    c.set(at, v0);
    if (j + 1 < n) c.set(at + 1, v1);
    if (j + 2 < n) c.set(at + 2, v2);
    if (j + 3 < n) c.set(at + 3, v3);
  }

  /**
   * {@code C = A·B}, one work-item per strip of {@link #STRIP_ROWS}×{@link #STRIP_COLS} elements of
   * C, in eight private rows. For each k it reads eight values of A (one per row of the strip) and
   * adds their products with a run of {@code STRIP_COLS} values of B's row k: an outer product.
   * That inner loop over columns carries no reduction, so a CPU OpenCL compiler vectorises it
   * while each element's sum still runs over k in order. (On a GPU the private rows would live in
   * slow private memory: prefer {@link #gemmTiled} there.) a (M, K), b (K, N), c (M, N).
   */
  public static void gemmOuterProduct(FloatArray a, FloatArray b, FloatArray c, int m, int n, int k) {
    // Strips down a column of C are neighbouring work-items (x): PoCL runs them one after another, and they read the same columns of B.
    for (@Parallel int jb = 0; jb < (n + STRIP_COLS - 1) / STRIP_COLS; jb++)
      for (@Parallel int ib = 0; ib < (m + STRIP_ROWS - 1) / STRIP_ROWS; ib++) {
        int i = ib * STRIP_ROWS, j = jb * STRIP_COLS, width = Math.min(STRIP_COLS, n - j);
        // Rows past M read the last row (in bounds, never stored).
        int a0 = i * k, a1 = Math.min(i + 1, m - 1) * k, a2 = Math.min(i + 2, m - 1) * k, a3 = Math.min(i + 3, m - 1) * k;
        int a4 = Math.min(i + 4, m - 1) * k, a5 = Math.min(i + 5, m - 1) * k, a6 = Math.min(i + 6, m - 1) * k;
        int a7 = Math.min(i + 7, m - 1) * k;
        float[] c0 = new float[STRIP_COLS], c1 = new float[STRIP_COLS], c2 = new float[STRIP_COLS], c3 = new float[STRIP_COLS];
        float[] c4 = new float[STRIP_COLS], c5 = new float[STRIP_COLS], c6 = new float[STRIP_COLS], c7 = new float[STRIP_COLS];
        for (int p = 0; p < k; p++) {
          float x0 = a.get(a0 + p), x1 = a.get(a1 + p), x2 = a.get(a2 + p), x3 = a.get(a3 + p);
          float x4 = a.get(a4 + p), x5 = a.get(a5 + p), x6 = a.get(a6 + p), x7 = a.get(a7 + p);
          int row = p * n + j;
          for (int q = 0; q < width; q++) {
            float y = b.get(row + q);
            c0[q] += x0 * y; c1[q] += x1 * y; c2[q] += x2 * y; c3[q] += x3 * y;
            c4[q] += x4 * y; c5[q] += x5 * y; c6[q] += x6 * y; c7[q] += x7 * y;
          }
        }
        int rows = Math.min(STRIP_ROWS, m - i);
        for (int q = 0; q < width; q++) {
          int at = i * n + j + q;
          c.set(at, c0[q]);
          if (rows > 1) c.set(at + n, c1[q]);
          if (rows > 2) c.set(at + 2 * n, c2[q]);
          if (rows > 3) c.set(at + 3 * n, c3[q]);
          if (rows > 4) c.set(at + 4 * n, c4[q]);
          if (rows > 5) c.set(at + 5 * n, c5[q]);
          if (rows > 6) c.set(at + 6 * n, c6[q]);
          if (rows > 7) c.set(at + 7 * n, c7[q]);
        }
      }
  }
}
