// Runs every FuzzFoundKernels kernel on the jvm and on every device and compares: all exact.
package dev.loopjit.conformance;

import dev.loopjit.api.KernelContext;
import dev.loopjit.api.WorkerGrid1D;
import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.FloatArray;
import org.junit.jupiter.api.Test;

class FuzzFoundKernelsTest {
  private static final int N = 997;

  @Test
  void reductionOfACall() {
    KernelCheck.of("FuzzFoundKernels.reductionOfACall", FuzzFoundKernels::reductionOfACall)
        .args(() -> { Inputs in = new Inputs(1301); return new Object[] {in.ints(N), in.shorts(61), new long[] {5}, new int[] {-7}}; }).run();
  }

  @Test
  void reductionOfFoldedConstants() {
    KernelCheck.of("FuzzFoundKernels.reductionOfFoldedConstants", FuzzFoundKernels::reductionOfFoldedConstants)
        .args(() -> { Inputs in = new Inputs(1303); return new Object[] {in.ints(N), new int[] {11}, new long[] {3}, new long[] {-5}}; }).run();
  }

  @Test
  void reductionWithAConstant() {
    KernelCheck.of("FuzzFoundKernels.reductionWithAConstant", FuzzFoundKernels::reductionWithAConstant)
        .args(() -> { Inputs in = new Inputs(1302);
          return new Object[] {FloatArray.fromArray(in.floats(N, -100, 100)), new double[] {-3}, new float[] {7}}; }).run();
  }

  @Test
  void reductionOfAChoice() {
    KernelCheck.of("FuzzFoundKernels.reductionOfAChoice", FuzzFoundKernels::reductionOfAChoice)
        .args(() -> { Inputs in = new Inputs(1304); return new Object[] {in.floats(N, -50, 50), in.ints(N), new float[] {3}, new int[] {-9}}; }).run();
  }

  @Test
  void reductionAfterCopiedCode() {
    KernelCheck.of("FuzzFoundKernels.reductionAfterCopiedCode", FuzzFoundKernels::reductionAfterCopiedCode)
        .args(() -> { Inputs in = new Inputs(1305); return new Object[] {in.ints(N), in.longs(N), new int[N], new long[] {1}}; }).run();
  }

  @Test
  void reductionReadingATable() {
    KernelCheck.of("FuzzFoundKernels.reductionReadingATable", FuzzFoundKernels::reductionReadingATable)
        .args(() -> { Inputs in = new Inputs(1306); return new Object[] {in.ints(N), new long[] {3}}; }).run();
  }

  @Test
  void codeBeforeTheLoopRunInEveryIteration() {
    KernelCheck.of("FuzzFoundKernels.codeBeforeTheLoopRunInEveryIteration", FuzzFoundKernels::codeBeforeTheLoopRunInEveryIteration)
        .args(() -> new Object[] {new Inputs(1307).doubles(16 * 40, -1, 1), 40}).run();
  }

  @Test
  void contextKernelBuiltTwice() {
    KernelCheck.of("FuzzFoundKernels.contextKernelBuiltTwice", FuzzFoundKernels::contextKernelBuiltTwice).grid(new WorkerGrid1D(64))
        .args(() -> { Inputs in = new Inputs(1308); double[] od = in.doubles(64, -4, 4); od[3] = Double.POSITIVE_INFINITY;
          return new Object[] {new KernelContext(), in.floats(64, -300, 300), od, 64}; }).run();
  }

  @Test
  void groupReturnThenTreeSum() {
    KernelCheck.of("FuzzFoundKernels.groupReturnThenTreeSum", FuzzFoundKernels::groupReturnThenTreeSum)
        .grid(new WorkerGrid1D(192).setLocalWork(64, 1, 1))
        .args(() -> new Object[] {new KernelContext(), new Inputs(1309).ints(129), new int[129], 129}).run();
  }
}
