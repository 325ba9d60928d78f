// Runs every ControlFlowKernels kernel on the jvm and on every device and compares: all exact.
package dev.loopjit.conformance;

import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ControlFlowKernelsTest {

  @Test
  void ifElseChain() {
    KernelCheck.of("ControlFlowKernels.ifElseChain", ControlFlowKernels::ifElseChain)
        .args(() -> { Inputs in = new Inputs(121); return new Object[] {in.ints(997, -300, 300), new int[997]}; }).run();
  }

  @Test
  void nestedIfs() {
    KernelCheck.of("ControlFlowKernels.nestedIfs", ControlFlowKernels::nestedIfs)
        .args(() -> { Inputs in = new Inputs(122); return new Object[] {in.floats(997, -1, 1), in.floats(997, -1, 1), new int[997]}; }).run();
  }

  @ParameterizedTest
  @CsvSource({"1, 1", "97, 31"})
  void findInRow(int rows, int cols) {
    KernelCheck.of("ControlFlowKernels.findInRow", ControlFlowKernels::findInRow)
        .args(() -> { Inputs in = new Inputs(123);
          return new Object[] {in.ints(rows * cols, 0, 40), in.ints(rows, 0, 40), new int[rows], cols}; }).run();
  }

  @ParameterizedTest
  @CsvSource({"1, 1", "31, 97"})
  void sumSkipping(int rows, int cols) {
    KernelCheck.of("ControlFlowKernels.sumSkipping", ControlFlowKernels::sumSkipping)
        .args(() -> { Inputs in = new Inputs(124); return new Object[] {in.ints(rows * cols, -50, 50), new int[rows], cols}; }).run();
  }

  @Test
  void compoundLoopCondition() {
    KernelCheck.of("ControlFlowKernels.compoundLoopCondition", ControlFlowKernels::compoundLoopCondition)
        .args(() -> { Inputs in = new Inputs(125); int[] a = in.ints(997);
          for (int i = 20; i < a.length; i += 2) a[i] <<= i % 31;   // many trailing zeros
          return new Object[] {a, new int[997]}; }).run();
  }

  @Test
  void conditionalStore() {
    KernelCheck.of("ControlFlowKernels.conditionalStore", ControlFlowKernels::conditionalStore)
        .args(() -> { Inputs in = new Inputs(126); return new Object[] {in.floats(997, -1, 1), in.floats(997, 5, 6)}; }).run();
  }
}
