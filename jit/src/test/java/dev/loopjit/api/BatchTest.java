// withBatch and withMemoryLimit: graphs over arrays larger than the batch run in slices with the whole graph's result, on every device; what cannot be sliced is refused; a plan past its limit runs nothing.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

public class BatchTest {
  static void scale(float[] x, float[] w, float[] y) {
    for (@Parallel int i = 0; i < y.length; i++) y[i] = x[i] * w[0] + w[1];
  }

  /** Writes only where the input is positive: the other elements keep what the host had. */
  static void clampInto(float[] y, IntArray keep, FloatArray z) {
    for (@Parallel int i = 0; i < z.getSize(); i++) {
      if (keep.get(i) > 0) z.set(i, Math.min(y[i], 3f));
    }
  }

  static void count(IntArray keep) {
    for (@Parallel int i = 0; i < keep.getSize(); i++) keep.set(i, keep.get(i) * 2);
  }

  static void shifted(float[] x, float[] y) {
    for (@Parallel int i = 0; i < y.length - 1; i++) y[i] = x[i + 1];
  }

  static void sum(float[] x, @Reduce float[] s) {
    for (@Parallel int i = 0; i < x.length; i++) s[0] += x[i];
  }

  static void toN(float[] x, int n, float[] y) {
    for (@Parallel int i = 0; i < n; i++) y[i] = x[i];
  }

  static void lengthInside(float[] x, float[] y) {
    for (@Parallel int i = 0; i < y.length; i++) y[i] = x[i] + x.length;
  }

  /** The arrays of one run: x, y, z, keep. */
  record Run(float[] y, float[] z, int[] keep) {}

  static Run run(Device d, Consumer<ExecutionPlan> setUp) {
    int n = 10_007;   // not a multiple of any slice below: the last slice is shorter
    float[] x = new float[n], w = {0.5f, -1f}, y = new float[n];
    IntArray keep = new IntArray(n);
    FloatArray z = new FloatArray(n);
    for (int i = 0; i < n; i++) {
      x[i] = (i % 13) - 4f;
      keep.set(i, i % 3 - 1);
      z.set(i, -7f);
    }
    TaskGraph g = new TaskGraph("b").transferToDevice(DataTransferMode.FIRST_EXECUTION, x, w, keep, z)
        .task("scale", BatchTest::scale, x, w, y)
        .task("clamp", BatchTest::clampInto, y, keep, z)
        .task("count", BatchTest::count, keep)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, y, z, keep);
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d)) {
      setUp.accept(plan);
      plan.execute();
      plan.execute();   // count doubles keep again; the clamp writes where it is now positive
    }
    return new Run(y, z.toArray(), keep.toHeapArray());
  }

  @Test
  void slicesGiveTheWholeGraphsResultOnEveryDevice() {
    checkEveryDevice();
  }

  /** Four batch sizes on every device of this run, each equal to the whole graph on the jvm. */
  public static void checkEveryDevice() {
    Run want = run(Devices.jvm(), p -> {});
    for (Device d : Devices.all())
      for (String size : new String[] {"4KB", "4096", "1000B", "0.5MB"}) {
        Run got = run(d, p -> p.withBatch(size));
        String what = d.id() + ", batch " + size;
        assertArrayEquals(want.y(), got.y(), what);
        assertArrayEquals(want.z(), got.z(), what);
        assertArrayEquals(want.keep(), got.keep(), what);
      }
  }

  @Test
  void theDeviceHoldsASliceAtATime() {
    float[] x = new float[100_000], w = {2f, 0f}, y = new float[100_000];
    TaskGraph g = new TaskGraph("m").transferToDevice(DataTransferMode.EVERY_EXECUTION, x, w).task("scale", BatchTest::scale, x, w, y)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, y);
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(Devices.jvm()).withBatch("64KB")) {
      Profile p = plan.execute().profile();
      // x and y as slices of 16,384 floats and of the last 1,696, and w: never the 400 KB arrays
      assertEquals(2 * 64 * 1024 + 2 * 1696 * 4 + 8, plan.getDeviceMemoryUsage());
      assertEquals(2L * 100_000 * 4 + 7 * 8, p.bytesIn(), "every slice of x and y in (y: elements a task may leave), w once per slice");
      assertEquals(100_000L * 4, p.bytesOut());
      UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, plan::schedule);
      assertTrue(e.getMessage().contains("one schedule per slice"), e.getMessage());
    }
  }

  @Test
  void whatCannotRunInSlicesIsRefusedBeforeAnythingRuns() {
    float[] x = new float[5000], y = new float[5000], s = new float[1];
    y[0] = 42f;
    String[][] cases = {
        {"shifted", "withBatch: task \"r.t\" cannot run in slices: its @Parallel loop does not run to an array's length"},
        {"sum", "withBatch: task \"r.t\" cannot run in slices: it reduces into @Reduce"},
        {"toN", "withBatch: task \"r.t\" cannot run in slices: its @Parallel loop does not run to an array's length"},
        {"lengthInside", "withBatch: task \"r.t\" cannot run in slices: it reads the length of x inside its loop"},
    };
    for (String[] c : cases) {
      TaskGraph g = switch (c[0]) {
        case "shifted" -> new TaskGraph("r").task("t", BatchTest::shifted, x, y);
        case "sum" -> new TaskGraph("r").task("t", BatchTest::sum, x, s);
        case "toN" -> new TaskGraph("r").task("t", BatchTest::toN, x, 5000, y);
        default -> new TaskGraph("r").task("t", BatchTest::lengthInside, x, y);
      };
      g.transferToHost(DataTransferMode.EVERY_EXECUTION, y);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(Devices.jvm()).withBatch("1KB")) {
        TornadoBailoutRuntimeException e = assertThrows(TornadoBailoutRuntimeException.class, plan::execute, c[0]);
        assertTrue(e.getMessage().startsWith(c[1]), c[0] + ": " + e.getMessage());
      }
      assertEquals(42f, y[0], "nothing ran");
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new ExecutionPlan(new TaskGraph("q").task("t", BatchTest::shifted, x, y).snapshot()).withBatch("lots"));
    assertEquals("withBatch: a size is a positive number of bytes, KB, MB or GB (\"256MB\"), not \"lots\"", e.getMessage());
  }

  @Test
  void aMemoryLimitRefusesWhatWouldNotFitAndBatchesFitUnderIt() {
    float[] x = new float[100_000], w = {2f, 1f}, y = new float[100_000];
    x[5] = 3f;
    TaskGraph g = new TaskGraph("k").transferToDevice(DataTransferMode.EVERY_EXECUTION, x, w).task("scale", BatchTest::scale, x, w, y)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, y);
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(Devices.jvm()).withMemoryLimit("256KB")) {
      TornadoMemoryException e = assertThrows(TornadoMemoryException.class, plan::execute);
      assertEquals("this plan's arrays need 800008 bytes on jvm, more than its memory limit of 262144 bytes (withMemoryLimit): raise the limit,"
          + " or run the graphs in slices with withBatch", e.getMessage());
      assertEquals(0, plan.getDeviceMemoryUsage(), "nothing stays allocated");
      assertEquals(0f, y[5], "nothing ran");
      plan.withBatch("64KB").execute();
      assertEquals(7f, y[5]);
      assertTrue(plan.getDeviceMemoryUsage() <= 256 * 1024, "holds " + plan.getDeviceMemoryUsage());
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new ExecutionPlan(g.snapshot()).withMemoryLimit("-1GB"));
    assertEquals("withMemoryLimit: a size is a positive number of bytes, KB, MB or GB (\"256MB\"), not \"-1GB\"", e.getMessage());
  }

  @Test
  void arraysOfDifferentLengthsAreRefused() {
    float[] x = new float[5000], w = {1f, 0f}, y = new float[4000];
    TaskGraph g = new TaskGraph("l").task("t", BatchTest::scale, x, w, y).transferToHost(DataTransferMode.EVERY_EXECUTION, y);
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(Devices.jvm()).withBatch("1KB")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, plan::execute);
      assertTrue(e.getMessage().startsWith("withBatch: graph \"l\": its element-by-element arrays have different lengths"), e.getMessage());
    }
  }
}
