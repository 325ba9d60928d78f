// Transfer modes on the jvm device, which like any device works on its own copies: what moves, when, and what never does.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.loopjit.types.FloatArray;
import org.junit.jupiter.api.Test;

class TransferModesTest {

  static void copy(float[] from, float[] to) {
    for (@Parallel int i = 0; i < to.length; i++) to[i] = from[i];
  }

  static void copyOffHeap(FloatArray from, FloatArray to) {
    for (@Parallel int i = 0; i < to.getSize(); i++) to.set(i, from.get(i));
  }

  static void square(float[] from, float[] to) {
    for (@Parallel int i = 0; i < to.length; i++) to[i] = from[i] * from[i];
  }

  /** Reads out of bounds when from[0] is negative; writes 'to' first, so a partial result exists on the device. */
  static void failIfNegative(float[] from, float[] to) {
    for (@Parallel int i = 0; i < to.length; i++) to[i] = from[i] + 100f;
    int[] small = new int[1];
    small[from[0] < 0 ? 1 : 0] = 1;
  }

  private static ExecutionPlan plan(TaskGraph g) {
    return new ExecutionPlan(g.snapshot()).withDevice(Devices.jvm());
  }

  @Test
  void firstExecutionCopiesInOnce() {
    float[] in = {1f, 2f}, out = new float[2];
    try (ExecutionPlan plan = plan(new TaskGraph("g").transferToDevice(DataTransferMode.FIRST_EXECUTION, in)
        .task("t", TransferModesTest::copy, in, out).transferToHost(DataTransferMode.EVERY_EXECUTION, out))) {
      plan.execute();
      assertArrayEquals(new float[] {1f, 2f}, out);
      in[0] = 50f;
      plan.execute();
      assertArrayEquals(new float[] {1f, 2f}, out, "the device copy of 'in' stayed as first copied");
    }
  }

  @Test
  void transferToDeviceSendsAFirstExecutionArrayAgain() {
    float[] in = {1f, 2f}, out = new float[2];
    FloatArray offHeap = FloatArray.fromElements(3f, 4f), out2 = new FloatArray(2);
    try (ExecutionPlan plan = plan(new TaskGraph("g").transferToDevice(DataTransferMode.FIRST_EXECUTION, in, offHeap)
        .task("t", TransferModesTest::copy, in, out).task("u", TransferModesTest::copyOffHeap, offHeap, out2)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, out, out2))) {
      plan.transferToDevice(in);   // before the first execution: nothing to mark, the first copies it anyway
      plan.execute();
      in[0] = 50f;
      offHeap.set(0, 60f);
      plan.transferToDevice(in, offHeap).execute();
      assertArrayEquals(new float[] {50f, 2f}, out);
      assertArrayEquals(new float[] {60f, 4f}, out2.toArray());
      in[0] = 70f;
      plan.execute();
      assertArrayEquals(new float[] {50f, 2f}, out, "once sent, FIRST_EXECUTION again: the device keeps its copy");
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> plan.transferToDevice(new float[2]));
      assertEquals("transferToDevice: float[2] is no array of this plan's graphs", e.getMessage());
    }
  }

  @Test
  void firstExecutionCopiesInOnceForOffHeapArrays() {
    FloatArray in = FloatArray.fromElements(1f, 2f), out = new FloatArray(2);
    try (ExecutionPlan plan = plan(new TaskGraph("g").transferToDevice(DataTransferMode.FIRST_EXECUTION, in)
        .task("t", TransferModesTest::copyOffHeap, in, out).transferToHost(DataTransferMode.EVERY_EXECUTION, out))) {
      plan.execute();
      in.set(1, 50f);
      plan.execute();
      assertArrayEquals(new float[] {1f, 2f}, out.toArray());
    }
  }

  @Test
  void anArrayNoTransferNamesIsCopiedInOnFirstUseOnly() {
    float[] in = {1f, 2f}, out = new float[2];
    try (ExecutionPlan plan = plan(new TaskGraph("g").task("t", TransferModesTest::copy, in, out)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, out))) {
      plan.execute();
      in[0] = 50f;
      plan.execute();
      assertArrayEquals(new float[] {1f, 2f}, out);
    }
  }

  @Test
  void everyExecutionCopiesInEveryTime() {
    float[] in = {1f, 2f}, out = new float[2];
    try (ExecutionPlan plan = plan(new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, in)
        .task("t", TransferModesTest::copy, in, out).transferToHost(DataTransferMode.EVERY_EXECUTION, out))) {
      plan.execute();
      in[0] = 50f;
      plan.execute();
      assertArrayEquals(new float[] {50f, 2f}, out);
    }
  }

  @Test
  void underDemandComesBackOnlyWhenAsked() {
    float[] in = {3f, 4f}, out = new float[2];
    try (ExecutionPlan plan = plan(new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, in)
        .task("t", TransferModesTest::square, in, out).transferToHost(DataTransferMode.UNDER_DEMAND, out))) {
      ExecutionResult r = plan.execute();
      assertArrayEquals(new float[2], out, "not copied back yet");
      assertEquals(0, r.profile().bytesOut());
      r.transferToHost(out);
      assertArrayEquals(new float[] {9f, 16f}, out);
      assertThrows(IllegalArgumentException.class, () -> r.transferToHost(new float[2]), "an array the plan does not hold");
    }
  }

  @Test
  void firstExecutionToHostComesBackOnce() {
    float[] in = {3f}, out = new float[1];
    try (ExecutionPlan plan = plan(new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, in)
        .task("t", TransferModesTest::square, in, out).transferToHost(DataTransferMode.FIRST_EXECUTION, out))) {
      plan.execute();
      assertArrayEquals(new float[] {9f}, out);
      in[0] = 5f;
      plan.execute();
      assertArrayEquals(new float[] {9f}, out, "copied back after the first execution only");
    }
  }

  @Test
  void anIntermediateBetweenTasksNeverComesBack() {
    float[] in = {2f, 3f}, mid = {-1f, -1f}, out = new float[2];
    try (ExecutionPlan plan = plan(new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, in)
        .task("square", TransferModesTest::square, in, mid).task("copy", TransferModesTest::copy, mid, out)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, out))) {
      Profile p = plan.execute().profile();
      assertArrayEquals(new float[] {4f, 9f}, out);
      assertArrayEquals(new float[] {-1f, -1f}, mid, "the intermediate stays on the device");
      assertEquals(8, p.bytesOut(), "only 'out' came back");
      p = plan.execute().profile();
      assertEquals(8, p.bytesIn(), "only 'in' (EVERY_EXECUTION) goes in again; 'mid' and 'out' are resident");
    }
  }

  @Test
  void aKernelThatThrowsLeavesTheHostArraysAlone() {
    float[] in = {-1f, 2f}, out = {7f, 7f};
    try (ExecutionPlan plan = plan(new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, in)
        .task("t", TransferModesTest::failIfNegative, in, out).transferToHost(DataTransferMode.EVERY_EXECUTION, out))) {
      assertThrows(ArrayIndexOutOfBoundsException.class, plan::execute);
      assertArrayEquals(new float[] {-1f, 2f}, in);
      assertArrayEquals(new float[] {7f, 7f}, out, "the partial result on the device did not come back");
      in[0] = 1f;
      plan.execute();
      assertArrayEquals(new float[] {101f, 102f}, out, "the plan still works afterwards");
    }
  }
}
