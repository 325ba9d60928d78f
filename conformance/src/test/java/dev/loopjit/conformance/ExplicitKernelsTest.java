// Runs every ExplicitKernels kernel on the jvm and on every device, on grids with a partial last work-group.
package dev.loopjit.conformance;

import dev.loopjit.api.KernelContext;
import dev.loopjit.api.WorkerGrid1D;
import dev.loopjit.api.WorkerGrid2D;
import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import dev.loopjit.types.LongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ExplicitKernelsTest {

  @ParameterizedTest
  @ValueSource(ints = {1, 997})
  void saxpy(int n) {
    KernelCheck.of("ExplicitKernels.saxpy", ExplicitKernels::saxpy).grid(new WorkerGrid1D(n).setLocalWork(Math.min(n, 64), 1, 1))
        .args(() -> { Inputs in = new Inputs(181); return new Object[] {new KernelContext(), -2f, in.floatArray(n, -1, 1), in.floatArray(n, -1, 1)}; })
        .run();
  }

  @ParameterizedTest
  @CsvSource({"1, 1, 1, 1", "31, 17, 8, 4", "100, 3, 16, 1"})
  void ids2D(int width, int height, int localX, int localY) {
    KernelCheck.of("ExplicitKernels.ids2D", ExplicitKernels::ids2D).grid(new WorkerGrid2D(width, height).setLocalWork(localX, localY, 1))
        .args(() -> new Object[] {new KernelContext(), new IntArray(width * height), width, height}).run();
  }

  @ParameterizedTest
  @CsvSource({"1000, 64", "997, 32", "5, 8"})
  void localSum(int n, int local) {
    int groups = (n + local - 1) / local;
    KernelCheck.of("ExplicitKernels.localSum", ExplicitKernels::localSum).grid(new WorkerGrid1D(n).setLocalWork(local, 1, 1))
        .args(() -> { int[] k = new Inputs(182).ints(n, -100, 100); float[] v = new float[n];
          for (int i = 0; i < n; i++) v[i] = k[i];
          return new Object[] {new KernelContext(), FloatArray.fromArray(v), new FloatArray(groups)}; }).run();
  }

  @Test
  void atomicHistogram() {
    KernelCheck.of("ExplicitKernels.atomicHistogram", ExplicitKernels::atomicHistogram).grid(new WorkerGrid1D(4099).setLocalWork(128, 1, 1))
        .args(() -> new Object[] {new KernelContext(), new Inputs(183).intArray(4099, 0, 1 << 20), new IntArray(16)}).run();
  }

  @Test
  void atomicSums() {
    KernelCheck.of("ExplicitKernels.atomicSums", ExplicitKernels::atomicSums).grid(new WorkerGrid1D(4099).setLocalWork(64, 1, 1))
        .args(() -> { int[] k = new Inputs(184).ints(4099, 0, 16); float[] v = new float[k.length];
          for (int i = 0; i < v.length; i++) v[i] = k[i];
          return new Object[] {new KernelContext(), FloatArray.fromArray(v), new FloatArray(1), new LongArray(2), new int[3]}; }).run();
  }

  @ParameterizedTest
  @CsvSource({"1, 1", "8, 8", "31, 17"})
  void transposeTile(int rows, int cols) {
    KernelCheck.of("ExplicitKernels.transposeTile", ExplicitKernels::transposeTile).grid(new WorkerGrid2D(cols, rows).setLocalWork(8, 8, 1))
        .args(() -> new Object[] {new KernelContext(), new Inputs(185).floatArray(rows * cols, -1, 1), new FloatArray(rows * cols), rows, cols})
        .run();
  }
}
