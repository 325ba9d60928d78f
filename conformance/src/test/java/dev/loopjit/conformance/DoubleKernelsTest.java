// Runs every DoubleKernels kernel on the jvm and on every device: exact except the Math functions, whose ULPs are stated.
package dev.loopjit.conformance;

import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.testing.Tolerance;
import dev.loopjit.types.DoubleArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

// The ULPs below are OpenCL C's full-profile bounds for double plus Java's 1 ulp.
class DoubleKernelsTest {

  @ParameterizedTest
  @ValueSource(ints = {1, 4099})
  void daxpy(int n) {
    KernelCheck.of("DoubleKernels.daxpy", DoubleKernels::daxpy)
        .args(() -> { Inputs in = new Inputs(61); return new Object[] {-0.3, in.doubleArray(n, -1e3, 1e3), in.doubleArray(n, -1e3, 1e3)}; })
        .run();
  }

  @Test
  void arithmetic() {
    KernelCheck.of("DoubleKernels.arithmetic", DoubleKernels::arithmetic)
        .args(() -> { Inputs in = new Inputs(62); return new Object[] {in.anyDoubles(997), in.anyDoubles(997), new double[997]}; }).run();
  }

  @Test
  void sqrtRemainder() {
    KernelCheck.of("DoubleKernels.sqrtRemainder", DoubleKernels::sqrtRemainder)
        .args(() -> { Inputs in = new Inputs(63); return new Object[] {in.anyDoubles(997), in.anyDoubles(997), new double[2 * 997]}; }).run();
  }

  @Test
  void roundings() {
    KernelCheck.of("DoubleKernels.roundings", DoubleKernels::roundings)
        .args(() -> { Inputs in = new Inputs(64); return new Object[] {in.anyDoubles(997), new double[3 * 997], new long[997]}; }).run();
  }

  @Test
  void expLog() {
    // exp and log: 3 ulp in OpenCL, 1 in Java.
    KernelCheck.of("DoubleKernels.expLog", DoubleKernels::expLog).tolerance(Tolerance.ulps(4))
        .args(() -> { Inputs in = new Inputs(65); return new Object[] {in.anyDoubles(997), new double[2 * 997]}; }).run();
  }

  @Test
  void trig() {
    // sin, cos: 4 ulp in OpenCL; tan: 5; Java: 1.
    KernelCheck.of("DoubleKernels.trig", DoubleKernels::trig).tolerance(Tolerance.ulps(6))
        .args(() -> { Inputs in = new Inputs(66); return new Object[] {in.doubles(997, -1e4, 1e4), new double[3 * 997]}; }).run();
  }

  @Test
  void powAtan2() {
    // pow: 16 ulp in OpenCL; atan2: 6; Java: 1 (pow) and 2 (atan2).
    KernelCheck.of("DoubleKernels.powAtan2", DoubleKernels::powAtan2).tolerance(Tolerance.ulps(17))
        .args(() -> { Inputs in = new Inputs(67); return new Object[] {in.doubles(997, 0, 10), in.doubles(997, -20, 20), new double[2 * 997]}; })
        .run();
  }

  @Test
  void cbrtHypotExpm1Log1p() {
    // cbrt 2, hypot 4, expm1 3, log1p 2 ulp in OpenCL; 1 in Java.
    KernelCheck.of("DoubleKernels.cbrtHypotExpm1Log1p", DoubleKernels::cbrtHypotExpm1Log1p).tolerance(Tolerance.ulps(5))
        .args(() -> { Inputs in = new Inputs(68); return new Object[] {in.doubles(997, -0.99, 50), new double[4 * 997]}; }).run();
  }

  @ParameterizedTest
  @CsvSource({"1, 1", "97, 31", "3, 1000"})
  void kahanRowSums(int rows, int cols) {
    KernelCheck.of("DoubleKernels.kahanRowSums", DoubleKernels::kahanRowSums)
        .args(() -> { Inputs in = new Inputs(69); double[] m = in.doubles(rows * cols, -1, 1);
          for (int i = 0; i < m.length; i += 3) m[i] *= 1e12;   // big and small terms: compensation matters
          return new Object[] {DoubleArray.fromArray(m), new DoubleArray(rows), cols}; }).run();
  }

  @Test
  void mixedPrecision() {
    KernelCheck.of("DoubleKernels.mixedPrecision", DoubleKernels::mixedPrecision)
        .args(() -> { Inputs in = new Inputs(70); return new Object[] {in.anyFloats(997), in.anyDoubles(997), new double[2 * 997]}; }).run();
  }
}
