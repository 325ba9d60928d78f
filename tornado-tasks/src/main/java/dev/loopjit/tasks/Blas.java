// BLAS levels 1-3 as plain @Parallel loops: saxpy, gemv, naive gemm. Naive on purpose: the reference shapes the benchmarks time.
package dev.loopjit.tasks;

import dev.loopjit.api.Parallel;
import dev.loopjit.types.FloatArray;

/**
 * Single-precision BLAS kernels over flat row-major arrays. Plain Java: call them directly for the
 * sequential reference, or pass them to {@code TaskGraph.task} to run them on a device.
 *
 * <pre>{@code
 * new TaskGraph("blas").task("gemm", Blas::gemmNaive, a, b, c, n)
 * }</pre>
 */
public final class Blas {
  private Blas() {}

  /** {@code y = a·x + y}. // x, y: (N) */
  public static void saxpy(float a, FloatArray x, FloatArray y) {
    for (@Parallel int i = 0; i < y.getSize(); i++) y.set(i, a * x.get(i) + y.get(i));
  }

  /**
   * {@code y = A·x}, one work-item per row: {@link Seeds#matrixVector} under its BLAS name (a kernel
   * may forward to the method that holds the {@code @Parallel} loop). // a: (rows, cols), x: (cols), y: (rows)
   */
  public static void gemv(FloatArray a, FloatArray x, FloatArray y, int rows, int cols) {
    Seeds.matrixVector(a, x, y, rows, cols);
  }

  /**
   * {@code C = A·B} for square matrices, one work-item per element of C and the k loop sequential
   * inside it: the textbook loop, with no tiling — {@link Blas3#gemmNaive} with M = N = K. // a, b, c: (n, n)
   */
  public static void gemmNaive(FloatArray a, FloatArray b, FloatArray c, int n) {
    Blas3.gemmNaive(a, b, c, n, n, n);
  }
}
