// Runs every ConversionKernels kernel on the jvm and on every device and compares: all exact.
package dev.loopjit.conformance;

import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import org.junit.jupiter.api.Test;

class ConversionKernelsTest {
  private static final int N = 1000;

  @Test
  void intToFloating() {
    KernelCheck.of("ConversionKernels.intToFloating", ConversionKernels::intToFloating)
        .args(() -> { Inputs in = new Inputs(101); return new Object[] {in.ints(N), new float[N], new double[N]}; }).run();
  }

  @Test
  void longToFloating() {
    KernelCheck.of("ConversionKernels.longToFloating", ConversionKernels::longToFloating)
        .args(() -> { Inputs in = new Inputs(102); return new Object[] {in.longs(N), new float[N], new double[N]}; }).run();
  }

  @Test
  void floatToIntegers() {
    KernelCheck.of("ConversionKernels.floatToIntegers", ConversionKernels::floatToIntegers)
        .args(() -> { Inputs in = new Inputs(103);
          return new Object[] {in.anyFloats(N), new int[N], new long[N], new short[N], new byte[N], new char[N]}; }).run();
  }

  @Test
  void doubleToIntegers() {
    KernelCheck.of("ConversionKernels.doubleToIntegers", ConversionKernels::doubleToIntegers)
        .args(() -> { Inputs in = new Inputs(104); return new Object[] {in.anyDoubles(N), new int[N], new long[N], new char[N]}; }).run();
  }

  @Test
  void doubleToFloat() {
    KernelCheck.of("ConversionKernels.doubleToFloat", ConversionKernels::doubleToFloat)
        .args(() -> { Inputs in = new Inputs(105); return new Object[] {in.anyDoubles(N), new float[N]}; }).run();
  }

  @Test
  void floatToDouble() {
    KernelCheck.of("ConversionKernels.floatToDouble", ConversionKernels::floatToDouble)
        .args(() -> { Inputs in = new Inputs(106); return new Object[] {in.anyFloats(N), new double[N]}; }).run();
  }

  @Test
  void intNarrowAndBack() {
    KernelCheck.of("ConversionKernels.intNarrowAndBack", ConversionKernels::intNarrowAndBack)
        .args(() -> { Inputs in = new Inputs(107); return new Object[] {in.ints(N), new byte[N], new short[N], new char[N], new int[N]}; }).run();
  }

  @Test
  void byteWidening() {
    KernelCheck.of("ConversionKernels.byteWidening", ConversionKernels::byteWidening)
        .args(() -> { Inputs in = new Inputs(108); return new Object[] {in.bytes(N), new char[N], new int[N], new long[N], new double[N]}; }).run();
  }

  @Test
  void doubleBits() {
    KernelCheck.of("ConversionKernels.doubleBits", ConversionKernels::doubleBits)
        .args(() -> { Inputs in = new Inputs(109); return new Object[] {in.anyDoubles(N), new long[N], new int[N], new double[N]}; }).run();
  }
}
