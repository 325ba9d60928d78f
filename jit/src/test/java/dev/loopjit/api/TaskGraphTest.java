// TaskGraph's checks when a graph is built: arguments against parameters, names, transfers; nothing here runs a device.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.spi.TaskSpec;
import dev.loopjit.types.FloatArray;
import java.util.List;
import org.junit.jupiter.api.Test;

class TaskGraphTest {

  static void scale(FloatArray x, float factor) {
    for (@Parallel int i = 0; i < x.getSize(); i++) x.set(i, x.get(i) * factor);
  }

  static void labelled(String label, int[] a) {
    for (@Parallel int i = 0; i < a.length; i++) a[i] = label.length();
  }

  static void copy(int[] from, int[] to) {
    for (@Parallel int i = 0; i < to.length; i++) to[i] = from[i];
  }

  private static void assertMentions(IllegalArgumentException e, String... words) {
    for (String w : words) assertTrue(e.getMessage().contains(w), "message should mention \"" + w + "\": " + e.getMessage());
  }

  @Test
  void wrongArgumentCountNamesTheTask() {
    // TaskN fixes the count at compile time; TaskSpec.of, which task() calls, still checks it for callers that pass Serializable.
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> TaskSpec.of("g", "t", (Task2<int[], int[]>) TaskGraphTest::copy, new Object[] {new int[1]}));
    assertMentions(e, "\"g.t\"", "takes 2 argument(s), 1 given");
  }

  @Test
  @SuppressWarnings({"unchecked", "rawtypes"})
  void wrongArgumentTypeNamesTaskAndParameter() {
    Task2 raw = (Task2<FloatArray, Float>) TaskGraphTest::scale;
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new TaskGraph("g").task("t", raw, new int[3], 2f));
    assertMentions(e, "\"g.t\"", "parameter 0", "x", "FloatArray", "int[]");
    e = assertThrows(IllegalArgumentException.class, () -> new TaskGraph("g").task("t", raw, new FloatArray(3), 2.0));
    assertMentions(e, "\"g.t\"", "parameter 1", "factor", "Double");
    e = assertThrows(IllegalArgumentException.class, () -> new TaskGraph("g").task("t", raw, null, 2f));
    assertMentions(e, "parameter 0", "null");
  }

  @Test
  @SuppressWarnings({"unchecked", "rawtypes"})
  void anIntegerGivenToAFloatParameterIsWidened() {
    Task2 raw = (Task2<FloatArray, Float>) TaskGraphTest::scale;
    FloatArray x = FloatArray.fromElements(1f, 2f);
    TaskGraph g = new TaskGraph("g").task("t", raw, x, 3).transferToHost(DataTransferMode.EVERY_EXECUTION, x);
    assertEquals(Float.valueOf(3f), ((dev.loopjit.runtime.GraphSpec) g.snapshot().graph()).tasks().getFirst().args().get(1));
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
      plan.withDevice(Devices.jvm()).execute();
    }
    assertEquals(6f, x.get(1));
  }

  @Test
  void aStringParameterIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new TaskGraph("g").task("t", TaskGraphTest::labelled, "label", new int[1]));
    assertMentions(e, "\"g.t\"", "parameter 0", "label", "java.lang.String", "not a kernel parameter type");
  }

  @Test
  void duplicateTaskIdsAreRefused() {
    int[] a = new int[2], b = new int[2];
    TaskGraph g = new TaskGraph("g").task("t", TaskGraphTest::copy, a, b);
    IllegalArgumentException e = assertThrows(TornadoTaskRuntimeException.class, () -> g.task("t", TaskGraphTest::copy, b, a));
    assertMentions(e, "\"g\"", "already has a task \"t\"");
  }

  @Test
  void namesMustBeNonEmptyAndDotFree() {
    assertThrows(IllegalArgumentException.class, () -> new TaskGraph("a.b"));
    assertThrows(IllegalArgumentException.class, () -> new TaskGraph(""));
    assertThrows(IllegalArgumentException.class, () -> new TaskGraph("g").task("t.u", TaskGraphTest::copy, new int[1], new int[1]));
  }

  @Test
  void onlyKernelArraysMove() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, "not an array"));
    assertMentions(e, "\"g\"", "java.lang.String");
    assertThrows(IllegalArgumentException.class, () -> new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, (Object) new Integer[2]));
    e = assertThrows(IllegalArgumentException.class, () -> new TaskGraph("g").transferToDevice(DataTransferMode.UNDER_DEMAND, new int[1]));
    assertMentions(e, "UNDER_DEMAND");
  }

  /**
   * TornadoVM programs list scalars and the KernelContext among the data to move: they are values the
   * task passes, so nothing moves. A value cannot come back to the host: transferToHost refuses it, as TornadoVM does.
   */
  @Test
  void scalarsAndTheContextInATransferAreValuesNotErrors() {
    FloatArray x = FloatArray.fromElements(1f, 2f, 3f);
    KernelContext context = new KernelContext();
    TornadoRuntimeException e = assertThrows(TornadoRuntimeException.class,
        () -> new TaskGraph("g").transferToHost(DataTransferMode.EVERY_EXECUTION, x, 7L));
    assertEquals("graph \"g\": transferToHost argument 1 is a Long (7), a value: a kernel cannot change it for the host, as a Java method cannot "
        + "change its caller's variable; return results in an array (e.g. an IntArray of 1)", e.getMessage());
    TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, x, 3, 2.5f, context)
        .task("t", TaskGraphTest::scale, x, 2f).transferToHost(DataTransferMode.EVERY_EXECUTION, x, context);
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
      plan.withDevice(Devices.jvm()).execute();
    }
    assertEquals(List.of(2f, 4f, 6f), List.of(x.get(0), x.get(1), x.get(2)));
    assertEquals(1, ((dev.loopjit.runtime.GraphSpec) g.snapshot().graph()).toDevice().size(), "only the array moves");
  }

  @Test
  void aNullArrayListOrModeNamesTheGraph() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, (Object[]) null));
    assertMentions(e, "\"g\"", "transferToDevice", "null array list");
    e = assertThrows(IllegalArgumentException.class, () -> new TaskGraph("g").transferToHost(DataTransferMode.EVERY_EXECUTION, (Object[]) null));
    assertMentions(e, "\"g\"", "transferToHost", "null array list");
    e = assertThrows(IllegalArgumentException.class, () -> new TaskGraph("g").transferToDevice(null, new int[1]));
    assertMentions(e, "\"g\"", "DataTransferMode");
    e = assertThrows(IllegalArgumentException.class, () -> new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, (Object) null));
    assertMentions(e, "\"g\"", "argument 0 is null");
  }

  @Test
  void unboundAndCapturingMethodReferencesAreRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new TaskGraph("g").task("t", (Task1<String>) String::length, "x"));
    assertMentions(e, "\"g.t\"", "instance method with no object", "this::length");
    int k = 3;
    e = assertThrows(IllegalArgumentException.class, () -> new TaskGraph("g").task("t", (Task1<int[]>) a -> a[0] = k, new int[1]));
    assertMentions(e, "\"g.t\"", "captures");
  }

  @Test
  void aSnapshotIsFrozen() {
    TaskGraph g = new TaskGraph("g").task("first", TaskGraphTest::copy, new int[1], new int[1]);
    ImmutableTaskGraph frozen = g.snapshot();
    g.task("second", TaskGraphTest::copy, new int[1], new int[1]);
    assertEquals(List.of("first"), ((dev.loopjit.runtime.GraphSpec) frozen.graph()).tasks().stream().map(TaskSpec::id).toList());
    assertEquals("g", frozen.getTaskGraphName());
  }
}
