// Blas2 on every device against the jvm, and the column-strip transposed product against the naive one: all bit for bit.
package dev.loopjit.tasks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.FloatArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class Blas2Test {
  // Each y[j] is summed over the rows in order in both transposed kernels: exact. ger is one multiply-add per element.

  /** a (ROWS, COLS), x (ROWS), y (COLS), rows, cols. */
  private static Object[] transposedOperands(int rows, int cols) {
    Inputs in = new Inputs(51);
    return new Object[] {in.floatArray(rows * cols, -1, 1), in.floatArray(rows, -1, 1), new FloatArray(cols), rows, cols};
  }

  @ParameterizedTest
  @CsvSource({"97, 61", "1, 1", "5, 200", "300, 64"})
  void gemvTransposed(int rows, int cols) {
    KernelCheck.of("Blas2.gemvTransposed", Blas2::gemvTransposed).args(() -> transposedOperands(rows, cols)).run();
  }

  @ParameterizedTest
  @CsvSource({"97, 61", "1, 1", "5, 200", "300, 64"})
  void gemvTransposedStrips(int rows, int cols) {
    KernelCheck.of("Blas2.gemvTransposedStrips", Blas2::gemvTransposedStrips).args(() -> transposedOperands(rows, cols)).run();
    Object[] naive = transposedOperands(rows, cols), strips = transposedOperands(rows, cols);
    Blas2.gemvTransposed((FloatArray) naive[0], (FloatArray) naive[1], (FloatArray) naive[2], rows, cols);
    Blas2.gemvTransposedStrips((FloatArray) strips[0], (FloatArray) strips[1], (FloatArray) strips[2], rows, cols);
    assertArrayEquals(((FloatArray) naive[2]).toArray(), ((FloatArray) strips[2]).toArray());
  }

  @Test
  void gemvTransposedIsGemvOfTheTranspose() {
    int rows = 7, cols = 5;
    Object[] o = transposedOperands(rows, cols);
    FloatArray a = (FloatArray) o[0], x = (FloatArray) o[1], y = (FloatArray) o[2];
    FloatArray at = new FloatArray(rows * cols), expected = new FloatArray(cols);
    Transpose.naive(a, at, rows, cols);
    Blas.gemv(at, x, expected, cols, rows);
    Blas2.gemvTransposed(a, x, y, rows, cols);
    assertArrayEquals(expected.toArray(), y.toArray());
  }

  @ParameterizedTest
  @CsvSource({"97, 61", "1, 1", "4, 300"})
  void ger(int rows, int cols) {
    KernelCheck.of("Blas2.ger", Blas2::ger)
        .args(() -> {
          Inputs in = new Inputs(52);
          return new Object[] {0.75f, in.floatArray(rows, -1, 1), in.floatArray(cols, -1, 1), in.floatArray(rows * cols, -1, 1), rows, cols};
        })
        .run();
  }

  @Test
  void gerAddsTheOuterProduct() {
    FloatArray a = FloatArray.fromArray(new float[] {1, 1, 1, 1, 1, 1});   // (2, 3)
    Blas2.ger(2f, FloatArray.fromElements(1f, -1f), FloatArray.fromElements(1f, 2f, 3f), a, 2, 3);
    assertArrayEquals(new float[] {3, 5, 7, -1, -3, -5}, a.toArray());
  }
}
