// What a plan asks of the CUDA driver once it runs in its steady state: launches, copies and waits, nothing made or looked up again.
package dev.loopjit.backend.cuda;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Engine;
import dev.loopjit.api.GridScheduler;
import dev.loopjit.api.Parallel;
import dev.loopjit.api.Task3;
import dev.loopjit.api.Task4;
import dev.loopjit.runtime.GraphRunner;
import dev.loopjit.runtime.GraphSpec;
import dev.loopjit.runtime.Settings;
import dev.loopjit.spi.TaskSpec;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A training step's shape in small: a gather through row numbers (bounds-checked: the host cannot
 * prove the indices), an elementwise chain and a loss read back, executed again and again. After
 * the first executions every further one asks the driver for exactly its launches, its small copies
 * (the row numbers in; the loss and the bounds reports out) and two waits (before the copies back,
 * for the bounds reports; and after them): no allocation, module, function lookup, event or host
 * registration. Runs on its own simulated driver ({@link CountingCuda}), GPU or not.
 */
class SteadyStateTest {
  static void gather(float[] images, int[] rows, float[] x) {
    for (@Parallel int i = 0; i < x.length; i++) x[i] = images[rows[i]];
  }

  static void scaleAndShift(float[] x, float[] y, float a, float b) {
    for (@Parallel int i = 0; i < y.length; i++) y[i] = a * x[i] + b;
  }

  static void loss(float[] y, float[] target, float[] loss) {
    float s = 0;
    for (int i = 0; i < y.length; i++) s += (y[i] - target[i]) * (y[i] - target[i]);
    loss[0] = s;
  }

  @Test
  void aSteadyStateExecutionOnlyLaunchesCopiesAndWaits() {
    Cuda driver = new CountingCuda();
    assertEquals(Cuda.SUCCESS, driver.init(0));
    int version;
    try (Arena a = Arena.ofConfined()) {
      MemorySegment v = a.allocate(JAVA_INT);
      assertEquals(Cuda.SUCCESS, driver.driverGetVersion(v));
      version = v.get(JAVA_INT, 0);
    }
    CudaDevice d = CudaDevice.query(driver, 0, version);
    int n = 64;
    float[] images = new float[1000], x = new float[n], y = new float[n], target = new float[n], loss = new float[1];
    int[] rows = new int[n];
    for (int i = 0; i < images.length; i++) images[i] = (i % 17) * 0.25f;
    for (int i = 0; i < n; i++) target[i] = i % 3;
    List<TaskSpec> tasks = List.of(
        TaskSpec.of("step", "gather", (Task3<float[], int[], float[]>) SteadyStateTest::gather, new Object[] {images, rows, x}),
        TaskSpec.of("step", "scale", (Task4<float[], float[], Float, Float>) SteadyStateTest::scaleAndShift, new Object[] {x, y, 0.5f, 1f}),
        TaskSpec.of("step", "loss", (Task3<float[], float[], float[]>) SteadyStateTest::loss, new Object[] {y, target, loss}));
    List<GraphSpec.Transfer> in = new java.util.ArrayList<>(
        GraphSpec.transfers("step", "transferToDevice", DataTransferMode.FIRST_EXECUTION, new Object[] {images, target}));
    in.addAll(GraphSpec.transfers("step", "transferToDevice", DataTransferMode.EVERY_EXECUTION, new Object[] {rows}));
    GraphSpec step = new GraphSpec("step", in, tasks,
        GraphSpec.transfers("step", "transferToHost", DataTransferMode.EVERY_EXECUTION, new Object[] {loss}));
    try (Engine.Executor plan = new GraphRunner(new CudaRuntime(d, PtxRecipe.INSTANCE, Settings.options()))) {
      for (int s = 0; s < 8; s++) {
        for (int i = 0; i < n; i++) rows[i] = (i * 7 + s * 13) % images.length;
        var before = CountingCuda.snapshot();
        plan.execute(List.of(step), new Engine.ExecutionOptions(false, new GridScheduler()));
        Map<String, long[]> calls = CountingCuda.since(before);
        float expected = 0;
        for (int i = 0; i < n; i++) {
          float v = 0.5f * images[rows[i]] + 1f;
          expected += (v - target[i]) * (v - target[i]);
        }
        assertArrayEquals(new float[] {expected}, loss, "execution " + s);
        if (s < 2) continue;   // the first executions compile, allocate and copy the inputs in
        assertEquals(Set.of("ctxSetCurrent", "launchKernel", "memcpyHtoDAsync", "memcpyDtoHAsync", "streamSynchronize"), calls.keySet(),
            "execution " + s + " asked the driver for " + describe(calls));
        assertEquals(3, calls.get("launchKernel")[0], "one launch per task: " + describe(calls));
        assertEquals(1, calls.get("memcpyHtoDAsync")[0], "only the row numbers go in: " + describe(calls));
        assertTrue(calls.get("memcpyDtoHAsync")[0] <= 2, "the loss and the gather's bounds report come back: " + describe(calls));
        assertEquals(2, calls.get("streamSynchronize")[0], "a wait for the bounds reports and one after the copies back: " + describe(calls));
      }
    }
  }

  private static String describe(Map<String, long[]> calls) {
    StringBuilder s = new StringBuilder();
    calls.forEach((k, v) -> s.append(s.isEmpty() ? "" : ", ").append(k).append(" ×").append(v[0]));
    return s.toString();
  }
}
