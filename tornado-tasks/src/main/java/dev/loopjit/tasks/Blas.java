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
   * {@code y = A·x}, one work-item per row: {@link Seeds#matrixVector} under its BLAS name. Its own
   * loop, not a call: the JIT takes the {@code @Parallel} nest from the kernel method itself, and
   * an inlined callee's loop would run as one work-item. // a: (rows, cols), x: (cols), y: (rows)
   */
  public static void gemv(FloatArray a, FloatArray x, FloatArray y, int rows, int cols) {
    for (@Parallel int i = 0; i < rows; i++) {
      float sum = 0f;
      for (int j = 0; j < cols; j++) sum += a.get(i * cols + j) * x.get(j);
      y.set(i, sum);
    }
  }

  /**
   * {@code C = A·B} for square matrices, one work-item per element of C and the k loop sequential
   * inside it: the textbook loop, with no tiling. // a, b, c: (n, n)
   */
  public static void gemmNaive(FloatArray a, FloatArray b, FloatArray c, int n) {
    for (@Parallel int i = 0; i < n; i++)
      for (@Parallel int j = 0; j < n; j++) {
        float acc = 0f;
        for (int k = 0; k < n; k++) acc += a.get(i * n + k) * b.get(k * n + j);
        c.set(i * n + j, acc);
      }
  }
}
