// Runs every LoopShapeKernels kernel on the jvm and on every device, on sizes that are not multiples of 8 or 16.
package dev.loopjit.conformance;

import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class LoopShapeKernelsTest {

  // Outputs start as random values, so elements a kernel must not touch are checked too.
  private static int[] untouched(int n) {
    return new Inputs(n).ints(n);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 7, 1000, 100_003})
  void oneD(int n) {
    KernelCheck.of("LoopShapeKernels.oneD", LoopShapeKernels::oneD).args(() -> new Object[] {new int[n]}).run();
  }

  @ParameterizedTest
  @CsvSource({"1, 1", "1, 97", "97, 1", "31, 33", "257, 129"})
  void twoD(int rows, int cols) {
    KernelCheck.of("LoopShapeKernels.twoD", LoopShapeKernels::twoD)
        .args(() -> new Object[] {new IntArray(rows * cols), rows, cols}).run();
  }

  @ParameterizedTest
  @CsvSource({"1, 1, 1", "7, 5, 3", "17, 9, 33"})
  void threeD(int nx, int ny, int nz) {
    KernelCheck.of("LoopShapeKernels.threeD", LoopShapeKernels::threeD)
        .args(() -> new Object[] {new float[nx * ny * nz], nx, ny, nz}).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 997})
  void reverse(int n) {
    KernelCheck.of("LoopShapeKernels.reverse", LoopShapeKernels::reverse)
        .args(() -> new Object[] {new Inputs(131).ints(n), untouched(n)}).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 997})
  void stepTwo(int n) {
    KernelCheck.of("LoopShapeKernels.stepTwo", LoopShapeKernels::stepTwo).args(() -> new Object[] {untouched(n)}).run();
  }

  @ParameterizedTest
  @CsvSource({"1, 0", "997, 4", "31, 40"})
  void stepThreeFrom(int n, int start) {
    KernelCheck.of("LoopShapeKernels.stepThreeFrom", LoopShapeKernels::stepThreeFrom)
        .args(() -> new Object[] {untouched(n), start}).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 998})
  void reverseStepTwo(int n) {
    KernelCheck.of("LoopShapeKernels.reverseStepTwo", LoopShapeKernels::reverseStepTwo).args(() -> new Object[] {untouched(n)}).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 7, 8, 997})
  void offsetStartAndEnd(int n) {
    KernelCheck.of("LoopShapeKernels.offsetStartAndEnd", LoopShapeKernels::offsetStartAndEnd)
        .args(() -> { Inputs in = new Inputs(132); return new Object[] {in.floats(n, -1, 1), in.floats(n, 5, 6)}; }).run();
  }

  @ParameterizedTest
  @CsvSource({"1, 1", "997, 997", "997, 31"})
  void boundFromExpression(int size, int n) {
    KernelCheck.of("LoopShapeKernels.boundFromExpression", LoopShapeKernels::boundFromExpression)
        .args(() -> new Object[] {untouched(size), n}).run();
  }

  @ParameterizedTest
  @CsvSource({"1, 0", "97, 96", "97, 50"})
  void inclusiveBound(int size, int last) {
    KernelCheck.of("LoopShapeKernels.inclusiveBound", LoopShapeKernels::inclusiveBound)
        .args(() -> new Object[] {untouched(size), last}).run();
  }

  @Test
  void boundFromMin() {
    KernelCheck.of("LoopShapeKernels.boundFromMin", LoopShapeKernels::boundFromMin)
        .args(() -> { Inputs in = new Inputs(133); return new Object[] {in.ints(997), in.ints(31), untouched(997)}; }).run();
  }

  @ParameterizedTest
  @CsvSource({"1, 1", "997, 997", "997, 100"})
  void reverseToExpression(int size, int n) {
    KernelCheck.of("LoopShapeKernels.reverseToExpression", LoopShapeKernels::reverseToExpression)
        .args(() -> new Object[] {untouched(size), n}).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 997})
  void statementsBeforeLoop(int n) {
    KernelCheck.of("LoopShapeKernels.statementsBeforeLoop", LoopShapeKernels::statementsBeforeLoop)
        .args(() -> new Object[] {new Inputs(134).ints(n, -1000, 1000), new int[n], 5}).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 997})
  void noParallelLoop(int n) {
    KernelCheck.of("LoopShapeKernels.noParallelLoop", LoopShapeKernels::noParallelLoop)
        .args(() -> new Object[] {new Inputs(135).ints(n), new int[n]}).run();
  }

  @ParameterizedTest
  @CsvSource({"1, 1", "2, 4", "31, 17", "33, 100"})
  void twoDOffsetsAndStep(int rows, int cols) {
    KernelCheck.of("LoopShapeKernels.twoDOffsetsAndStep", LoopShapeKernels::twoDOffsetsAndStep)
        .args(() -> new Object[] {untouched(rows * cols), rows, cols}).run();
  }

  @ParameterizedTest
  @CsvSource({"1, 1", "31, 17"})
  void twoDReverseInner(int rows, int cols) {
    KernelCheck.of("LoopShapeKernels.twoDReverseInner", LoopShapeKernels::twoDReverseInner)
        .args(() -> new Object[] {IntArray.fromArray(untouched(rows * cols)), rows, cols}).run();
  }

  @ParameterizedTest
  @CsvSource({"3, 3, 3", "17, 9, 5", "2, 30, 30"})
  void threeDStencil(int nx, int ny, int nz) {
    KernelCheck.of("LoopShapeKernels.threeDStencil", LoopShapeKernels::threeDStencil)
        .args(() -> { Inputs in = new Inputs(136);
          return new Object[] {in.floatArray(nx * ny * nz, -1, 1), in.floatArray(nx * ny * nz, 5, 6), nx, ny, nz}; }).run();
  }
}
