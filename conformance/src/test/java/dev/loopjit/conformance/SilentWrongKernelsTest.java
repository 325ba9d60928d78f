// Runs the SilentWrongKernels on the jvm and every device and compares.
package dev.loopjit.conformance;

import dev.loopjit.api.KernelContext;
import dev.loopjit.api.WorkerGrid1D;
import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.FloatArray;
import org.junit.jupiter.api.Test;

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

  @Test
  void privateArrayWrittenBefore() {
    KernelCheck.of("SilentWrongKernels.privateArrayWrittenBefore", SilentWrongKernels::privateArrayWrittenBefore)
        .args(() -> new Object[] {new float[100]}).run();
  }
}
