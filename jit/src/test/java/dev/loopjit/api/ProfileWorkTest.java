// Under the profiler every task says what it did and how well it used the device; the counts are the same on every device.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.types.FloatArray;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfileWorkTest {
  @TempDir Path cache;

  static void saxpy(float a, FloatArray x, FloatArray y) {
    for (@Parallel int i = 0; i < y.getSize(); i++) y.set(i, a * x.get(i) + y.get(i));
  }

  private static Profile run(Device d, int n, String... settings) {
    FloatArray x = new FloatArray(n), y = new FloatArray(n);
    TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, x, y)
        .task("saxpy", ProfileWorkTest::saxpy, 2f, x, y).transferToHost(DataTransferMode.EVERY_EXECUTION, y);
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d).withProfiler()) {
      for (int i = 0; i < settings.length; i += 2) plan.withSetting(settings[i], settings[i + 1]);
      return plan.execute().profile();
    }
  }

  static void matvec(FloatArray a, FloatArray x, FloatArray y, int n) {
    for (@Parallel int i = 0; i < n; i++) {
      float s = 0f;
      for (int j = 0; j < n; j++) s += a.get(i * n + j) * x.get(j);
      y.set(i, s);
    }
  }

  /** Matrix-vector runs as a coarsened variant on CPU OpenCL devices (rows side by side): its work is still the Java loop's, counted exactly. */
  @Test
  void aCoarsenedVariantCountsTheJavaLoopsWork() {
    int n = 512;
    for (Device d : Devices.all()) {
      FloatArray a = new FloatArray(n * n), x = new FloatArray(n), y = new FloatArray(n);
      TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a, x)
          .task("mv", ProfileWorkTest::matvec, a, x, y, n).transferToHost(DataTransferMode.EVERY_EXECUTION, y);
      Profile p;
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d).withProfiler()) {
        plan.withSetting("probe", "off").withSetting("cacheDir", cache.toString());
        p = plan.execute().profile();
      }
      Profile.TaskTime t = p.tasks().getFirst();
      assertNotNull(t.work(), d.id());
      assertTrue(t.work().exact(), d.id() + ": " + t.work().estimate());
      assertEquals(8.0 * n * n, t.work().bytesRead(), d.id());
      assertEquals(4.0 * n, t.work().bytesWritten(), d.id());
      assertEquals(2.0 * n * n, t.work().flops(), d.id());
    }
  }

  @Test
  void everyDeviceCountsTheSameExactWork() {
    int n = 100_000;
    for (Device d : Devices.all()) {
      Profile p = run(d, n, "probe", "off", "cacheDir", cache.toString());
      Profile.TaskTime t = p.tasks().getFirst();
      assertNotNull(t.work(), d.id());
      assertEquals(8.0 * n, t.work().bytesRead(), d.id());
      assertEquals(4.0 * n, t.work().bytesWritten(), d.id());
      assertEquals(2.0 * n, t.work().flops(), d.id());
      assertTrue(t.work().exact(), t.work().estimate());
      assertEquals(n, t.work().workItems());
      assertTrue(t.gigabytesPerSecond() > 0, p.toString());
      assertNull(t.limits(), "probing off and nothing cached: no shares");
      assertTrue(Double.isNaN(t.bandwidthShare()));
      assertFalse(p.toString().contains("shares of"), p.toString());
      assertTrue(p.toString().contains("GB/s") && p.toString().contains("GFLOP/s"), p.toString());
    }
  }

  @Test
  void theFirstProfileOnADeviceMeasuresItsLimitsAndShowsShares() {
    Profile p = run(Devices.jvm(), 50_000, "cacheDir", cache.toString());
    Profile.TaskTime t = p.tasks().getFirst();
    assertNotNull(t.limits(), p.toString());
    assertEquals("jvm", t.limits().device());
    assertEquals(t.gigabytesPerSecond() / t.limits().copyGigabytesPerSecond(), t.bandwidthShare(), 1e-9);
    assertTrue(p.toString().contains("shares of jvm: copy"), p.toString());
    assertTrue(p.toString().matches("(?s).*GB/s \\( *\\d+%\\).*"), p.toString());
    // A second plan reads the same limits (from memory or disk), measuring nothing.
    assertEquals(t.limits(), run(Devices.jvm(), 10, "cacheDir", cache.toString(), "probe", "off").tasks().getFirst().limits());
  }

  @Test
  void withoutTheProfilerNothingIsCounted() {
    FloatArray x = new FloatArray(10), y = new FloatArray(10);
    TaskGraph g = new TaskGraph("g").task("saxpy", ProfileWorkTest::saxpy, 2f, x, y);
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(Devices.jvm())) {
      Profile.TaskTime t = plan.execute().profile().tasks().getFirst();
      assertNull(t.work());
      assertTrue(Double.isNaN(t.gigabytesPerSecond()));
    }
  }

  @Test
  void toStringShowsRatesSharesAndEstimates() {
    Profile.Limits l = new Profile.Limits("opencl:0", 20, 100, "2026-01-01T00:00:00Z");
    Profile p = new Profile(0, 0, 2_000_000, 0, 0, 0, 0, 0, List.of(
        new Profile.TaskTime("g.a", 1_000_000, new Profile.Work(8e6, 2e6, 5e7, 1000, null), l),
        new Profile.TaskTime("g.b", 1_000_000, new Profile.Work(1e6, 0, 0, 10, "a branch on data (the larger side counted)"), l)));
    String s = p.toString();
    assertTrue(s.contains("10.00 GB/s ( 50%)"), s);
    assertTrue(s.contains("50.00 GFLOP/s ( 50%)"), s);
    assertTrue(s.contains("(estimated: a branch on data"), s);
    assertTrue(s.contains("shares of opencl:0: copy 20.0 GB/s, multiply-add 100.0 GFLOP/s"), s);
    assertEquals(l, p.limits());
    assertEquals(5.0, p.tasks().getFirst().work().intensity(), 1e-12);
  }
}
