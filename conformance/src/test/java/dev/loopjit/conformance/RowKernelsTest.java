// Runs every RowKernels kernel on the jvm and on every device, at trip counts below, at and past a block of 8, and compares bit for bit.
package dev.loopjit.conformance;

import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RowKernelsTest {
  /** rows (a multiple of 8, or not) and cols: the loop (from 3) empty, no block, one, blocks and a tail. */
  @ParameterizedTest
  @CsvSource({"16, 2", "16, 8", "16, 11", "24, 24", "16, 30", "12, 21"})
  void rowDot(int rows, int cols) {
    KernelCheck.of("RowKernels.rowDot", RowKernels::rowDot)
        .args(() -> { Inputs in = new Inputs(1101);
          return new Object[] {in.floats(rows * cols, -4, 4), in.floats(rows * cols, -4, 4), in.floats(cols, -1, 1), new float[rows], cols}; }).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {7, 16, 19})
  void rowSumsInt(int cols) {
    int rows = 16;
    KernelCheck.of("RowKernels.rowSumsInt", RowKernels::rowSumsInt)
        .args(() -> { Inputs in = new Inputs(1102); return new Object[] {in.ints(rows * cols), in.longs(rows * cols), new int[rows], new long[rows], cols}; }).run();
  }

  /** batch, outputs, in: 8 × 8 blocks with a tail; lanes alone (batch not a multiple of 8); no block (outputs not a multiple of 8). */
  @ParameterizedTest
  @CsvSource({"16, 16, 19", "5, 8, 24", "8, 12, 9"})
  void denseDouble(int batch, int outputs, int in) {
    int offset = 3;
    KernelCheck.of("RowKernels.denseDouble", RowKernels::denseDouble)
        .args(() -> { Inputs r = new Inputs(1103);
          return new Object[] {r.doubles(batch * in, -2, 2), r.doubles(offset + outputs * in, -1, 1), new double[batch * outputs], batch, in, outputs, offset}; }).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {3, 11})
  void channelSums(int cols) {
    int rows = 8, channels = 3;
    KernelCheck.of("RowKernels.channelSums", RowKernels::channelSums)
        .args(() -> new Object[] {new Inputs(1104).floats(rows * channels * cols, -3, 3), new float[rows], channels, cols}).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {9, 16})
  void selected(int cols) {
    KernelCheck.of("RowKernels.selected", RowKernels::selected)
        .args(() -> { Inputs in = new Inputs(1105); return new Object[] {in.floats(16 * cols, -2, 2), in.floats(cols, -1, 1), new float[16], cols}; }).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {18, 33})
  void strided(int cols) {
    KernelCheck.of("RowKernels.strided", RowKernels::strided).args(() -> new Object[] {new Inputs(1106).anyFloats(16 * cols), new float[16], cols}).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {10, 16})
  void moving(int cols) {
    KernelCheck.of("RowKernels.moving", RowKernels::moving).args(() -> new Object[] {new Inputs(1107).floats(8 * cols, -2, 2), new float[8], cols}).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {9, 16})
  void narrow(int cols) {
    KernelCheck.of("RowKernels.narrow", RowKernels::narrow)
        .args(() -> { Inputs in = new Inputs(1108); return new Object[] {in.bytes(8 * cols), in.shorts(8 * cols), new int[8], cols}; }).run();
  }
}
