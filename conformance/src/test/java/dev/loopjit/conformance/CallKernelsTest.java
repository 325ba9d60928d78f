// Runs every CallKernels kernel on the jvm and on every device: exact except the transcendental Math functions.
package dev.loopjit.conformance;

import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.testing.Tolerance;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CallKernelsTest {
  private static final int N = 997;

  @Test
  void staticHelpers() {
    KernelCheck.of("CallKernels.staticHelpers", CallKernels::staticHelpers)
        .args(() -> new Object[] {new Inputs(141).anyFloats(N), new float[N]}).run();
  }

  @Test
  void nestedCalls() {
    KernelCheck.of("CallKernels.nestedCalls", CallKernels::nestedCalls).args(() -> new Object[] {new Inputs(142).ints(N), new int[N]}).run();
  }

  @Test
  void helperWithLoopAndReturns() {
    KernelCheck.of("CallKernels.helperWithLoopAndReturns", CallKernels::helperWithLoopAndReturns)
        .args(() -> new Object[] {new Inputs(143).ints(N, -5, 100_000), new int[N]}).run();
  }

  @ParameterizedTest
  @CsvSource({"1, 1", "97, 31"})
  void helperReadsArray(int rows, int cols) {
    KernelCheck.of("CallKernels.helperReadsArray", CallKernels::helperReadsArray)
        .args(() -> new Object[] {new Inputs(144).anyFloats(rows * cols), new float[rows], cols}).run();
  }

  @ParameterizedTest
  @CsvSource({"1, 1", "31, 17"})
  void helperWritesArray(int rows, int cols) {
    KernelCheck.of("CallKernels.helperWritesArray", CallKernels::helperWritesArray)
        .args(() -> new Object[] {new Inputs(145).ints(rows * cols), cols}).run();
  }

  @Test
  void helperCalledTwice() {
    KernelCheck.of("CallKernels.helperCalledTwice", CallKernels::helperCalledTwice)
        .args(() -> new Object[] {new Inputs(146).ints(N, -3000, 3000), new int[N]}).run();
  }

  @Test
  void floorModDiv() {
    KernelCheck.of("CallKernels.floorModDiv", CallKernels::floorModDiv)
        .args(() -> { Inputs in = new Inputs(147);
          return new Object[] {in.ints(N), in.nonZeroInts(N), in.longs(N), in.nonZeroLongs(N), new int[2 * N], new long[2 * N]}; }).run();
  }

  @Test
  void integerBits() {
    KernelCheck.of("CallKernels.integerBits", CallKernels::integerBits).args(() -> new Object[] {new Inputs(148).ints(N), new int[7 * N]}).run();
  }

  @Test
  void longBits() {
    KernelCheck.of("CallKernels.longBits", CallKernels::longBits).args(() -> new Object[] {new Inputs(149).longs(N), new long[5 * N]}).run();
  }

  @Test
  void floatBits() {
    KernelCheck.of("CallKernels.floatBits", CallKernels::floatBits)
        .args(() -> new Object[] {new Inputs(150).anyFloats(N), new int[N], new int[N], new float[N]}).run();
  }

  @Test
  void exactMath() {
    KernelCheck.of("CallKernels.exactMath", CallKernels::exactMath)
        .args(() -> { Inputs in = new Inputs(151); return new Object[] {in.anyFloats(N), in.anyFloats(N), new float[8 * N], new int[N]}; }).run();
  }

  @Test
  void transcendentalMath() {
    // The loosest OpenCL double bound among them (pow: 16 ulp) plus Java's 1.
    KernelCheck.of("CallKernels.transcendentalMath", CallKernels::transcendentalMath).tolerance(Tolerance.ulps(17))
        .args(() -> { Inputs in = new Inputs(152); return new Object[] {in.doubles(N, -30, 30), in.doubles(N, 0, 100), new double[8 * N]}; })
        .run();
  }

  @Test
  void fma() {
    KernelCheck.of("CallKernels.fma", CallKernels::fma)
        .args(() -> { Inputs in = new Inputs(153); float[] a = in.anyFloats(N), b = in.anyFloats(N), c = in.anyFloats(N);
          a[0] = b[0] = 1.0000001f;   // (1 + 2^-23)^2 - (1 + 2^-22) is 2^-46 fused, 0 unfused
          c[0] = -1.0000002f;
          return new Object[] {a, b, c, new float[N], new double[N]}; }).run();
  }

  @Test
  void clamp() {
    KernelCheck.of("CallKernels.clamp", CallKernels::clamp)
        .args(() -> { Inputs in = new Inputs(154);
          return new Object[] {in.longs(N), in.anyFloats(N), in.anyDoubles(N), new int[N], new long[N], new float[N], new double[N]}; }).run();
  }

  @Test
  void mathReturnedByHelper() {
    KernelCheck.of("CallKernels.mathReturnedByHelper", CallKernels::mathReturnedByHelper).tolerance(Tolerance.ulps(17))
        .args(() -> new Object[] {new Inputs(151).doubles(N, -4, 4), new double[N]}).run();
  }
}
