// Blas kernels on every device against the jvm: sizes off any work-group multiple, so guards and rounded-up grids are exercised.
package dev.loopjit.tasks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.FloatArray;
import org.junit.jupiter.api.Test;

class BlasTest {
  // Strict Java float semantics (no FMA contraction, sequential k loop per work-item): every device matches bit for bit.

  @Test
  void saxpy() {
    KernelCheck.of("saxpy", Blas::saxpy)
        .args(() -> {
          Inputs in = new Inputs(11);
          return new Object[] {1.5f, in.floatArray(100_003, -1, 1), in.floatArray(100_003, -1, 1)};
        })
        .run();
  }

  @Test
  void gemv() {
    KernelCheck.of("gemv", Blas::gemv)
        .args(() -> {
          Inputs in = new Inputs(12);
          return new Object[] {in.floatArray(301 * 77, -1, 1), in.floatArray(77, -1, 1), new FloatArray(301), 301, 77};
        })
        .run();
  }

  @Test
  void gemvMatchesTheSeedsMatrixVector() {
    Inputs in = new Inputs(13);
    FloatArray a = in.floatArray(9 * 5, -1, 1), x = in.floatArray(5, -1, 1), y = new FloatArray(9), z = new FloatArray(9);
    Blas.gemv(a, x, y, 9, 5);
    Seeds.matrixVector(a, x, z, 9, 5);
    for (int i = 0; i < 9; i++) assertEquals(z.get(i), y.get(i));
  }

  @Test
  void gemmNaive() {
    int n = 67;
    KernelCheck.of("gemmNaive", Blas::gemmNaive)
        .args(() -> {
          Inputs in = new Inputs(14);
          return new Object[] {in.floatArray(n * n, -1, 1), in.floatArray(n * n, -1, 1), new FloatArray(n * n), n};
        })
        .run();
  }

  @Test
  void gemmNaiveMultipliesByTheIdentity() {
    int n = 5;
    FloatArray a = new Inputs(15).floatArray(n * n, -1, 1), id = new FloatArray(n * n), c = new FloatArray(n * n);
    for (int i = 0; i < n; i++) id.set(i * n + i, 1f);
    Blas.gemmNaive(a, id, c, n);
    for (int i = 0; i < n * n; i++) assertEquals(a.get(i), c.get(i));
  }
}
