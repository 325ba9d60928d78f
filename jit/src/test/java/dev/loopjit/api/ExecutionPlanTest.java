// ExecutionPlan on the jvm device: lifecycle, device lookup, several graphs, and what Profile reports.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ExecutionPlanTest {

  static void addOne(float[] in, int[] out) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = (int) in[i] + 1;
  }

  /** Busy enough that its wall time is never 0 ns. */
  static void slowSum(float[] in, int[] out) {
    for (@Parallel int i = 0; i < out.length; i++) {
      float s = 0f;
      for (int k = 0; k < 20_000; k++) s += in[(i + k) % in.length];
      out[i] = (int) s;
    }
  }

  static void doubleIt(int[] in, int[] out) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = in[i] * 2;
  }

  private static ImmutableTaskGraph graph(float[] in, int[] out) {
    return new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, in).task("t", ExecutionPlanTest::addOne, in, out)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, out).snapshot();
  }

  @Test
  void aClosedPlanRefusesEverything() {
    ExecutionPlan plan = new ExecutionPlan(graph(new float[2], new int[2]));
    plan.withDevice(Devices.jvm()).execute();
    plan.close();
    plan.close(); // closing twice is harmless
    assertThrows(IllegalStateException.class, plan::execute);
    assertThrows(IllegalStateException.class, () -> plan.withDevice(Devices.jvm()));
    assertThrows(IllegalStateException.class, plan::withProfiler);
    assertThrows(IllegalStateException.class, () -> plan.withGridScheduler(new GridScheduler()));
  }

  @Test
  void anUnknownDeviceListsTheAvailableOnes() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Devices.get("opencl:99"));
    assertTrue(e.getMessage().contains("opencl:99") && e.getMessage().contains("jvm"), e.getMessage());
    try (ExecutionPlan plan = new ExecutionPlan(graph(new float[1], new int[1]))) {
      e = assertThrows(IllegalArgumentException.class, () -> plan.withDevice("cuda:7"));
      assertTrue(e.getMessage().contains("available") && e.getMessage().contains("jvm"), e.getMessage());
    }
  }

  @Test
  void graphsAreCheckedWhenThePlanIsMade() {
    assertThrows(IllegalArgumentException.class, ExecutionPlan::new);
    ImmutableTaskGraph g = graph(new float[1], new int[1]);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ExecutionPlan(g, g));
    assertTrue(e.getMessage().contains("\"g\""), e.getMessage());
  }

  @Test
  void graphsRunInOrderAndShareDeviceArrays() {
    float[] in = {1f, 2f, 3f};
    int[] mid = new int[3], out = new int[3];
    ImmutableTaskGraph first = new TaskGraph("first").transferToDevice(DataTransferMode.EVERY_EXECUTION, in)
        .task("t", ExecutionPlanTest::addOne, in, mid).snapshot();
    ImmutableTaskGraph second = new TaskGraph("second").task("t", ExecutionPlanTest::doubleIt, mid, out)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, out).snapshot();
    try (ExecutionPlan plan = new ExecutionPlan(first, second)) {
      ExecutionResult r = plan.withDevice(Devices.jvm()).execute();
      assertEquals("jvm", r.device().id());
      assertFalse(r.fellBack());
    }
    assertArrayEquals(new int[] {4, 6, 8}, out);
    assertArrayEquals(new int[3], mid, "mid was never asked back");
  }

  @Test
  void theProfileCountsBytesAndNoCompilesOnTheJvm() {
    float[] in = new float[100];
    int[] out = new int[50];
    try (ExecutionPlan plan = new ExecutionPlan(graph(in, out))) {
      Profile first = plan.withDevice(Devices.jvm()).execute().profile();
      assertEquals(0, first.kernelsCompiled(), "the jvm compiles nothing");
      assertEquals(400 + 200, first.bytesIn(), "in (EVERY_EXECUTION) and out (first use)");
      assertEquals(200, first.bytesOut());
      Profile second = plan.execute().profile();
      assertEquals(400, second.bytesIn(), "out is resident now");
      assertEquals(200, second.bytesOut());
      assertEquals(0, second.kernelsCompiled());
    }
  }

  @Test
  void timesAreMeasuredOnlyWithTheProfiler() {
    float[] in = new float[1000];
    int[] out = new int[64];
    ImmutableTaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, in)
        .task("t", ExecutionPlanTest::slowSum, in, out).transferToHost(DataTransferMode.EVERY_EXECUTION, out).snapshot();
    try (ExecutionPlan plan = new ExecutionPlan(g)) {
      Profile p = plan.withDevice(Devices.jvm()).execute().profile();
      assertEquals(0, p.kernelNanos());
      assertEquals(0, p.copyInNanos());
      assertEquals(0, p.copyOutNanos());
      assertEquals(1, p.tasks().size());
      assertEquals("g.t", p.tasks().getFirst().task());
      assertEquals(0, p.tasks().getFirst().kernelNanos());
    }
    try (ExecutionPlan plan = new ExecutionPlan(g)) {
      Profile p = plan.withDevice(Devices.jvm()).withProfiler().execute().profile();
      assertTrue(p.kernelNanos() > 0, p.toString());
      assertTrue(p.copyInNanos() > 0, p.toString());
      assertTrue(p.copyOutNanos() > 0, p.toString());
      assertEquals(p.kernelNanos(), p.tasks().getFirst().kernelNanos());
      assertTrue(p.totalNanos() >= p.kernelNanos() + p.copyInNanos() + p.copyOutNanos());
      assertTrue(p.toString().contains("g.t"), p.toString());
    }
  }
}
