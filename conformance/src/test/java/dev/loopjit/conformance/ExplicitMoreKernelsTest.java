// KernelContext geometry in 3-D and local arrays of every type on every device, against the jvm's work-items.
package dev.loopjit.conformance;

import dev.loopjit.api.KernelContext;
import dev.loopjit.api.WorkerGrid1D;
import dev.loopjit.api.WorkerGrid3D;
import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.DoubleArray;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import dev.loopjit.types.LongArray;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExplicitMoreKernelsTest {
  @ParameterizedTest
  @CsvSource({"7, 5, 3, 4, 2, 2", "9, 4, 5, 8, 4, 1"})
  void ids3D(int nx, int ny, int nz, int lx, int ly, int lz) {
    KernelCheck.of("ExplicitMoreKernels.ids3D", ExplicitMoreKernels::ids3D)
        .grid(new WorkerGrid3D(nx, ny, nz).setLocalWork(lx, ly, lz))
        .args(() -> new Object[] {new KernelContext(), new IntArray(nx * ny * nz * 4), nx, ny, nz}).run();
  }

  @ParameterizedTest
  @CsvSource({"100, 32", "31, 8"})
  void localArraysOfEveryTypeWithGlobalBarriers(int n, int local) {
    KernelCheck.of("ExplicitMoreKernels.neighbours", ExplicitMoreKernels::neighbours)
        .grid(new WorkerGrid1D(n).setLocalWork(local, 1, 1))
        .args(() -> new Object[] {new KernelContext(), IntArray.fromArray(new Inputs(190).ints(n)),
            LongArray.fromArray(new Inputs(191).longs(n)), DoubleArray.fromArray(new Inputs(192).doubles(n, -1e9, 1e9))}).run();
  }

  @ParameterizedTest
  @CsvSource({"1000, 64", "37, 8", "256, 256"})
  void helpersGivenTheKernelContext(int n, int local) {
    int global = (n + local - 1) / local * local;
    KernelCheck.of("ExplicitMoreKernels.groupSumsThroughHelpers", ExplicitMoreKernels::groupSumsThroughHelpers)
        .grid(new WorkerGrid1D(global).setLocalWork(local, 1, 1))
        .args(() -> new Object[] {new KernelContext(), FloatArray.fromArray(new Inputs(193).floats(n, -10f, 10f)), new FloatArray(n), n}).run();
  }
}
