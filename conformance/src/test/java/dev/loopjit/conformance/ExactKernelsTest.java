// Runs every ExactKernels kernel on the jvm and on every device: equal where nothing overflows, Java's ArithmeticException (named) where something does.
package dev.loopjit.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.GridScheduler;
import dev.loopjit.api.KernelArithmeticException;
import dev.loopjit.api.KernelContext;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.api.WorkerGrid1D;
import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class ExactKernelsTest {
  private static final int N = 300;

  @Test
  void everyExactGivesJavasValuesWhereNothingOverflows() {
    KernelCheck.of("ExactKernels.everyExact", ExactKernels::everyExact).args(() -> {
      Inputs in = new Inputs(2610);
      int[] a = in.ints(N, -40_000, 40_000), b = in.ints(N, -40_000, 40_000);
      long[] la = in.longs(N, -(1L << 40), 1L << 40), lb = in.longs(N, -(1L << 40), 1L << 40);
      return new Object[] {a, b, la, lb, new int[N * 8], new long[N * 7]};
    }).run();
  }

  @Test
  void anOverflowThrowsJavasExceptionOnEveryDeviceNamingTheLine() throws IOException {
    overflowsEverywhere(false, "ExactKernels.sumsOf (ExactKernels.java:" + KernelSource.lineOf(ExactKernels.class, "the overflow's line") + ")");
  }

  @Test
  void anOverflowThrowsWithTheBoundsChecksOffToo() {
    overflowsEverywhere(true, "ExactKernels.sumsOf");
  }

  /** sumsOf overflowing at one element, on every device: Java's exception naming {@code where}, out unchanged, the plan usable. */
  private static void overflowsEverywhere(boolean checksOff, String where) {
    for (Device d : Devices.all()) {
      int[] a = new int[N], out = new int[N];
      for (int i = 0; i < N; i++) a[i] = i == 123 ? 1_500_000_000 : i;
      TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a)
          .task("t", ExactKernels::sumsOf, a, out).transferToHost(DataTransferMode.EVERY_EXECUTION, out);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
        plan.withDevice(d);
        if (checksOff) plan.withSetting("boundsChecks", "false");
        KernelArithmeticException e = assertThrows(KernelArithmeticException.class, plan::execute, d.id());
        assertEquals("integer overflow", e.reason(), e.getMessage());
        assertEquals(d.id(), e.device());
        assertTrue(e.getMessage().contains(where), d.id() + ": " + e.getMessage());
        assertArrayEquals(new int[N], out, d.id() + ": out unchanged");
        a[123] = 5;   // the plan stays usable
        plan.execute();
        assertEquals(1_000_000_005, out[123], d.id());
      }
    }
  }

  @Test
  void anOverflowInAKernelWithBarriersThrowsToo() {
    for (Device d : Devices.all()) {
      int[] a = new Inputs(2611).ints(40, -1000, 1000), out = new int[40];
      a[17] = Integer.MAX_VALUE / 2;
      TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a)
          .task("t", ExactKernels::sumsWithBarrier, new KernelContext(), a, out).transferToHost(DataTransferMode.EVERY_EXECUTION, out);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
        plan.withDevice(d).withGridScheduler(new GridScheduler("g.t", new WorkerGrid1D(48).setLocalWork(16, 1, 1)));
        KernelArithmeticException e = assertThrows(KernelArithmeticException.class, plan::execute, d.id());
        assertEquals("integer overflow", e.reason(), e.getMessage());
        assertArrayEquals(new int[40], out, d.id());
      }
    }
  }

  @Test
  void withoutAnOverflowTheKernelWithBarriersIsJavas() {
    KernelCheck.of("ExactKernels.sumsWithBarrier", ExactKernels::sumsWithBarrier).grid(new WorkerGrid1D(48).setLocalWork(16, 1, 1))
        .args(() -> new Object[] {new KernelContext(), new Inputs(2612).ints(40, -1000, 1000), new int[40]}).run();
  }
}
