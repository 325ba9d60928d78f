// GraphCheck: a whole graph on every device against the jvm, intermediates included; bad suppliers are caught.
package dev.loopjit.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Devices;
import dev.loopjit.api.Parallel;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.types.FloatArray;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class GraphCheckTest {
  static void scale(FloatArray x, FloatArray tmp, float a) {
    for (@Parallel int i = 0; i < x.getSize(); i++) tmp.set(i, a * x.get(i));
  }

  static void addTo(FloatArray tmp, FloatArray y) {
    for (@Parallel int i = 0; i < y.getSize(); i++) y.set(i, y.get(i) + tmp.get(i));
  }

  /** y += 3x through an intermediate the graph never copies back. */
  static GraphCheck.Run axpy(long seed) {
    Inputs in = new Inputs(seed);
    FloatArray x = in.floatArray(1000, -1, 1), y = in.floatArray(1000, -1, 1), tmp = new FloatArray(1000);
    TaskGraph g = new TaskGraph("axpy").transferToDevice(DataTransferMode.EVERY_EXECUTION, x, y)
        .task("scale", GraphCheckTest::scale, x, tmp, 3f).task("add", GraphCheckTest::addTo, tmp, y)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, y);
    return GraphCheck.graph(g).compare("y", y).compare("tmp", tmp);
  }

  @Test
  void aGraphMatchesTheJvmOnEveryDevice() {
    KernelCheck.Result r = GraphCheck.of("axpy", () -> axpy(4)).run();
    assertEquals(Devices.all().size(), r.devices().size(), r.devices().toString());
  }

  @Test
  void anUnseededSupplierIsCaught() {
    AtomicInteger calls = new AtomicInteger();
    if (Devices.all().size() < 2) return;   // the second call is the first device's
    AssertionError e = assertThrows(AssertionError.class, () -> GraphCheck.of("axpy", () -> axpy(calls.incrementAndGet())).run());
    assertTrue(e.getMessage().contains("seed"), e.getMessage());
  }

  @Test
  void namingMistakesAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> GraphCheck.graph(new TaskGraph("g")).compare("x", "not an array"));
    FloatArray a = new FloatArray(1);
    assertThrows(IllegalArgumentException.class, () -> GraphCheck.graph(new TaskGraph("g")).compare("a", a).compare("a", a));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> GraphCheck.of("empty", () -> GraphCheck.graph(new TaskGraph("g"))).run());
    assertTrue(e.getMessage().contains("name at least one array"), e.getMessage());
  }

  @Test
  void anArrayThePlanDoesNotHoldFailsNamingTheDevice() {
    AssertionError e = assertThrows(AssertionError.class, () -> GraphCheck.of("stray", () -> {
      FloatArray x = new FloatArray(4), y = new FloatArray(4), stray = new FloatArray(4);
      return GraphCheck.graph(new TaskGraph("g").task("add", GraphCheckTest::addTo, x, y)).compare("stray", stray);
    }).run());
    assertTrue(e.getMessage().contains("stray failed on jvm"), e.getMessage());
  }
}
