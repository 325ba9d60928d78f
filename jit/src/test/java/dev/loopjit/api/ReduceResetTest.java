// TornadoVM's reductions as a setting: each @Reduce element reset to its neutral element before every execution, on every device.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loopjit.types.IntArray;
import org.junit.jupiter.api.Test;

public class ReduceResetTest {
  static void sum(float[] a, @Reduce float[] total) {
    for (@Parallel int i = 0; i < a.length; i++) total[0] += a[i];
  }

  static void max(IntArray x, @Reduce IntArray m) {
    for (@Parallel int i = 0; i < x.getSize(); i++) m.set(0, Math.max(m.get(0), x.get(i)));
  }

  /** TornadoVM's way of giving a reduction its start inside the kernel: set before the loop, after the reset. */
  static void sumFromOne(float[] a, @Reduce float[] total) {
    total[0] = 1f;
    for (@Parallel int i = 0; i < a.length; i++) total[0] += a[i];
  }

  /** Per device: three executions, the results after each; {@code reset}: TornadoVM's reductions. */
  static float[][] run(Device d, boolean reset) {
    int n = 300;
    float[] a = new float[n], total = {5f}, fromOne = {7f};
    IntArray x = new IntArray(n), m = IntArray.fromElements(1000);
    for (int i = 0; i < n; i++) {
      a[i] = i % 7;   // small integers: every order of the additions gives the same float
      x.set(i, (i * 37) % 211 - 50);
    }
    TaskGraph g = new TaskGraph("r").transferToDevice(DataTransferMode.FIRST_EXECUTION, a, total, fromOne, x, m)
        .task("sum", ReduceResetTest::sum, a, total)
        .task("max", ReduceResetTest::max, x, m)
        .task("one", ReduceResetTest::sumFromOne, a, fromOne)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, total, m, fromOne);
    float[][] out = new float[3][];
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d)) {
      if (reset) plan.withReduceReset();
      for (int run = 0; run < 3; run++) {
        plan.execute();
        out[run] = new float[] {total[0], m.get(0), fromOne[0]};
      }
    }
    return out;
  }

  /** Both behaviours on every device of this run. */
  public static void checkEveryDevice() {
    float s = 0;
    for (int i = 0; i < 300; i++) s += i % 7;
    int max = Integer.MIN_VALUE;
    for (int i = 0; i < 300; i++) max = Math.max(max, (i * 37) % 211 - 50);
    for (Device d : Devices.all()) {
      float[][] java = run(d, false), tornado = run(d, true);
      for (int run = 0; run < 3; run++) {
        assertArrayEquals(new float[] {5f + (run + 1) * s, 1000f, 1f + s}, java[run], d.id() + ", Java's reductions, execution " + (run + 1));
        assertArrayEquals(new float[] {s, max, 1f + s}, tornado[run], d.id() + ", TornadoVM's reductions, execution " + (run + 1));
      }
    }
  }

  @Test
  void aResetReductionStartsFromTheNeutralElementOnEveryDevice() {
    checkEveryDevice();
  }

  @Test
  void theSettingIsThePlansOwn() {
    float[] a = {1f, 2f}, total = {10f};
    TaskGraph g = new TaskGraph("s").transferToDevice(DataTransferMode.EVERY_EXECUTION, a, total).task("sum", ReduceResetTest::sum, a, total)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, total);
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(Devices.jvm())) {
      plan.withReduceReset().execute();
      assertEquals(3f, total[0]);
      total[0] = 10f;
      plan.withoutReduceReset().execute();
      assertEquals(13f, total[0]);
    }
  }
}
