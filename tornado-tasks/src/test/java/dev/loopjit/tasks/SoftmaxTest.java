// Both softmax kernels on every device against the jvm, against each other, and on what a softmax must be.
package dev.loopjit.tasks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.testing.Tolerance;
import dev.loopjit.types.FloatArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SoftmaxTest {
  // The device's exp differs from Java's by about an ulp per element; the row sum and the division spread that a
  // little. The sums run in the same order on both, so a few ulps cover it.
  private static final Tolerance DEVICE_EXP = Tolerance.ulps(8);

  /** x (ROWS, COLS) in [-30, 30), out (ROWS, COLS), rows, cols. */
  private static Object[] operands(int rows, int cols) {
    return new Object[] {new Inputs(71).floatArray(rows * cols, -30, 30), new FloatArray(rows * cols), rows, cols};
  }

  @ParameterizedTest
  @CsvSource({"31, 97", "1, 1", "3, 1000"})
  void rowsNaive(int rows, int cols) {
    KernelCheck.of("Softmax.rowsNaive", Softmax::rowsNaive).tolerance(DEVICE_EXP).args(() -> operands(rows, cols)).run();
  }

  @ParameterizedTest
  @CsvSource({"31, 97", "1, 1", "3, 1000"})
  void rows(int rows, int cols) {
    KernelCheck.of("Softmax.rows", Softmax::rows).tolerance(DEVICE_EXP).args(() -> operands(rows, cols)).run();
    Object[] naive = operands(rows, cols), fast = operands(rows, cols);
    Softmax.rowsNaive((FloatArray) naive[0], (FloatArray) naive[1], rows, cols);
    Softmax.rows((FloatArray) fast[0], (FloatArray) fast[1], rows, cols);
    assertArrayEquals(((FloatArray) naive[1]).toArray(), ((FloatArray) fast[1]).toArray());
  }

  @Test
  void eachRowIsADistributionEvenForHugeInputs() {
    // exp(1000) overflows; after subtracting the row's maximum nothing does.
    int rows = 2, cols = 3;
    FloatArray x = FloatArray.fromArray(new float[] {1000, 1000, 1000, 1, 2, 3}), out = new FloatArray(rows * cols);
    Softmax.rows(x, out, rows, cols);
    assertEquals(1f / 3, out.get(0), 1e-7);
    float sum = 0;
    for (int c = 0; c < cols; c++) sum += out.get(cols + c);
    assertEquals(1f, sum, 1e-6);
    assertTrue(out.get(3) < out.get(4) && out.get(4) < out.get(5));
    assertEquals(Math.exp(3 - 3) / (Math.exp(1 - 3) + Math.exp(2 - 3) + 1), out.get(5), 1e-6);
  }
}
