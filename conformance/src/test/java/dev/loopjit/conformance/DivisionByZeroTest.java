// Documentation as a test: integer division by zero throws on the jvm, and gives 0 (quotient and remainder) on devices.
package dev.loopjit.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.Parallel;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.testing.KernelCheck;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A device cannot throw, so {@code x / 0} and {@code x % 0} on int and long give 0 there (the IR's
 * documented meaning of DIV and REM), where the JVM throws {@link ArithmeticException}. This is
 * the one place the jvm and the devices are meant to differ; the conformance kernels never divide
 * by zero.
 */
class DivisionByZeroTest {

  static void divide(int[] a, int[] b, int[] q, int[] r, long[] la, long[] lb, long[] lq, long[] lr) {
    for (@Parallel int i = 0; i < a.length; i++) {
      q[i] = a[i] / b[i];
      r[i] = a[i] % b[i];
      lq[i] = la[i] / lb[i];
      lr[i] = la[i] % lb[i];
    }
  }

  private static final int[] A = {7, -7, Integer.MIN_VALUE, 0, 100, 9, -9};
  private static final int[] B = {0, 2, 0, 0, -3, 0, 4};

  private static Object[] args() {
    int n = A.length;
    long[] la = new long[n], lb = new long[n];
    for (int i = 0; i < n; i++) {
      la[i] = A[i] * 1_000_000_007L;
      lb[i] = B[i];
    }
    return new Object[] {A.clone(), B.clone(), new int[n], new int[n], la, lb, new long[n], new long[n]};
  }

  @Test
  void throwsOnTheJvmAndLeavesTheHostArraysAlone() {
    Object[] a = args();
    int[] q = (int[]) a[2];
    q[1] = 42;
    TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a[0], a[1])
        .task("divide", DivisionByZeroTest::divide, (int[]) a[0], (int[]) a[1], q, (int[]) a[3], (long[]) a[4], (long[]) a[5],
            (long[]) a[6], (long[]) a[7])
        .transferToHost(DataTransferMode.EVERY_EXECUTION, q);
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
      plan.withDevice(Devices.jvm());
      assertThrows(ArithmeticException.class, plan::execute);
    }
    assertEquals(42, q[1], "the jvm works on its own copy: a failed kernel leaves the host array as it was");
  }

  @Test
  void givesZeroOnEveryDevice() {
    KernelCheck.checkRequiredDevices();
    List<Device> devices = Devices.all().stream().filter(d -> !d.backend().equals("jvm")).toList();
    assumeTrue(!devices.isEmpty(), "no device besides the jvm on this machine");
    for (Device d : devices) {
      Object[] after = KernelCheck.of("divide", DivisionByZeroTest::divide).args(DivisionByZeroTest::args).runOn(d);
      int n = A.length;
      int[] q = new int[n], r = new int[n];
      long[] lq = new long[n], lr = new long[n];
      for (int i = 0; i < n; i++) {
        long la = A[i] * 1_000_000_007L;
        q[i] = B[i] == 0 ? 0 : A[i] / B[i];
        r[i] = B[i] == 0 ? 0 : A[i] % B[i];
        lq[i] = B[i] == 0 ? 0 : la / B[i];
        lr[i] = B[i] == 0 ? 0 : la % B[i];
      }
      assertArrayEquals(q, (int[]) after[2], d.id() + ": int /");
      assertArrayEquals(r, (int[]) after[3], d.id() + ": int %");
      assertArrayEquals(lq, (long[]) after[6], d.id() + ": long /");
      assertArrayEquals(lr, (long[]) after[7], d.id() + ": long %");
    }
  }
}
