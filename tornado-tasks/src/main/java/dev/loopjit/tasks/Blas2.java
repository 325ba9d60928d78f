// BLAS-2 beside Blas.gemv: the transposed product y = Aᵀ·x (naive, and in column strips a CPU vectorises) and the rank-1 update ger.
package dev.loopjit.tasks;

import dev.loopjit.api.Parallel;
import dev.loopjit.types.FloatArray;

/**
 * Single-precision BLAS level 2 over a flat row-major matrix; {@code y = A·x} is {@link Blas#gemv}.
 * <pre>
 * ROWS, COLS = the matrix's shape; a (ROWS, COLS)
 * </pre>
 * Both transposed products sum each {@code y[j]} over the rows in order, so they agree bit for
 * bit with each other and on every device.
 */
public final class Blas2 {
  /** Columns of y per work-item in {@link #gemvTransposedStrips}. */
  public static final int STRIP = 64;

  private Blas2() {}

  /**
   * {@code y = Aᵀ·x}, one work-item per column of A: the reference. Neighbouring work-items read
   * neighbouring elements of a row. a (ROWS, COLS), x (ROWS), y (COLS)
   */
  public static void gemvTransposed(FloatArray a, FloatArray x, FloatArray y, int rows, int cols) {
    for (@Parallel int j = 0; j < cols; j++) {
      float acc = 0f;
      for (int i = 0; i < rows; i++) acc += a.get(i * cols + j) * x.get(i);
      y.set(j, acc);
    }
  }

  /**
   * {@code y = Aᵀ·x}, one work-item per run of {@link #STRIP} columns, summed in a private array
   * row by row: the inner loop walks along a row of A with no reduction in it, which a CPU OpenCL
   * compiler vectorises, and reads A in memory order. a (ROWS, COLS), x (ROWS), y (COLS)
   */
  public static void gemvTransposedStrips(FloatArray a, FloatArray x, FloatArray y, int rows, int cols) {
    for (@Parallel int jb = 0; jb < (cols + STRIP - 1) / STRIP; jb++) {
      int j = jb * STRIP, width = Math.min(STRIP, cols - j);
      float[] acc = new float[STRIP];
      for (int i = 0; i < rows; i++) {
        float xi = x.get(i);
        int row = i * cols + j;
        for (int q = 0; q < width; q++) acc[q] += a.get(row + q) * xi;
      }
      for (int q = 0; q < width; q++) y.set(j + q, acc[q]);
    }
  }

  /** {@code A = A + alpha·x·yᵀ}, one work-item per element of A. a (ROWS, COLS), x (ROWS), y (COLS) */
  public static void ger(float alpha, FloatArray x, FloatArray y, FloatArray a, int rows, int cols) {
    for (@Parallel int i = 0; i < rows; i++)
      for (@Parallel int j = 0; j < cols; j++) a.set(i * cols + j, a.get(i * cols + j) + alpha * x.get(i) * y.get(j));
  }
}
