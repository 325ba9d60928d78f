// A plan's executions run schedules planned before they start: the first one's, then one steady schedule, replanned only when residency changes.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * On every device: a graph with an array copied in at every execution, one copied in at the first
 * only, an intermediate, and results copied back at every execution and at the first only. The
 * printed schedule of the first execution lists its copies and launches in order; the second
 * execution plans its own (nothing copied in but the per-execution input, nothing copied back but
 * the per-execution output); later executions plan none; a host change of the first-only input
 * ({@code plan.transferToDevice}) plans a schedule that copies it in again. Results equal Java's
 * throughout.
 */
class ScheduleTest {
  static void scale(float[] a, float[] w, float[] b) {
    for (@Parallel int i = 0; i < a.length; i++) b[i] = a[i] * w[i];
  }

  static void add(float[] b, float[] w, float[] c) {
    for (@Parallel int i = 0; i < b.length; i++) c[i] = b[i] + w[i];
  }

  @Test
  void executionsRunSchedulesPlannedBeforeThem() {
    for (Device d : Devices.all()) {
      float[] a = {1, 2, 3}, w = {10, 20, 30}, b = new float[3], c = new float[3];
      TaskGraph g = new TaskGraph("s").transferToDevice(DataTransferMode.EVERY_EXECUTION, a).transferToDevice(DataTransferMode.FIRST_EXECUTION, w)
          .task("scale", ScheduleTest::scale, a, w, b).task("add", ScheduleTest::add, b, w, c)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, c).transferToHost(DataTransferMode.FIRST_EXECUTION, b);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d).withPrintSchedule()) {
        List<String> ahead = plan.schedule().lines().toList();   // planned, nothing run
        assertArrayEquals(new float[3], c, d.id());
        List<String> first = schedules(MultiDeviceTest.printed(plan::execute), d);
        assertEquals(first.subList(1, first.size()), ahead.stream().map(l -> l.replace(d.id() + "  ", d.id() + "  schedule"))
            .map(l -> l.substring(d.id().length() + 2)).toList(), d.id() + ": plan.schedule() is what the first execution ran");
        assertEquals(List.of(
            "schedule  of the first execution: 10 steps",
            "  1  graph     s",
            "  2  copy in   a0 float[3] (every execution)",
            "  3  copy in   a1 float[3] (first execution)",
            "  4  copy in   a2 float[3] (used by s.scale)",
            "  5  launch    s.scale",
            "  6  copy in   a3 float[3] (used by s.add)",
            "  7  launch    s.add",
            "  8  copy out  a3 float[3] (every execution)",
            "  9  copy out  a2 float[3] (first execution)",
            " 10  wait      for the device"), strip(first), d.id());
        assertArrayEquals(new float[] {20, 60, 120}, c, d.id());
        a[0] = 2;
        List<String> second = schedules(MultiDeviceTest.printed(plan::execute), d);
        assertEquals(List.of(
            "schedule  of this execution: 6 steps",
            "  1  graph     s",
            "  2  copy in   a0 float[3] (every execution)",
            "  3  launch    s.scale",
            "  4  launch    s.add",
            "  5  copy out  a3 float[3] (every execution)",
            "  6  wait      for the device"), strip(second), d.id());
        assertArrayEquals(new float[] {30, 60, 120}, c, d.id());
        for (int i = 0; i < 3; i++) assertEquals(List.of(), schedules(MultiDeviceTest.printed(plan::execute), d), d.id() + ": the steady state plans nothing");
        w[1] = 0;
        plan.transferToDevice(w);
        List<String> changed = schedules(MultiDeviceTest.printed(plan::execute), d);
        assertEquals("  3  copy in   a1 float[3] (the host's changed)", strip(changed).get(3), d.id() + ": " + changed);
        assertArrayEquals(new float[] {30, 0, 120}, c, d.id());
        assertArrayEquals(new float[] {10, 40, 90}, b, d.id());   // copied back at the first execution only: its values then
      }
    }
  }

  /** The schedule lines of a printout, without their device. */
  private static List<String> schedules(List<String> lines, Device d) {
    return lines.stream().filter(l -> l.startsWith(d.id() + "  schedule")).map(l -> l.substring(d.id().length() + 2)).toList();
  }

  /** The lines with a launch's work sizes and a bounds report left out (they differ by device). */
  private static List<String> strip(List<String> lines) {
    return lines.stream().map(l -> l.startsWith("schedule  of") ? l : l.substring("schedule".length()))
        .map(l -> l.replace(", with its bounds report", "")).toList();
  }
}
