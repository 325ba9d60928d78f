// The four gemm kernels on every device against the jvm, and each fast one against the naive reference: all bit for bit.
package dev.loopjit.tasks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.loopjit.api.Devices;
import dev.loopjit.api.KernelContext;
import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.FloatArray;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class Blas3Test {
  // Every kernel sums c[i][j] over k in order from 0, and Java forbids FMA contraction: exact on every device,
  // and the fast kernels equal the naive one. Shapes: odd (guards, partial tiles, strips and blocks), one element,
  // exact multiples of every block size (512: two whole strips), and fewer rows than one block.

  /** a (M, K), b (K, N), c (M, N), m, n, k: the same values for the same seed. */
  private static Object[] operands(long seed, int m, int n, int k) {
    Inputs in = new Inputs(seed);
    return new Object[] {in.floatArray(m * k, -1, 1), in.floatArray(k * n, -1, 1), new FloatArray(m * n), m, n, k};
  }

  /** What {@link Blas3#gemmNaive} computes from {@code operands(seed, ...)}. */
  private static float[] naive(long seed, int m, int n, int k) {
    Object[] o = operands(seed, m, n, k);
    Blas3.gemmNaive((FloatArray) o[0], (FloatArray) o[1], (FloatArray) o[2], m, n, k);
    return ((FloatArray) o[2]).toArray();
  }

  @ParameterizedTest
  @CsvSource({"97, 61, 43", "1, 1, 1", "64, 128, 32", "3, 130, 17", "16, 512, 9", "17, 520, 5"})
  void gemmNaive(int m, int n, int k) {
    KernelCheck.of("Blas3.gemmNaive", Blas3::gemmNaive).args(() -> operands(31, m, n, k)).run();
  }

  @ParameterizedTest
  @CsvSource({"97, 61, 43", "1, 1, 1", "64, 128, 32", "3, 130, 17", "16, 512, 9", "17, 520, 5"})
  void gemmTiled(int m, int n, int k) {
    KernelCheck check = KernelCheck.of("Blas3.gemmTiled", Blas3::gemmTiled).grid(Blas3.tiledGrid(m, n))
        .args(() -> {
          Object[] o = operands(32, m, n, k);
          return new Object[] {new KernelContext(), o[0], o[1], o[2], m, n, k};
        });
    check.run();
    // A KernelContext kernel needs its work-groups: the jvm device runs them, with real barriers.
    assertArrayEquals(naive(32, m, n, k), ((FloatArray) check.runOn(Devices.jvm())[3]).toArray());
  }

  @ParameterizedTest
  @CsvSource({"97, 61, 43", "1, 1, 1", "64, 128, 32", "3, 130, 17", "16, 512, 9", "17, 520, 5"})
  void gemmRegisterBlocked(int m, int n, int k) {
    KernelCheck.of("Blas3.gemmRegisterBlocked", Blas3::gemmRegisterBlocked).args(() -> operands(33, m, n, k)).run();
    Object[] o = operands(33, m, n, k);
    Blas3.gemmRegisterBlocked((FloatArray) o[0], (FloatArray) o[1], (FloatArray) o[2], m, n, k);
    assertArrayEquals(naive(33, m, n, k), ((FloatArray) o[2]).toArray());
  }

  @ParameterizedTest
  @CsvSource({"97, 61, 43", "1, 1, 1", "64, 128, 32", "3, 130, 17", "16, 512, 9", "17, 520, 5"})
  void gemmOuterProduct(int m, int n, int k) {
    KernelCheck.of("Blas3.gemmOuterProduct", Blas3::gemmOuterProduct).args(() -> operands(34, m, n, k)).run();
    Object[] o = operands(34, m, n, k);
    Blas3.gemmOuterProduct((FloatArray) o[0], (FloatArray) o[1], (FloatArray) o[2], m, n, k);
    assertArrayEquals(naive(34, m, n, k), ((FloatArray) o[2]).toArray());
  }

  @ParameterizedTest
  @CsvSource({"2, 3, 4"})
  void gemmNaiveMultiplies(int m, int n, int k) {
    // a = [[1, 2, 3, 4], [5, 6, 7, 8]], b = ones (4, 3) scaled by column: c[i][j] = (j + 1) · Σ a[i]
    FloatArray a = FloatArray.fromArray(new float[] {1, 2, 3, 4, 5, 6, 7, 8});
    FloatArray b = FloatArray.fromArray(new float[] {1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3});
    FloatArray c = new FloatArray(m * n);
    Blas3.gemmNaive(a, b, c, m, n, k);
    assertArrayEquals(new float[] {10, 20, 30, 26, 52, 78}, c.toArray());
  }
}
