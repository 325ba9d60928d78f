// TornadoVM's persistOnDevice / consumeFromDevice: one graph leaves an array on the device, the next uses it there, on every device.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PersistTest {
  static void square(float[] x, float[] y) {
    for (@Parallel int i = 0; i < y.length; i++) y[i] = x[i] * x[i];
  }

  static void plusOne(float[] y, float[] z) {
    for (@Parallel int i = 0; i < z.length; i++) z[i] = y[i] + 1f;
  }

  @Test
  void aGraphUsesWhatAnotherLeftOnTheDevice() {
    for (Device d : Devices.all()) {
      float[] x = {1f, 2f, 3f}, y = new float[3], z = new float[3];
      TaskGraph a = new TaskGraph("a").transferToDevice(DataTransferMode.EVERY_EXECUTION, x).task("sq", PersistTest::square, x, y).persistOnDevice(y);
      TaskGraph b = new TaskGraph("b").consumeFromDevice("a", y).task("inc", PersistTest::plusOne, y, z)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, z);
      try (ExecutionPlan plan = new ExecutionPlan(a.snapshot(), b.snapshot()).withDevice(d)) {
        plan.withGraph(0).execute();
        plan.withGraph(1).execute();
        assertArrayEquals(new float[] {2f, 5f, 10f}, z, d.id());
        assertArrayEquals(new float[3], y, d.id() + ": y stayed on the device");
        x[0] = 4f;
        plan.withAllGraphs().execute();
        assertArrayEquals(new float[] {17f, 5f, 10f}, z, d.id());
      }
    }
  }

  @Test
  void aHandOverNoGraphMakesIsRefused() {
    float[] x = {1f}, y = new float[1], z = new float[1];
    ImmutableTaskGraph a = new TaskGraph("a").task("sq", PersistTest::square, x, y).snapshot();
    ImmutableTaskGraph b = new TaskGraph("b").consumeFromDevice("a", y).task("inc", PersistTest::plusOne, y, z).snapshot();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ExecutionPlan(a, b));
    assertEquals("graph \"b\" consumes a float[] from the device that graph \"a\" does not persist (persistOnDevice)", e.getMessage());
    ImmutableTaskGraph c = new TaskGraph("c").consumeFromDevice("q", y).task("inc", PersistTest::plusOne, y, z).snapshot();
    e = assertThrows(IllegalArgumentException.class, () -> new ExecutionPlan(a, c));
    assertEquals("graph \"c\" consumes a float[] from the device as graph \"q\" left it, but this plan has no graph \"q\"", e.getMessage());
    ImmutableTaskGraph d = new TaskGraph("d").consumeFromDevice(y).task("inc", PersistTest::plusOne, y, z).snapshot();
    e = assertThrows(IllegalArgumentException.class, () -> new ExecutionPlan(a, d));
    assertEquals("graph \"d\" consumes a float[] from the device that no graph of this plan persists (persistOnDevice)", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> new TaskGraph("e").persistOnDevice("not an array"));
    assertEquals("graph \"e\": persistOnDevice argument 0 is a java.lang.String; arrays move between host and device"
        + " (primitive arrays and dev.loopjit.types arrays), values are passed by the task", e.getMessage());
  }
}
