// The three transposes on every device against the jvm, and against each other: values move, nothing is computed, so all exact.
package dev.loopjit.tasks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loopjit.api.Devices;
import dev.loopjit.api.KernelContext;
import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.FloatArray;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TransposeTest {
  /** in (ROWS, COLS), out (COLS, ROWS), rows, cols. */
  private static Object[] operands(int rows, int cols) {
    return new Object[] {new Inputs(61).floatArray(rows * cols, -1, 1), new FloatArray(rows * cols), rows, cols};
  }

  /** in's transpose, element by element. */
  private static float[] expected(int rows, int cols) {
    FloatArray in = (FloatArray) operands(rows, cols)[0];
    float[] t = new float[rows * cols];
    for (int i = 0; i < rows; i++) for (int j = 0; j < cols; j++) t[j * rows + i] = in.get(i * cols + j);
    return t;
  }

  @ParameterizedTest
  @CsvSource({"97, 61", "1, 1", "16, 32", "5, 300"})
  void naive(int rows, int cols) {
    Object[] jvm = KernelCheck.of("Transpose.naive", Transpose::naive).args(() -> operands(rows, cols)).runOn(Devices.jvm());
    assertArrayEquals(expected(rows, cols), ((FloatArray) jvm[1]).toArray());
    KernelCheck.of("Transpose.naive", Transpose::naive).args(() -> operands(rows, cols)).run();
  }

  @ParameterizedTest
  @CsvSource({"97, 61", "1, 1", "16, 32", "5, 300"})
  void tiled(int rows, int cols) {
    KernelCheck check = KernelCheck.of("Transpose.tiled", Transpose::tiled).grid(Transpose.tiledGrid(rows, cols))
        .args(() -> {
          Object[] o = operands(rows, cols);
          return new Object[] {new KernelContext(), o[0], o[1], rows, cols};
        });
    assertArrayEquals(expected(rows, cols), ((FloatArray) check.runOn(Devices.jvm())[2]).toArray());
    check.run();
  }

  @ParameterizedTest
  @CsvSource({"97, 61", "1, 1", "16, 32", "5, 300"})
  void blocked(int rows, int cols) {
    Object[] jvm = KernelCheck.of("Transpose.blocked", Transpose::blocked).args(() -> operands(rows, cols)).runOn(Devices.jvm());
    assertArrayEquals(expected(rows, cols), ((FloatArray) jvm[1]).toArray());
    KernelCheck.of("Transpose.blocked", Transpose::blocked).args(() -> operands(rows, cols)).run();
  }

  @ParameterizedTest
  @CsvSource({"3, 2"})
  void twiceIsTheIdentity(int rows, int cols) {
    FloatArray in = FloatArray.fromArray(new float[] {1, 2, 3, 4, 5, 6}), t = new FloatArray(6), back = new FloatArray(6);
    Transpose.blocked(in, t, rows, cols);
    assertEquals(3f, t.get(1));   // t = [[1, 3, 5], [2, 4, 6]]
    Transpose.naive(t, back, cols, rows);
    assertArrayEquals(in.toArray(), back.toArray());
  }
}
