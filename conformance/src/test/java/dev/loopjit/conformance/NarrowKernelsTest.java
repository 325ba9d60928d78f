// Runs every NarrowKernels kernel on the jvm and on every device and compares: all exact.
package dev.loopjit.conformance;

import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.ByteArray;
import dev.loopjit.types.IntArray;
import dev.loopjit.types.ShortArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NarrowKernelsTest {

  @ParameterizedTest
  @ValueSource(ints = {1, 997})
  void byteArithmetic(int n) {
    KernelCheck.of("NarrowKernels.byteArithmetic", NarrowKernels::byteArithmetic)
        .args(() -> { Inputs in = new Inputs(81); return new Object[] {in.bytes(n), in.bytes(n), new byte[n]}; }).run();
  }

  @Test
  void shortArithmetic() {
    KernelCheck.of("NarrowKernels.shortArithmetic", NarrowKernels::shortArithmetic)
        .args(() -> { Inputs in = new Inputs(82); return new Object[] {in.shorts(997), in.shorts(997), new short[997]}; }).run();
  }

  @Test
  void charArithmetic() {
    KernelCheck.of("NarrowKernels.charArithmetic", NarrowKernels::charArithmetic)
        .args(() -> { Inputs in = new Inputs(83); return new Object[] {in.chars(997), new char[997]}; }).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 7, 1000})
  void booleanLogic(int n) {
    KernelCheck.of("NarrowKernels.booleanLogic", NarrowKernels::booleanLogic)
        .args(() -> { Inputs in = new Inputs(84); return new Object[] {in.booleans(n), in.booleans(n), new boolean[n]}; }).run();
  }

  @Test
  void comparisonsToBooleans() {
    KernelCheck.of("NarrowKernels.comparisonsToBooleans", NarrowKernels::comparisonsToBooleans)
        .args(() -> { Inputs in = new Inputs(85); return new Object[] {in.ints(997, -3, 3), in.ints(997, -3, 3), new boolean[997], new boolean[997]}; })
        .run();
  }

  @Test
  void unsignedBytes() {
    KernelCheck.of("NarrowKernels.unsignedBytes", NarrowKernels::unsignedBytes)
        .args(() -> { Inputs in = new Inputs(86); return new Object[] {ByteArray.fromArray(in.bytes(997)), new ByteArray(997), new IntArray(997)}; })
        .run();
  }

  @Test
  void shortProducts() {
    KernelCheck.of("NarrowKernels.shortProducts", NarrowKernels::shortProducts)
        .args(() -> { Inputs in = new Inputs(87);
          return new Object[] {ShortArray.fromArray(in.shorts(997)), ShortArray.fromArray(in.shorts(997)), new IntArray(997)}; }).run();
  }

  @Test
  void compoundNarrowing() {
    KernelCheck.of("NarrowKernels.compoundNarrowing", NarrowKernels::compoundNarrowing)
        .args(() -> { Inputs in = new Inputs(88); return new Object[] {in.bytes(997), in.shorts(997), in.chars(997)}; }).run();
  }
}
