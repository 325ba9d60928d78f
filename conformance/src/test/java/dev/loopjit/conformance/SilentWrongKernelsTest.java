// Runs every SilentWrongKernels kernel on the jvm and on every device and compares: all exact.
package dev.loopjit.conformance;

import dev.loopjit.api.KernelContext;
import dev.loopjit.api.WorkerGrid1D;
import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.FloatArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SilentWrongKernelsTest {
  @Test
  void matrixVectorWithResidual() {
    int n = 96, d = 20, local = 32;
    KernelCheck.of("SilentWrongKernels.matrixVectorWithResidual", SilentWrongKernels::matrixVectorWithResidual)
        .grid(new WorkerGrid1D((d + 3) * local).setLocalWork(local, 1, 1))
        .args(() -> { Inputs in = new Inputs(2601);
          return new Object[] {new KernelContext(), in.floatArray(n, -1, 1), in.floatArray(d, -1, 1), in.floatArray(n * d, -1, 1), n, d, local}; })
        .run();
  }

  @ParameterizedTest
  @CsvSource({"0, 100, 16", "1, 100, 16", "0, 7, 8"})
  void barrierInUniformIf(int mode, int n, int local) {
    KernelCheck.of("SilentWrongKernels.barrierInUniformIf", SilentWrongKernels::barrierInUniformIf)
        .grid(new WorkerGrid1D((n + local - 1) / local * local).setLocalWork(local, 1, 1))
        .args(() -> new Object[] {new KernelContext(), new Inputs(2602).floatArray(n, -1, 1), new FloatArray(n), mode}).run();
  }

  @ParameterizedTest
  @CsvSource({"3, 0", "3, 4", "5, 2", "0, 0"})
  void returnsAroundBarrierLoop(int groups, int stop) {
    int local = 16, n = 70;
    KernelCheck.of("SilentWrongKernels.returnsAroundBarrierLoop", SilentWrongKernels::returnsAroundBarrierLoop)
        .grid(new WorkerGrid1D(5 * local).setLocalWork(local, 1, 1))
        .args(() -> { int[] k = new Inputs(2603).ints(n, -50, 50); float[] v = new float[n];
          for (int i = 0; i < n; i++) v[i] = k[i];
          return new Object[] {new KernelContext(), FloatArray.fromArray(v), new FloatArray(5), groups, stop}; }).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2})
  void helperReturnsBeforeBarrier(int skip) {
    int local = 8, n = 45;
    KernelCheck.of("SilentWrongKernels.helperReturnsBeforeBarrier", SilentWrongKernels::helperReturnsBeforeBarrier)
        .grid(new WorkerGrid1D(48).setLocalWork(local, 1, 1))
        .args(() -> new Object[] {new KernelContext(), new Inputs(2604).floatArray(n, -1, 1), new FloatArray(n), skip}).run();
  }

  @Test
  void variableAssignedBeforeRead() {
    KernelCheck.of("SilentWrongKernels.variableAssignedBeforeRead", SilentWrongKernels::variableAssignedBeforeRead)
        .args(() -> new Object[] {new Inputs(2605).ints(100, -50, 50), new int[100], 7}).run();
  }

  @Test
  void privateArrayReadOnly() {
    KernelCheck.of("SilentWrongKernels.privateArrayReadOnly", SilentWrongKernels::privateArrayReadOnly)
        .args(() -> new Object[] {new Inputs(2606).ints(100), new int[100]}).run();
  }

  @Test
  void privateArrayWrittenBefore() {
    KernelCheck.of("SilentWrongKernels.privateArrayWrittenBefore", SilentWrongKernels::privateArrayWrittenBefore)
        .args(() -> new Object[] {new float[100]}).run();
  }
}
