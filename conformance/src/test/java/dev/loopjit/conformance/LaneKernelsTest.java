// Runs every LaneKernels kernel on the jvm and on every device, at sizes that coarsen on a CPU and sizes that do not, and compares bit for bit.
package dev.loopjit.conformance;

import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class LaneKernelsTest {
  /**
   * m, n, k: 16 lanes × 4 rows; lanes alone (m not a multiple of 4); no lanes (n not a multiple of 16);
   * k in blocks of 256 for the work-group (a block and a part; two and one iteration), with 17 rows of
   * work-items in groups of 16 (the 15 past the end run the blocks' barriers too).
   */
  @ParameterizedTest
  @CsvSource({"8, 48, 7", "6, 32, 5", "5, 37, 3", "68, 32, 300", "8, 16, 513"})
  void matmul(int m, int n, int k) {
    KernelCheck.of("LaneKernels.matmul", LaneKernels::matmul)
        .args(() -> { Inputs in = new Inputs(901);
          return new Object[] {in.floatArray(m * k, -2, 2), in.floatArray(k * n, -2, 2), new FloatArray(m * n), m, n, k}; }).run();
  }

  @ParameterizedTest
  @CsvSource({"4, 16, 9", "3, 64, 2"})
  void matmulInt(int m, int n, int k) {
    KernelCheck.of("LaneKernels.matmulInt", LaneKernels::matmulInt)
        .args(() -> { Inputs in = new Inputs(902); return new Object[] {in.ints(m * k), in.ints(k * n), new int[m * n], m, n, k}; }).run();
  }

  @ParameterizedTest
  @CsvSource({"8, 32, 11, true", "8, 32, 11, false", "2, 20, 3, true"})
  void denseDouble(int batch, int outputs, int inputs, boolean relu) {
    KernelCheck.of("LaneKernels.denseDouble", LaneKernels::denseDouble)
        .args(() -> { Inputs in = new Inputs(903);
          return new Object[] {in.doubles(batch * inputs, -3, 3), in.doubles(inputs * outputs, -1, 1), in.doubles(outputs, -1, 1),
              new double[batch * outputs], batch, outputs, inputs, relu}; }).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {64, 50})
  void columnSums(int n) {
    KernelCheck.of("LaneKernels.columnSums", LaneKernels::columnSums)
        .args(() -> new Object[] {new Inputs(904).anyFloats(7 * n), new float[n], 7}).run();
  }

  @ParameterizedTest
  @CsvSource({"4, 32, 6", "7, 16, 6"})
  void productTransposed(int m, int n, int k) {
    KernelCheck.of("LaneKernels.productTransposed", LaneKernels::productTransposed)
        .args(() -> { Inputs in = new Inputs(905);
          return new Object[] {in.floats(m * k, -4, 4), in.floats(k * n, -4, 4), new float[m * n], m, n, k}; }).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {32, 33})
  void narrow(int n) {
    KernelCheck.of("LaneKernels.narrow", LaneKernels::narrow)
        .args(() -> { Inputs in = new Inputs(906);
          return new Object[] {in.bytes(5 * n), in.shorts(5 * n), new short[n], IntArray.fromArray(new int[] {12345}), 5}; }).run();
  }

  /** batch, out: 8 × 8 blocks; 8 lanes alone; neither. */
  @ParameterizedTest
  @CsvSource({"16, 24", "12, 16", "5, 12"})
  void denseRows(int batch, int out) {
    int in = 13;
    KernelCheck.of("LaneKernels.denseRows", LaneKernels::denseRows)
        .args(() -> { Inputs in2 = new Inputs(908);
          return new Object[] {in2.floatArray(batch * in, -1, 1), in2.floatArray(out * in, -1, 1), in2.floatArray(out, -1, 1), new FloatArray(batch * out),
              batch, in, out}; }).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {32, 30})
  void matrixVector(int rows) {
    int cols = 19;
    KernelCheck.of("LaneKernels.matrixVector", LaneKernels::matrixVector)
        .args(() -> { Inputs in = new Inputs(909); return new Object[] {in.floats(rows * cols, -50, 50), in.floats(cols, -1, 1), new float[rows], new long[rows], cols}; })
        .run();
  }

  @ParameterizedTest
  @ValueSource(ints = {16, 48})
  void evenRows(int n) {
    KernelCheck.of("LaneKernels.evenRows", LaneKernels::evenRows)
        .args(() -> { Inputs in = new Inputs(907); return new Object[] {in.floats(n * n, -1, 1), in.floats(n * n, -1, 1), new float[n * n], n}; }).run();
  }
}
