// Runs every LongKernels kernel on the jvm and on every device and compares: all exact.
package dev.loopjit.conformance;

import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.LongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LongKernelsTest {

  @ParameterizedTest
  @ValueSource(ints = {1, 997})
  void arithmetic(int n) {
    KernelCheck.of("LongKernels.arithmetic", LongKernels::arithmetic)
        .args(() -> { Inputs in = new Inputs(21); return new Object[] {in.longs(n), in.longs(n), new long[n]}; }).run();
  }

  @Test
  void divRem() {
    KernelCheck.of("LongKernels.divRem", LongKernels::divRem)
        .args(() -> { Inputs in = new Inputs(22); return new Object[] {in.longs(997), in.nonZeroLongs(997), new long[997], new long[997]}; })
        .run();
  }

  @Test
  void divRemBySmallDivisors() {
    KernelCheck.of("LongKernels.divRem", LongKernels::divRem)
        .args(() -> { Inputs in = new Inputs(23); return new Object[] {in.longs(997), in.longs(997, 1, 100), new long[997], new long[997]}; })
        .run();
  }

  @Test
  void variableShifts() {
    KernelCheck.of("LongKernels.variableShifts", LongKernels::variableShifts)
        .args(() -> { Inputs in = new Inputs(24); return new Object[] {in.longs(1000), in.ints(1000, -130, 130), new long[1000]}; }).run();
  }

  @Test
  void bitwise() {
    KernelCheck.of("LongKernels.bitwise", LongKernels::bitwise)
        .args(() -> { Inputs in = new Inputs(25); return new Object[] {in.longArray(997), in.longArray(997), new LongArray(997)}; }).run();
  }

  @Test
  void splitMix() {
    KernelCheck.of("LongKernels.splitMix", LongKernels::splitMix)
        .args(() -> { Inputs in = new Inputs(26); return new Object[] {in.longs(4099), new long[4099]}; }).run();
  }

  @Test
  void xorShiftRounds() {
    KernelCheck.of("LongKernels.xorShiftRounds", LongKernels::xorShiftRounds)
        .args(() -> { Inputs in = new Inputs(27); return new Object[] {in.longs(97), new long[97], 37}; }).run();
  }

  @Test
  void compare() {
    KernelCheck.of("LongKernels.compare", LongKernels::compare)
        .args(() -> { Inputs in = new Inputs(28); long[] a = in.longs(997), b = in.longs(997);
          for (int i = 0; i < a.length; i += 5) b[i] = a[i];
          return new Object[] {a, b, new int[997]}; }).run();
  }

  @Test
  void widenBeforeMultiply() {
    KernelCheck.of("LongKernels.widenBeforeMultiply", LongKernels::widenBeforeMultiply)
        .args(() -> { Inputs in = new Inputs(29); return new Object[] {in.ints(997), new long[997]}; }).run();
  }
}
