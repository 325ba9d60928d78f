// Runs every FloatKernels kernel on the jvm and on every device: exact except the Math functions, whose ULPs are stated.
package dev.loopjit.conformance;

import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.testing.Tolerance;
import dev.loopjit.types.FloatArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class FloatKernelsTest {
  // A double Math function rounded to float: Java is within 1 ulp in double, a device within a few
  // double ulps, so after rounding to float they differ by at most 1 float ulp; 2 leaves a margin.
  private static final Tolerance DOUBLE_MATH_AS_FLOAT = Tolerance.ulps(2);

  @ParameterizedTest
  @ValueSource(ints = {1, 97, 4099})
  void saxpy(int n) {
    KernelCheck.of("FloatKernels.saxpy", FloatKernels::saxpy)
        .args(() -> { Inputs in = new Inputs(41); return new Object[] {1.7f, in.floatArray(n, -100, 100), in.floatArray(n, -100, 100)}; })
        .run();
  }

  @Test
  void arithmetic() {
    KernelCheck.of("FloatKernels.arithmetic", FloatKernels::arithmetic)
        .args(() -> { Inputs in = new Inputs(42); return new Object[] {in.anyFloats(997), in.anyFloats(997), new float[997]}; }).run();
  }

  @Test
  void remainder() {
    KernelCheck.of("FloatKernels.remainder", FloatKernels::remainder)
        .args(() -> { Inputs in = new Inputs(43); float[] b = in.anyFloats(997);
          for (int i = 0; i < b.length; i += 7) b[i] = 0f;       // x % 0 is NaN for floats, not an exception
          return new Object[] {in.anyFloats(997), b, new float[997]}; }).run();
  }

  @Test
  void sqrt() {
    KernelCheck.of("FloatKernels.sqrt", FloatKernels::sqrt)
        .args(() -> { Inputs in = new Inputs(44); return new Object[] {in.anyFloats(997), new float[997]}; }).run();
  }

  @Test
  void roundings() {
    KernelCheck.of("FloatKernels.roundings", FloatKernels::roundings)
        .args(() -> { Inputs in = new Inputs(45); return new Object[] {in.anyFloats(997), new float[3 * 997]}; }).run();
  }

  @Test
  void expLog() {
    KernelCheck.of("FloatKernels.expLog", FloatKernels::expLog).tolerance(DOUBLE_MATH_AS_FLOAT)
        .args(() -> { Inputs in = new Inputs(46); return new Object[] {in.anyFloats(997), new float[2 * 997]}; }).run();
  }

  @Test
  void sinCos() {
    KernelCheck.of("FloatKernels.sinCos", FloatKernels::sinCos).tolerance(DOUBLE_MATH_AS_FLOAT)
        .args(() -> { Inputs in = new Inputs(47); return new Object[] {in.anyFloats(997), new float[997], new float[997]}; }).run();
  }

  @Test
  void sigmoidTanh() {
    // The sigmoid adds and divides in float after exp: one more rounding on top of exp's ulp.
    KernelCheck.of("FloatKernels.sigmoidTanh", FloatKernels::sigmoidTanh).tolerance(Tolerance.ulps(3))
        .args(() -> { Inputs in = new Inputs(48);
          return new Object[] {in.floatArray(997, -20, 20), new FloatArray(997), new FloatArray(997)}; }).run();
  }

  @Test
  void powHypot() {
    KernelCheck.of("FloatKernels.powHypot", FloatKernels::powHypot).tolerance(DOUBLE_MATH_AS_FLOAT)
        .args(() -> { Inputs in = new Inputs(49);
          return new Object[] {in.floats(997, 0, 10), in.floats(997, -5, 5), new float[997], new float[997]}; }).run();
  }

  @ParameterizedTest
  @CsvSource({"1, 1, 1", "31, 17, 13", "7, 64, 33"})
  void matmul(int n, int m, int k) {
    KernelCheck.of("FloatKernels.matmul", FloatKernels::matmul)
        .args(() -> { Inputs in = new Inputs(50);
          return new Object[] {in.floatArray(n * k, -1, 1), in.floatArray(k * m, -1, 1), new FloatArray(n * m), n, m, k}; }).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 1000})
  void stencil(int n) {
    KernelCheck.of("FloatKernels.stencil", FloatKernels::stencil)
        .args(() -> { Inputs in = new Inputs(51); return new Object[] {in.floats(n, -10, 10), in.floats(n, -10, 10)}; }).run();
  }

  @ParameterizedTest
  @CsvSource({"1, 1", "31, 10", "5, 257"})
  void softmaxRows(int rows, int cols) {
    // exp differs by up to 1 ulp per element; the row sum and the division spread that a little.
    KernelCheck.of("FloatKernels.softmaxRows", FloatKernels::softmaxRows).tolerance(Tolerance.ulps(8))
        .args(() -> { Inputs in = new Inputs(52); return new Object[] {in.floatArray(rows * cols, -30, 30), new FloatArray(rows * cols), cols}; })
        .run();
  }
}
