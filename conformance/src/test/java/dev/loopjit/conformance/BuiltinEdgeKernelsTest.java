// Runs every BuiltinEdgeKernels kernel on the jvm and on every device and compares: exact except exp.
package dev.loopjit.conformance;

import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.testing.Tolerance;
import org.junit.jupiter.api.Test;

class BuiltinEdgeKernelsTest {
  private static final int N = 997;

  @Test
  void narrowBitCounts() {
    KernelCheck.of("BuiltinEdgeKernels.narrowBitCounts", BuiltinEdgeKernels::narrowBitCounts)
        .args(() -> { Inputs in = new Inputs(1211); return new Object[] {in.bytes(N), in.shorts(N), in.chars(N), new int[6 * N]}; }).run();
  }

  @Test
  void narrowMath() {
    KernelCheck.of("BuiltinEdgeKernels.narrowMath", BuiltinEdgeKernels::narrowMath)
        .args(() -> { Inputs in = new Inputs(1212);
          return new Object[] {in.bytes(N), in.shorts(N), in.chars(N), new int[4 * N], new float[N]}; }).run();
  }

  @Test
  void narrowParameters() {
    KernelCheck.of("BuiltinEdgeKernels.narrowParameters", BuiltinEdgeKernels::narrowParameters)
        .args(() -> new Object[] {(byte) -1, (short) -300, (char) 0xfff0, new int[7]}).run();
  }

  @Test
  void absAtMinValue() {
    KernelCheck.of("BuiltinEdgeKernels.absAtMinValue", BuiltinEdgeKernels::absAtMinValue)
        .args(() -> { Inputs in = new Inputs(1213); return new Object[] {in.ints(N), in.longs(N), new int[2 * N], new long[2 * N]}; }).run();
  }

  @Test
  void absOfConstants() {
    KernelCheck.of("BuiltinEdgeKernels.absOfConstants", BuiltinEdgeKernels::absOfConstants)
        .args(() -> new Object[] {new int[33], new long[33]}).run();
  }

  @Test
  void rintOfHugeConstant() {
    KernelCheck.of("BuiltinEdgeKernels.rintOfHugeConstant", BuiltinEdgeKernels::rintOfHugeConstant)
        .args(() -> new Object[] {new int[16], new double[16]}).run();
  }

  @Test
  void mathOfConstants() {
    // sin(inf) and log(-1) are NaN; pow(2, 0.5) is folded with Math.pow, so even it is exact.
    KernelCheck.of("BuiltinEdgeKernels.mathOfConstants", BuiltinEdgeKernels::mathOfConstants)
        .args(() -> new Object[] {new int[16], new double[8 * 16]}).run();
  }

  @Test
  void mathOfConstantLocals() {
    KernelCheck.of("BuiltinEdgeKernels.mathOfConstantLocals", BuiltinEdgeKernels::mathOfConstantLocals)
        .args(() -> new Object[] {new int[16], new double[6 * 16], new float[16]}).run();
  }

  @Test
  void mathOfConstantOnOnePath() {
    KernelCheck.of("BuiltinEdgeKernels.mathOfConstantOnOnePath", BuiltinEdgeKernels::mathOfConstantOnOnePath)
        .args(() -> { Inputs in = new Inputs(1214); return new Object[] {in.anyDoubles(N), new double[N]}; }).run();
  }

  @Test
  void roundingOfEdgeValues() {
    KernelCheck.of("BuiltinEdgeKernels.roundingOfEdgeValues", BuiltinEdgeKernels::roundingOfEdgeValues)
        .args(() -> { Inputs in = new Inputs(1215);
          return new Object[] {in.anyDoubles(N), in.anyFloats(N), new double[3 * N], new float[3 * N]}; }).run();
  }

  @Test
  void expOfEdgeValues() {
    KernelCheck.of("BuiltinEdgeKernels.expOfEdgeValues", BuiltinEdgeKernels::expOfEdgeValues).tolerance(Tolerance.ulps(4))
        .args(() -> { Inputs in = new Inputs(1216); return new Object[] {in.anyDoubles(N), new double[2 * N]}; }).run();
  }
}
