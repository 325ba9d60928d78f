// withTimeout: a kernel that runs too long ends the execution with KernelTimeoutException on every device, host arrays unchanged.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimeoutTest {
  /** Seconds of work per work-item on a CPU for n = 2e9; it ends by itself, so a device it occupies is free again later. */
  static void spin(long[] out, long n) {
    for (@Parallel int i = 0; i < out.length; i++) {
      long s = 0;
      for (long k = 0; k < n; k++) s += (k ^ i) * 31 + (s >>> 7);
      out[i] = s;
    }
  }

  static void addOne(int[] a) {
    for (@Parallel int i = 0; i < a.length; i++) a[i] += 1;
  }

  /** Enough work to outlast the timeout many times over: the simulated CUDA device interprets PTX, far slower than the others. */
  private static long work(Device d) {
    return d.backend().equals("cuda") ? 3_000_000L : 3_000_000_000L;
  }

  @Test
  void aKernelThatRunsTooLongEndsTheExecutionAndLeavesTheHostArraysAlone() {
    for (Device d : Devices.all()) {
      long[] out = {-1, -1};
      TaskGraph g = new TaskGraph("g").task("spin", TimeoutTest::spin, out, work(d)).transferToHost(DataTransferMode.EVERY_EXECUTION, out);
      ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d).withTimeout(Duration.ofMillis(300));
      plan.withPreCompilation();   // the timeout bounds the run, not the JIT
      long t0 = System.nanoTime();
      KernelTimeoutException e = assertThrows(KernelTimeoutException.class, plan::execute, d.id());
      long ms = (System.nanoTime() - t0) / 1_000_000;
      assertTrue(ms < 2_000, d.id() + ": gave up after " + ms + " ms");
      assertEquals(List.of("g.spin"), e.tasks());
      assertEquals(d.id(), e.device());
      assertTrue(e.getMessage().contains("g.spin") && e.getMessage().contains("300 ms") && e.getMessage().contains(d.id()), e.getMessage());
      assertArrayEquals(new long[] {-1, -1}, out, d.id() + ": host array unchanged");
      IllegalStateException again = assertThrows(IllegalStateException.class, plan::execute);
      assertTrue(again.getMessage().contains("abandoned"), again.getMessage());
      plan.close();   // does not wait for the kernel
      assertArrayEquals(new long[] {-1, -1}, out, d.id() + ": still unchanged after close");
    }
  }

  @Test
  void aPlanWithATimeoutRunsNormallyWhenItIsFast() {
    for (Device d : Devices.all()) {
      int[] a = {1, 2, 3};
      try (ExecutionPlan plan = new ExecutionPlan(new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a)
          .task("add", TimeoutTest::addOne, a).transferToHost(DataTransferMode.EVERY_EXECUTION, a).snapshot()).withDevice(d)) {
        plan.withTimeout(Duration.ofSeconds(30)).execute();
        plan.execute();
        assertArrayEquals(new int[] {3, 4, 5}, a, d.id());
      }
    }
  }

  @Test
  void badTimeoutsAreRefused() {
    try (ExecutionPlan plan = new ExecutionPlan(new TaskGraph("g").task("add", TimeoutTest::addOne, new int[1]).snapshot())) {
      assertThrows(IllegalArgumentException.class, () -> plan.withTimeout(Duration.ZERO));
      assertThrows(IllegalArgumentException.class, () -> plan.withTimeout(Duration.ofSeconds(-1)));
      plan.withDevice(Devices.jvm()).withSetting("timeout", "soon");
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, plan::execute);
      assertTrue(e.getMessage().contains("500ms"), e.getMessage());
    }
  }
}
