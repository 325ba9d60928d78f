// The warning a TornadoVM program gets when a @Reduce array continues from the previous execution's value.
package dev.loopjit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Devices;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.Parallel;
import dev.loopjit.api.Reduce;
import dev.loopjit.api.TaskGraph;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReductionWarningTest {
  static void sum(float[] a, @Reduce float[] total) {
    for (@Parallel int i = 0; i < a.length; i++) total[0] += a[i];
  }

  static void zero(float[] total) {
    for (@Parallel int i = 0; i < 1; i++) total[i] = 0f;
  }

  /** The warnings logged while {@code r} runs, with the once-per-JVM flag cleared first. */
  private static List<String> warnings(Runnable r) {
    List<String> got = new ArrayList<>();
    var saved = GraphRunner.warnings;
    GraphRunner.warnings = got::add;
    GraphRunner.WARNED_REDUCTION.set(false);
    try {
      r.run();
    } finally {
      GraphRunner.warnings = saved;
    }
    return got;
  }

  @Test
  void aReductionThatContinuesFromThePreviousExecutionIsToldOnce() {
    float[] a = {1f, 2f}, total = {0f};
    List<String> got = warnings(() -> {
      try (ExecutionPlan plan = new ExecutionPlan(new TaskGraph("w").transferToDevice(DataTransferMode.FIRST_EXECUTION, a, total)
          .task("sum", ReductionWarningTest::sum, a, total).transferToHost(DataTransferMode.EVERY_EXECUTION, total).snapshot())
          .withDevice(Devices.jvm())) {
        plan.execute();
        plan.execute();
        plan.execute();
      }
    });
    assertEquals(1, got.size(), got.toString());
    assertTrue(got.getFirst().startsWith("task w.sum: its @Reduce array total (float[1]) starts this execution from the value the previous one left"),
        got.getFirst());
    assertEquals(9f, total[0]);
  }

  @Test
  void noWarningWhereEachExecutionStartsItsReductionItself() {
    float[] a = {1f, 2f}, total = {0f}, again = {0f};
    List<String> got = warnings(() -> {
      // copied in every execution, zeroed by a task first, or reset by the setting: nothing continues
      try (ExecutionPlan p1 = new ExecutionPlan(new TaskGraph("c").transferToDevice(DataTransferMode.EVERY_EXECUTION, a, total)
              .task("sum", ReductionWarningTest::sum, a, total).transferToHost(DataTransferMode.EVERY_EXECUTION, total).snapshot()).withDevice(Devices.jvm());
          ExecutionPlan p2 = new ExecutionPlan(new TaskGraph("z").transferToDevice(DataTransferMode.FIRST_EXECUTION, a, again)
              .task("zero", ReductionWarningTest::zero, again).task("sum", ReductionWarningTest::sum, a, again).snapshot()).withDevice(Devices.jvm());
          ExecutionPlan p3 = new ExecutionPlan(new TaskGraph("t").transferToDevice(DataTransferMode.FIRST_EXECUTION, a, again)
              .task("sum", ReductionWarningTest::sum, a, again).snapshot()).withDevice(Devices.jvm()).withReduceReset()) {
        for (int i = 0; i < 3; i++) {
          p1.execute();
          p2.execute();
          p3.execute();
        }
      }
    });
    assertEquals(List.of(), got);
  }
}
