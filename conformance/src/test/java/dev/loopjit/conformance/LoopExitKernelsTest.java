// Runs every LoopExitKernels kernel on the jvm and on every device and compares: all exact.
package dev.loopjit.conformance;

import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import org.junit.jupiter.api.Test;

class LoopExitKernelsTest {
  private static final int N = 997;

  @Test
  void doWhileWithBreak() {
    KernelCheck.of("LoopExitKernels.doWhileWithBreak", LoopExitKernels::doWhileWithBreak)
        .args(() -> { Inputs in = new Inputs(1201); return new Object[] {in.ints(N, 0, 200), new int[N]}; }).run();
  }

  @Test
  void doWhileBreakContinue() {
    KernelCheck.of("LoopExitKernels.doWhileBreakContinue", LoopExitKernels::doWhileBreakContinue)
        .args(() -> { Inputs in = new Inputs(1202); return new Object[] {in.ints(N, 1, 10_000), new int[N]}; }).run();
  }

  @Test
  void nestedDoWhileLabelledBreak() {
    KernelCheck.of("LoopExitKernels.nestedDoWhileLabelledBreak", LoopExitKernels::nestedDoWhileLabelledBreak)
        .args(() -> { Inputs in = new Inputs(1203); return new Object[] {in.ints(N, -300, 300), new int[N]}; }).run();
  }

  @Test
  void whileTwoBreaksInSwitchArm() {
    KernelCheck.of("LoopExitKernels.whileTwoBreaksInSwitchArm", LoopExitKernels::whileTwoBreaksInSwitchArm)
        .args(() -> { Inputs in = new Inputs(1204); return new Object[] {in.ints(N, 0, 100), new int[N]}; }).run();
  }

  @Test
  void foreverWithTwoBreaks() {
    KernelCheck.of("LoopExitKernels.foreverWithTwoBreaks", LoopExitKernels::foreverWithTwoBreaks)
        .args(() -> { Inputs in = new Inputs(1205); return new Object[] {in.ints(N, -5, 60), new int[N]}; }).run();
  }

  @Test
  void doWhileInSwitchArm() {
    KernelCheck.of("LoopExitKernels.doWhileInSwitchArm", LoopExitKernels::doWhileInSwitchArm)
        .args(() -> { Inputs in = new Inputs(1206); return new Object[] {in.ints(N, -50, 300), new int[N]}; }).run();
  }

  @Test
  void doWhileBreakingAtOnce() {
    KernelCheck.of("LoopExitKernels.doWhileBreakingAtOnce", LoopExitKernels::doWhileBreakingAtOnce)
        .args(() -> { Inputs in = new Inputs(1207); return new Object[] {in.doubles(N, -5, 15), new int[N]}; }).run();
  }

  @Test
  void doWhileBreakingFromItsFirstIf() {
    KernelCheck.of("LoopExitKernels.doWhileBreakingFromItsFirstIf", LoopExitKernels::doWhileBreakingFromItsFirstIf)
        .args(() -> { Inputs in = new Inputs(1208); return new Object[] {in.ints(N, -50, 120), new int[N]}; }).run();
  }

  @Test
  void loopLeavingItsSwitchFromACase() {
    KernelCheck.of("LoopExitKernels.loopLeavingItsSwitchFromACase", LoopExitKernels::loopLeavingItsSwitchFromACase)
        .args(() -> { Inputs in = new Inputs(1209); return new Object[] {in.ints(N, -40, 40), new int[N]}; }).run();
  }
}
