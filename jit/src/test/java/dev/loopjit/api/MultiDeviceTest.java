// One plan over several devices: every pair of this machine's devices, in order and concurrently, equal to the jvm alone.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

public class MultiDeviceTest {
  static void scale(float[] a, float s, float[] b) {
    for (@Parallel int i = 0; i < b.length; i++) b[i] = a[i] * s;
  }

  static void add(float[] b, float[] c, float[] d) {
    for (@Parallel int i = 0; i < d.length; i++) d[i] = b[i] + c[i];
  }

  static void square(float[] d) {
    for (@Parallel int i = 0; i < d.length; i++) d[i] = d[i] * d[i] - 1f;
  }

  static void shift(float[] e, float[] f) {
    for (@Parallel int i = 0; i < f.length; i++) f[i] = e[i] * 0.5f + 1f;
  }

  static void sum(float[] d, @Reduce float[] total) {
    for (@Parallel int i = 0; i < d.length; i++) total[0] += d[i];
  }

  /** Reads d[n] when b[0] is negative. */
  static void pick(float[] b, float[] d, float[] out) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = d[b[0] < 0 ? d.length : i];
  }

  /** The arrays of one run of the scenario. */
  public record Arrays5(float[] a, float[] c, float[] d, float[] e, float[] f, float[] total) {
    static Arrays5 fresh(int n) {
      float[] a = new float[n], c = new float[n], e = new float[n];
      for (int i = 0; i < n; i++) {
        a[i] = (i % 17) * 0.25f - 1f;
        c[i] = (i % 5) - 2f;
        e[i] = i * 0.125f;
      }
      return new Arrays5(a, c, new float[n], e, new float[n], new float[1]);
    }
  }

  /**
   * g: b = a × 3 (a copied in every execution), d = b + c (c once), d = d² − 1, f = e / 2 + 1
   * (independent of the others), total += Σ d; d back every execution, f under demand. Tasks
   * alternate between the plan's device and {@code other}; returns the arrays after three
   * executions, a changed on the host before each, f brought back after the last.
   */
  public static Arrays5 run(Device device, Device other, boolean concurrent, boolean printSchedule) {
    int n = 1000;
    Arrays5 x = Arrays5.fresh(n);
    float[] b = new float[n];
    TaskGraph g = new TaskGraph("g")
        .transferToDevice(DataTransferMode.EVERY_EXECUTION, x.a())
        .transferToDevice(DataTransferMode.FIRST_EXECUTION, x.c(), x.e(), x.total())
        .task("scale", MultiDeviceTest::scale, x.a(), 3f, b)
        .task("add", MultiDeviceTest::add, b, x.c(), x.d())
        .task("shift", MultiDeviceTest::shift, x.e(), x.f())
        .task("square", MultiDeviceTest::square, x.d())
        .task("sum", MultiDeviceTest::sum, x.d(), x.total())
        .transferToHost(DataTransferMode.EVERY_EXECUTION, x.d(), x.total())
        .transferToHost(DataTransferMode.UNDER_DEMAND, x.f());
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(device)) {
      if (other != null) plan.withDevice("g.add", other).withDevice("g.shift", other).withDevice("g.sum", other);
      if (concurrent) plan.withConcurrentDevices();
      if (printSchedule) plan.withPrintSchedule();
      ExecutionResult r = null;
      for (int run = 0; run < 3; run++) {
        x.a()[run] += 10f;
        r = plan.execute();
      }
      r.transferToHost(x.f());
    }
    return x;
  }

  private static void assertSame(Arrays5 want, Arrays5 got, String what) {
    assertArrayEquals(want.d(), got.d(), what + ": d");
    assertArrayEquals(want.f(), got.f(), what + ": f");
    assertArrayEquals(want.total(), got.total(), what + ": total");
  }

  @Test
  void everyPairOfDevicesGivesTheJvmsResults() {
    checkEveryPair();
  }

  /** The scenario on every ordered pair of this run's devices, in order and concurrently, equal to the jvm alone. */
  public static void checkEveryPair() {
    Arrays5 want = run(Devices.jvm(), null, false, false);
    List<Device> all = Devices.all();
    int pairs = 0;
    for (Device d : all)
      for (Device o : all) {
        if (d.id().equals(o.id())) continue;
        assertSame(want, run(d, o, false, false), d.id() + " + " + o.id());
        assertSame(want, run(d, o, true, false), d.id() + " + " + o.id() + ", concurrently");
        pairs++;
      }
    assertTrue(pairs >= 2, "this machine has " + all.size() + " device(s)");
  }

  @Test
  void thePlanListsItsDevices() {
    float[] a = new float[4], b = new float[4];
    TaskGraph g = new TaskGraph("g").task("s", MultiDeviceTest::scale, a, 2f, b).task("t", MultiDeviceTest::scale, b, 2f, a);
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(Devices.jvm())) {
      plan.withDevice("g.t", Devices.get("jvm-mt"));
      assertEquals(List.of("jvm", "jvm-mt"), plan.devices().stream().map(Device::id).toList());
      assertEquals("jvm-mt", plan.device("g.t").id());
      assertEquals("jvm", plan.device("g.s").id());
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> plan.withDevice("g.u", Devices.jvm()));
      assertEquals("withDevice: no task \"g.u\" in this plan; its tasks are g.s, g.t", e.getMessage());
      plan.withDevice(Devices.jvm());   // every task: the single choices are forgotten
      assertEquals(List.of("jvm"), plan.devices().stream().map(Device::id).toList());
    }
  }

  @Test
  void tornadoVmsDevicePropertyPlacesATask() {
    float[] a = {1f, 2f}, b = new float[2];
    TaskGraph g = new TaskGraph("p").task("s", MultiDeviceTest::scale, a, 2f, b).task("t", MultiDeviceTest::scale, b, 2f, a)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, a);
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(Devices.jvm())) {
      System.setProperty("p.t.device", "jvm-mt");
      assertEquals("jvm-mt", plan.device("p.t").id());
      plan.execute();
      assertArrayEquals(new float[] {4f, 8f}, a);
      assertEquals("jvm", plan.withDevice("p.t", Devices.jvm()).device("p.t").id(), "the plan's own choice wins");
      System.setProperty("p.s.device", "0:0");
      assertEquals(Devices.best().id(), plan.device("p.s").id());
      System.setProperty("p.s.device", "9:0");
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> plan.device("p.s"));
      assertTrue(e.getMessage().startsWith("-Dp.s.device=9:0: no backend 9"), e.getMessage());
    } finally {
      System.clearProperty("p.t.device");
      System.clearProperty("p.s.device");
    }
  }

  @Test
  void tornadoVmsConcurrencyPropertyMakesPlansConcurrent() {
    float[] x = {1f, 2f}, y = new float[2], a = {1f, 2f}, b = new float[2];
    TaskGraph g = new TaskGraph("cp").task("slow", MultiDeviceTest::slow, x, y).task("fast", MultiDeviceTest::scale, a, 2f, b);
    System.setProperty("tornado.concurrent.devices", "True");
    try {
      List<String> lines = printed(() -> {
        try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(Devices.jvm()).withDevice("cp.fast", Devices.get("jvm-mt"))) {
          plan.withPrintSchedule().execute();
        }
      });
      assertTrue(first(lines, "jvm-mt  launch    cp.fast") < first(lines, "jvm  wait"), String.join("\n", lines));
    } finally {
      System.clearProperty("tornado.concurrent.devices");
    }
  }

  @Test
  void theScheduleNamesEachStepsDevice() {
    Arrays5[] got = new Arrays5[1];
    List<String> lines = printed(() -> got[0] = run(Devices.jvm(), Devices.get("jvm-mt"), false, true));
    assertSame(run(Devices.jvm(), null, false, false), got[0], "printed");
    // arrays named in order of first use: a0 = a, a1 = c, a2 = e, a3 = total, a4 = b, a5 = d, a6 = f
    String all = String.join("\n", lines);
    int scale = first(lines, "jvm  launch    g.scale"), bMoves = first(lines, "host  a4 float[1000] moves from jvm to jvm-mt"),
        add = first(lines, "jvm-mt  launch    g.add"), dMoves = first(lines, "host  a5 float[1000] moves from jvm-mt to jvm"),
        dOut = first(lines, "jvm-mt  copy out  a5 float[1000]"), square = first(lines, "jvm  launch    g.square");
    assertTrue(0 <= scale && scale < bMoves && bMoves < add && add < dMoves && dMoves < dOut && dOut < square, all);
    // the plan over the devices, printed before anything ran: its moves and runs in order
    int plan = first(lines, "host  plan      of the first execution"), plannedMove = first(lines, "host  plan  2  move      a4 float[1000] from jvm to jvm-mt");
    assertTrue(0 <= plan && plan < plannedMove && plannedMove < scale, all);
    assertTrue(lines.get(plan + 1).startsWith("host  plan  1  run       g [scale] on jvm"), all);
    // three executions: each device plans its two segments' schedules for the first, those whose residency differs for the
    // second (jvm's square segment finds what it had: its schedule is kept), and none for the third (steady state)
    assertEquals(3, lines.stream().filter(l -> l.startsWith("jvm  schedule  of")).count(), all);
    assertEquals(4, lines.stream().filter(l -> l.startsWith("jvm-mt  schedule  of")).count(), all);
    assertEquals(2, lines.stream().filter(l -> l.startsWith("host  plan      of")).count(), all);
  }

  @Test
  void scheduleIsPlannedBeforeAnythingRuns() {
    float[] a = {1, 2}, b = new float[2], c = new float[2];
    TaskGraph g = new TaskGraph("p").transferToDevice(DataTransferMode.EVERY_EXECUTION, a).task("scale", MultiDeviceTest::scale, a, 2f, b)
        .task("again", MultiDeviceTest::scale, b, 3f, c).transferToHost(DataTransferMode.EVERY_EXECUTION, c);
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(Devices.jvm()).withDevice("p.again", Devices.get("jvm-mt"))) {
      List<String> lines = plan.schedule().lines().toList();
      assertArrayEquals(new float[2], c, "nothing ran");
      String all = String.join("\n", lines);
      assertEquals("host  plan  2  move      a1 float[2] from jvm to jvm-mt through the host", lines.get(2), all);
      assertEquals("host  plan  4  copy out  a2 float[2] from jvm-mt", lines.get(4), all);
      assertTrue(first(lines, "jvm    4  launch    p.scale") > 4 && first(lines, "jvm-mt    4  launch    p.again") > first(lines, "jvm    4  launch"), all);
      plan.execute();
      assertArrayEquals(new float[] {6, 12}, c);
    }
  }

  /** A tenth of a second or more on one core: each element a long recurrence. */
  static void slow(float[] x, float[] y) {
    for (@Parallel int i = 0; i < y.length; i++) {
      float v = x[i];
      for (int k = 0; k < 40_000_000; k++) v = v * 0.999f + 0.5f;
      y[i] = v;
    }
  }

  @Test
  void concurrentDevicesRunIndependentTasksAtTheSameTime() {
    float[] x = {1f, 2f}, y = new float[2], a = {1f, 2f}, b = new float[2];
    TaskGraph g = new TaskGraph("c").task("slow", MultiDeviceTest::slow, x, y).task("fast", MultiDeviceTest::scale, a, 2f, b)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, y, b);
    for (boolean concurrent : new boolean[] {false, true}) {
      List<String> lines = printed(() -> {
        try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(Devices.jvm()).withDevice("c.fast", Devices.get("jvm-mt"))) {
          if (concurrent) plan.withConcurrentDevices();
          plan.withPrintSchedule().execute();
        }
      });
      int fast = first(lines, "jvm-mt  launch    c.fast"), slowEnds = first(lines, "jvm  wait");
      assertTrue(fast >= 0 && slowEnds >= 0, String.join("\n", lines));
      assertEquals(concurrent, fast < slowEnds, (concurrent ? "concurrent" : "in order") + ":\n" + String.join("\n", lines));
      assertArrayEquals(new float[] {2f, 4f}, b);
    }
  }

  /** What {@code r} prints to standard output, by line (ScheduleTest's too). */
  static List<String> printed(Runnable r) {
    PrintStream saved = System.out;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
      r.run();
    } finally {
      System.setOut(saved);
    }
    return bytes.toString(StandardCharsets.UTF_8).lines().toList();
  }

  private static int first(List<String> lines, String prefix) {
    for (int i = 0; i < lines.size(); i++) if (lines.get(i).startsWith(prefix)) return i;
    return -1;
  }

  @Test
  void aTaskThatDoesNotCompileOnItsDeviceStopsThePlanBeforeAnythingRuns() {
    float[] a = {1f, 2f}, b = new float[2], out = {7f, 7f};
    TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a)
        .task("scale", MultiDeviceTest::scale, a, 2f, b)
        .task("early", MultiDeviceTest::earlyReturn, b, out)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, b, out);
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(Devices.get("jvm-mt")).withDevice("g.early", Devices.jvm())) {
      KernelCompilationException e = assertThrows(KernelCompilationException.class, plan::execute);
      assertTrue(e.getMessage().contains("earlyReturn"), e.getMessage());
      assertArrayEquals(new float[] {0f, 0f}, b, "scale ran on jvm-mt before early was compiled on the jvm");
      assertArrayEquals(new float[] {7f, 7f}, out);
    }
  }

  static void earlyReturn(float[] b, float[] out) {
    for (@Parallel int i = 0; i < out.length; i++) {
      if (b[i] > 100f) return;
      out[i] = b[i];
    }
  }

  @Test
  void aBadIndexOnTheSecondDeviceIsReportedAndTheNextExecutionStartsAfresh() {
    checkBadIndexOnEveryOtherDevice();
  }

  /** A task on each device but the jvm reads out of bounds after one on the jvm wrote its input: reported, nothing copied back, the next execution right. */
  public static void checkBadIndexOnEveryOtherDevice() {
    float[] a = {1f, 2f, 3f}, b = new float[3], d = {5f, 6f, 7f}, out = new float[3];
    TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a)
        .transferToDevice(DataTransferMode.FIRST_EXECUTION, d)
        .task("scale", MultiDeviceTest::scale, a, 1f, b)
        .task("pick", MultiDeviceTest::pick, b, d, out)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, out);
    for (Device other : Devices.all()) {
      if (other.id().equals("jvm")) continue;
      Arrays.fill(out, 0f);
      a[0] = 1f;
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(Devices.jvm()).withDevice("g.pick", other)) {
        plan.execute();
        assertArrayEquals(new float[] {5f, 6f, 7f}, out, other.id());
        a[0] = -1f;
        out[1] = 42f;
        KernelIndexOutOfBoundsException e = assertThrows(KernelIndexOutOfBoundsException.class, plan::execute, other.id());
        assertTrue(e.getMessage().contains("pick"), e.getMessage());
        assertEquals(42f, out[1], "no copy back after a bad index");
        a[0] = 2f;
        plan.execute();
        assertArrayEquals(new float[] {5f, 6f, 7f}, out, other.id() + ", after the bad index");
      }
    }
  }
}
