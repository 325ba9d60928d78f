// Bounds checks: an out-of-bounds index ends the execution with KernelIndexOutOfBoundsException on every device, as on the jvm.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Each kernel indexes out of bounds in exactly one work-item (at an index the test chooses through
 * a one-element array, so that the same plan can then run in bounds); every device must throw what
 * the jvm throws — the same array, index, length and source line — leave the host arrays alone, and
 * run correctly afterwards from the host arrays.
 */
class BoundsCheckTest {
  static final int N = 16;

  static void readAt(float[] a, float[] out, int[] bad) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = a[i == 3 ? bad[0] : i] * 2f;
  }

  static void writeAt(float[] a, float[] out, int[] bad) {
    for (@Parallel int i = 0; i < a.length; i++) out[i == 5 ? bad[0] : i] = a[i] + 1f;
  }

  static void grid2d(FloatArray m, IntArray bad, int rows, int cols) {
    for (@Parallel int i = 0; i < rows; i++)
      for (@Parallel int j = 0; j < cols; j++) {
        int k = i * cols + j;
        m.set(i == 1 && j == 2 ? bad.get(0) : k, m.get(k) + 1f);
      }
  }

  static float element(float[] a, int k) {
    return a[k];
  }

  static void viaHelper(float[] a, float[] out, int[] bad) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = element(a, i == 7 ? bad[0] : i) - 1f;
  }

  static void context(KernelContext c, int[] out, int[] bad) {
    int i = c.globalIdx;
    out[i == 2 ? bad[0] : i] = i * 3;
  }

  /** A conditional read: only the work-items that take the branch index (Java evaluates one side of ?:). */
  static void conditional(float[] a, float[] out, int[] bad) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = i == 9 ? a[bad[0]] : a[i];
  }

  /** A private array. */
  static void privateArray(int[] out, int[] bad) {
    for (@Parallel int i = 0; i < out.length; i++) {
      int[] t = new int[4];
      for (int k = 0; k < t.length; k++) t[k] = i + k;
      out[i] = t[i == 1 ? bad[0] : i & 3];
    }
  }

  private record Failure(String array, int index, int length, String source) {
    static Failure of(KernelIndexOutOfBoundsException e) {
      return new Failure(e.array(), e.index(), e.length(), e.source());
    }
  }

  /** One case: its graph, the arrays it writes (unchanged by a failure), and the bad index holder. */
  private record Case(TaskGraph graph, List<Object> outputs, int[] bad, Runnable inBounds, Supplier<Object> expected) {}

  private static final int[] BAD = {-1, N, N + 1, 1 << 30, Integer.MIN_VALUE, Integer.MAX_VALUE};

  @Test
  void outOfBoundsReadsAndWritesThrowWhatTheJvmThrowsOnEveryDevice() {
    for (int bad : BAD) {
      check("readAt", bad, d -> {
        float[] a = FloatArrays.ramp(N), out = new float[N];
        int[] b = {bad};
        TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a, b).task("t", BoundsCheckTest::readAt, a, out, b)
            .transferToHost(DataTransferMode.EVERY_EXECUTION, out);
        return new Case(g, List.of(out), b, () -> b[0] = 0, () -> {
          float[] e = new float[N];
          readAt(a, e, new int[] {0});
          return e;
        });
      });
      check("writeAt", bad, d -> {
        float[] a = FloatArrays.ramp(N), out = FloatArrays.ramp(N);
        int[] b = {bad};
        TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a, b, out).task("t", BoundsCheckTest::writeAt, a, out, b)
            .transferToHost(DataTransferMode.EVERY_EXECUTION, out);
        return new Case(g, List.of(out), b, () -> b[0] = 5, () -> {
          float[] e = FloatArrays.ramp(N);
          writeAt(a, e, new int[] {5});
          return e;
        });
      });
    }
  }

  @Test
  void twoDimensionsHelpersContextsConditionalsAndPrivateArrays() {
    int bad = N * N + 3;
    check("grid2d", bad, d -> {
      FloatArray m = new FloatArray(N * N);
      IntArray b = new IntArray(1);
      b.set(0, bad);
      TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, m, b).task("t", BoundsCheckTest::grid2d, m, b, N, N)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, m);
      int[] holder = {bad};
      return new Case(g, List.of(m), holder, () -> b.set(0, 1 * N + 2), () -> {
        float[] e = new float[N * N];
        for (int k = 0; k < e.length; k++) e[k] = 1f;
        return e;
      });
    });
    check("viaHelper", -7, d -> {
      float[] a = FloatArrays.ramp(N), out = new float[N];
      int[] b = {-7};
      TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a, b).task("t", BoundsCheckTest::viaHelper, a, out, b)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, out);
      return new Case(g, List.of(out), b, () -> b[0] = 7, () -> {
        float[] e = new float[N];
        viaHelper(a, e, new int[] {7});
        return e;
      });
    });
    check("context", N, d -> {
      int[] out = new int[N], b = {N};
      TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, b).task("t", BoundsCheckTest::context, new KernelContext(), out, b)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, out);
      return new Case(g, List.of(out), b, () -> b[0] = 2, () -> {
        int[] e = new int[N];
        for (int i = 0; i < N; i++) e[i] = i * 3;
        return e;
      });
    });
    check("conditional", N + 100, d -> {
      float[] a = FloatArrays.ramp(N), out = new float[N];
      int[] b = {N + 100};
      TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a, b).task("t", BoundsCheckTest::conditional, a, out, b)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, out);
      return new Case(g, List.of(out), b, () -> b[0] = 0, () -> {
        float[] e = new float[N];
        conditional(a, e, new int[] {0});
        return e;
      });
    });
    check("privateArray", 4, d -> {
      int[] out = new int[N], b = {4};
      TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, b).task("t", BoundsCheckTest::privateArray, out, b)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, out);
      return new Case(g, List.of(out), b, () -> b[0] = 1, () -> {
        int[] e = new int[N];
        privateArray(e, new int[] {1});
        return e;
      });
    });
  }

  /**
   * Runs the case on the jvm, then on every device: the same failure, outputs unchanged; then, with
   * the index made good, the same plan gives the Java result.
   */
  private static void check(String name, int bad, java.util.function.Function<Device, Case> make) {
    Failure reference = null;
    List<String> seen = new ArrayList<>();
    for (Device d : devicesJvmFirst()) {
      Case c = make.apply(d);
      List<Object> before = c.outputs().stream().map(BoundsCheckTest::copy).toList();
      try (ExecutionPlan plan = new ExecutionPlan(c.graph().snapshot()).withDevice(d)) {
        if (name.equals("context")) plan.withGridScheduler(new GridScheduler("g.t", new WorkerGrid1D(N)));
        KernelIndexOutOfBoundsException e = assertThrows(KernelIndexOutOfBoundsException.class, plan::execute, name + " " + bad + " on " + d.id());
        Failure f = Failure.of(e);
        String what = name + " (index " + bad + ") on " + d.id() + ": " + e.getMessage();
        assertEquals(bad, e.index(), what);
        assertNotNull(e.array(), what);
        assertTrue(e.getMessage().contains("Index " + bad + " out of bounds for length " + e.length()), what);
        assertTrue(e.getMessage().contains(e.array()) && e.getMessage().contains("g.t") && e.getMessage().contains(d.id()), what);
        assertTrue(e.source() != null && e.source().contains("BoundsCheckTest.java:"), what);
        assertEquals(d.id(), e.device());
        if (reference == null) reference = f;
        else assertEquals(reference, f, what + " (the jvm: " + reference + ")");
        for (int k = 0; k < before.size(); k++) assertArrayEquals(before.get(k), c.outputs().get(k), what + ": host array " + k + " unchanged");
        c.inBounds().run();
        plan.execute();   // the plan starts again from the host arrays
        assertArrayEquals(c.expected().get(), c.outputs().get(0), what + ": the same plan afterwards, in bounds");
        seen.add(d.id());
      }
    }
    assertTrue(seen.size() == Devices.all().size(), "ran on " + seen);
  }

  private static List<Device> devicesJvmFirst() {
    List<Device> l = new ArrayList<>();
    l.add(Devices.jvm());
    for (Device d : Devices.all()) if (!d.equals(Devices.jvm())) l.add(d);
    return l;
  }

  private static Object copy(Object o) {
    return switch (o) {
      case float[] f -> f.clone();
      case int[] i -> i.clone();
      case FloatArray f -> f.toArray();
      default -> throw new IllegalArgumentException(String.valueOf(o));
    };
  }

  private static void assertArrayEquals(Object expected, Object actual, String what) {
    Object a = actual instanceof FloatArray f ? f.toArray() : actual;
    switch (expected) {
      case float[] e -> org.junit.jupiter.api.Assertions.assertArrayEquals(e, (float[]) a, what);
      case int[] e -> org.junit.jupiter.api.Assertions.assertArrayEquals(e, (int[]) a, what);
      default -> throw new IllegalArgumentException(String.valueOf(expected));
    }
  }

  @Test
  void inBoundsKernelsAndTheSettingThatTurnsChecksOff() {
    for (Device d : Devices.all()) {
      for (String on : new String[] {"true", "false"}) {
        float[] a = FloatArrays.ramp(N), out = new float[N];
        int[] b = {0};
        try (ExecutionPlan plan = new ExecutionPlan(new TaskGraph("g").task("t", BoundsCheckTest::readAt, a, out, b)
            .transferToHost(DataTransferMode.EVERY_EXECUTION, out).snapshot()).withDevice(d).withSetting("boundsChecks", on)) {
          plan.execute();
          float[] e = new float[N];
          readAt(a, e, b);
          org.junit.jupiter.api.Assertions.assertArrayEquals(e, out, d.id() + " boundsChecks=" + on);
        }
      }
    }
    Task3<float[], float[], int[]> k = BoundsCheckTest::readAt;
    assertTrue(KernelCode.of(k, "opencl").text().contains("bounds_report"));
  }

  @Test
  void aCountedLoopAndTheParallelIndexOfTheSameArrayNeedNoCheck() {
    Task2<float[], float[]> k = BoundsCheckTest::sumRows;
    for (String target : new String[] {"opencl", "ptx", "ir"}) {
      String code = KernelCode.of(k, target).text();
      assertFalse(code.contains("bounds_report"), code);
    }
  }

  static void add(float[] a, float[] b, float[] c) {
    for (@Parallel int i = 0; i < c.length; i++) c[i] = a[i] + b[i];
  }

  /**
   * Vector add's a[i] and b[i] are checked only where the host cannot rule them out: with inputs as
   * long as c the plan runs the unchecked kernel (and in place on a CPU); with a shorter input,
   * the checked one, and the work-items past its end fail (any one of them is reported).
   */
  @Test
  void vectorAddIsUncheckedWhenTheHostKnowsItsInputsAreLongEnough() {
    for (Device d : Devices.all()) {
      float[] a = FloatArrays.ramp(N - 3), b = FloatArrays.ramp(N), c = new float[N];
      try (ExecutionPlan plan = new ExecutionPlan(new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a, b)
          .task("t", BoundsCheckTest::add, a, b, c).transferToHost(DataTransferMode.EVERY_EXECUTION, c).snapshot()).withDevice(d)) {
        KernelIndexOutOfBoundsException e = assertThrows(KernelIndexOutOfBoundsException.class, plan::execute, d.id());
        assertEquals("a", e.array(), e.getMessage());
        assertEquals(N - 3, e.length(), e.getMessage());
        assertTrue(e.index() >= N - 3 && e.index() < N, e.getMessage());
        org.junit.jupiter.api.Assertions.assertArrayEquals(new float[N], c, d.id() + ": c unchanged");
      }
      float[] a2 = FloatArrays.ramp(N);
      try (ExecutionPlan plan = new ExecutionPlan(new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a2, b)
          .task("t", BoundsCheckTest::add, a2, b, c).transferToHost(DataTransferMode.EVERY_EXECUTION, c).snapshot()).withDevice(d)) {
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        java.io.PrintStream out = System.out;
        System.setOut(new java.io.PrintStream(printed, true));
        try {
          plan.withPrintKernel().execute();
        } finally {
          System.setOut(out);
        }
        for (int i = 0; i < N; i++) assertEquals(a2[i] + b[i], c[i], d.id());
        if (!d.equals(Devices.jvm())) assertFalse(printed.toString().contains("bounds_report"), d.id() + " runs the unchecked kernel:\n" + printed);
      }
    }
  }

  /** Every index proven: out[i] with i < out.length, a[k] with k < a.length. */
  static void sumRows(float[] a, float[] out) {
    for (@Parallel int i = 0; i < out.length; i++) {
      float s = 0;
      for (int k = 0; k < a.length; k++) s += a[k];
      out[i] = s + out[i];
    }
  }

  /** Small helpers for float arrays. */
  static final class FloatArrays {
    static float[] ramp(int n) {
      float[] a = new float[n];
      for (int i = 0; i < n; i++) a[i] = i + 0.5f;
      return a;
    }
  }
}
