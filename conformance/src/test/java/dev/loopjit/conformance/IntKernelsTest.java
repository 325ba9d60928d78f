// Runs every IntKernels kernel on the jvm and on every device and compares: all exact.
package dev.loopjit.conformance;

import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class IntKernelsTest {

  @ParameterizedTest
  @ValueSource(ints = {1, 7, 997, 4099})
  void arithmetic(int n) {
    KernelCheck.of("IntKernels.arithmetic", IntKernels::arithmetic)
        .args(() -> { Inputs in = new Inputs(1); return new Object[] {in.ints(n), in.ints(n), new int[n]}; }).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {31, 4099})
  void divRem(int n) {
    KernelCheck.of("IntKernels.divRem", IntKernels::divRem)
        .args(() -> { Inputs in = new Inputs(2); return new Object[] {in.ints(n), in.nonZeroInts(n), new int[n], new int[n]}; }).run();
  }

  @Test
  void bitwise() {
    KernelCheck.of("IntKernels.bitwise", IntKernels::bitwise)
        .args(() -> { Inputs in = new Inputs(3); return new Object[] {in.intArray(997, Integer.MIN_VALUE, Integer.MAX_VALUE),
            in.intArray(997, Integer.MIN_VALUE, Integer.MAX_VALUE), new dev.loopjit.types.IntArray(997)}; }).run();
  }

  @Test
  void variableShifts() {
    KernelCheck.of("IntKernels.variableShifts", IntKernels::variableShifts)
        .args(() -> { Inputs in = new Inputs(4); return new Object[] {in.ints(1000), in.ints(1000, -70, 70), new int[1000]}; }).run();
  }

  @Test
  void compareSelect() {
    KernelCheck.of("IntKernels.compareSelect", IntKernels::compareSelect)
        .args(() -> { Inputs in = new Inputs(5); return new Object[] {in.ints(997, -5, 5), in.ints(997, -5, 5), new int[997]}; }).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4099})
  void fmix32(int n) {
    KernelCheck.of("IntKernels.fmix32", IntKernels::fmix32)
        .args(() -> { Inputs in = new Inputs(6); return new Object[] {in.ints(n), new int[n]}; }).run();
  }

  @Test
  void collatzSteps() {
    KernelCheck.of("IntKernels.collatzSteps", IntKernels::collatzSteps)
        .args(() -> { Inputs in = new Inputs(7); return new Object[] {in.ints(997, 1, 100_000), new int[997]}; }).run();
  }

  @Test
  void gcd() {
    KernelCheck.of("IntKernels.gcd", IntKernels::gcd)
        .args(() -> { Inputs in = new Inputs(8); return new Object[] {in.ints(997), in.ints(997, -1000, 1000), new int[997]}; }).run();
  }

  @ParameterizedTest
  @CsvSource({"1, 1", "31, 17", "97, 3"})
  void rowPrefixSums(int rows, int cols) {
    KernelCheck.of("IntKernels.rowPrefixSums", IntKernels::rowPrefixSums)
        .args(() -> { Inputs in = new Inputs(9); return new Object[] {in.ints(rows * cols), new int[rows * cols], cols}; }).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 997})
  void gatherScatter(int n) {
    KernelCheck.of("IntKernels.gatherScatter", IntKernels::gatherScatter)
        .args(() -> { Inputs in = new Inputs(10); return new Object[] {in.permutation(n), in.ints(n), new int[n], new int[n]}; }).run();
  }
}
