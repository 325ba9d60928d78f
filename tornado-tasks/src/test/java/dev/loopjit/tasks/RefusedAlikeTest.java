// What TornadoVM programs write that LoopJIT refuses: refused on every device alike, the jvm reference included, with the same message.
package dev.loopjit.tasks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.GridScheduler;
import dev.loopjit.api.KernelCompilationException;
import dev.loopjit.api.KernelContext;
import dev.loopjit.api.Parallel;
import dev.loopjit.api.Reduce;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.api.WorkerGrid1D;
import dev.loopjit.api.WorkerGrid2D;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.Float4;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import dev.loopjit.types.VectorFloat4;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Issue #30's list, as a TornadoVM program writes each (a static field that is not final now runs:
 * {@code StaticFieldsTest}): every device — the {@code jvm}, which runs
 * the Java method itself, as well as the compiled ones — runs it with the same result or refuses it
 * before anything runs with the same exception and message. (The jvm used to run some of these,
 * giving Java's sequential answer where every other device refused.)
 */
class RefusedAlikeTest {
  static void earlyReturn(FloatArray a) {
    for (@Parallel int i = 0; i < a.getSize(); i++) {
      if (a.get(i) < 0) return;
      a.set(i, a.get(i) * 2);
    }
  }

  static void earlyBreak(FloatArray a) {
    for (@Parallel int i = 0; i < a.getSize(); i++) {
      if (a.get(i) < 0) break;
      a.set(i, a.get(i) * 2);
    }
  }

  static void afterInnerLoop(FloatArray a, int n) {
    for (@Parallel int i = 0; i < n; i++) {
      for (@Parallel int j = 0; j < n; j++) a.set(i * n + j, j);
      a.set(i * n, -1);
    }
  }

  static void arrayOfLaunchSize(FloatArray a, int n) {
    for (@Parallel int i = 0; i < a.getSize(); i++) {
      float[] t = new float[n];
      for (int k = 0; k < n; k++) t[k] = k * i;
      a.set(i, t[n - 1]);
    }
  }

  static float scaled(Float s, float x) {
    return x * s;
  }

  static void boxedNumbers(FloatArray a, Integer k, Float s, Long n, Double d) {
    for (@Parallel int i = 0; i < a.getSize(); i++) a.set(i, scaled(s, a.get(i) + k) + n + (float) d.doubleValue() + k.floatValue());
  }

  /** Integer, Float, Long and Double parameters (passed on to a helper, unboxed by javac's calls and by hand) run on every device. */
  @Test
  void boxedNumberParametersRunEverywhere() {
    KernelCheck.of("boxedNumbers", RefusedAlikeTest::boxedNumbers)
        .args(() -> new Object[] {new dev.loopjit.testing.Inputs(6).floatArray(100, -4, 4), 3, 0.5f, 10L, 0.25}).run();
    String nullInteger = assertThrows(IllegalArgumentException.class,
        () -> new TaskGraph("g").task("t", RefusedAlikeTest::boxedNumbers, new FloatArray(1), null, 1f, 1L, 1.0)).getMessage();
    assertTrue(nullInteger.contains("cannot take null"), nullInteger);
  }

  /** Takes a Float4 and returns one: runs (the callee's return assigns the caller's fields). */
  static Float4 twice(Float4 v) {
    return Float4.mult(v, 2f);
  }

  static float dot3(Float4 a, Float4 b) {
    return a.getX() * b.getX() + a.getY() * b.getY() + a.getZ() * b.getZ();
  }

  static float weigh(Float4 a, float w, Float4 b) {
    return dot3(a, b) * w + a.getW();
  }

  static void float4Arguments(VectorFloat4 v, VectorFloat4 u, FloatArray out) {
    for (@Parallel int i = 0; i < out.getSize(); i++) out.set(i, weigh(v.get(i), 0.5f, u.get(i)));
  }

  /** Float4 values passed to helpers (through two levels, beside a float) and returned from them run on every device, as Java computes them. */
  @Test
  void aFloat4PassedToAHelperRunsEverywhere() {
    KernelCheck.of("float4Arguments", RefusedAlikeTest::float4Arguments).args(() -> {
      VectorFloat4 v = new VectorFloat4(257), u = new VectorFloat4(257);
      dev.loopjit.testing.Inputs in = new dev.loopjit.testing.Inputs(5);
      float[] r = in.floats(257 * 8, -2, 2);
      for (int i = 0; i < 257; i++) {
        v.set(i, new Float4(r[8 * i], r[8 * i + 1], r[8 * i + 2], r[8 * i + 3]));
        u.set(i, new Float4(r[8 * i + 4], r[8 * i + 5], r[8 * i + 6], r[8 * i + 7]));
      }
      return new Object[] {v, u, new FloatArray(257)};
    }).run();
    KernelCheck.of("float4ToHelper", RefusedAlikeTest::float4ToHelper).args(() -> {
      VectorFloat4 v = new VectorFloat4(33);
      for (int i = 0; i < 33 * 4; i++) v.getArray().set(i, i * 0.25f - 7f);
      return new Object[] {v};
    }).run();
  }

  static void float4ToHelper(VectorFloat4 a) {
    for (@Parallel int i = 0; i < a.getLength(); i++) a.set(i, twice(a.get(i)));
  }

  /** A setter on a Float4 another variable refers to: Java changes both, which values in registers cannot. */
  static void sharedFloat4Setter(VectorFloat4 a) {
    for (@Parallel int i = 0; i < a.getLength(); i++) {
      Float4 x = a.get(i), y = x;
      y.setW(0f);
      a.set(i, x);
    }
  }

  static void reduceTwoTerms(FloatArray in, @Reduce FloatArray out) {
    for (@Parallel int i = 0; i < in.getSize() / 2; i++) out.set(0, out.get(0) + in.get(2 * i) + in.get(2 * i + 1));
  }

  /** Reductions whose update is a chain of one operation with the element once: a sum and a product of three terms, a max of three. */
  static void reduceChains(FloatArray in, IntArray k, @Reduce FloatArray sum, @Reduce IntArray max, @Reduce IntArray product) {
    for (@Parallel int i = 0; i < in.getSize() / 2; i++) {
      sum.set(0, in.get(2 * i) + sum.get(0) + in.get(2 * i + 1));
      max.set(0, Math.max(Math.max(max.get(0), k.get(2 * i)), k.get(2 * i + 1)));
      product.set(0, product.get(0) * (k.get(2 * i) | 1) * 3);
    }
  }

  /** Updates of more than one term (TornadoVM programs write out[0] = out[0] + a + b) run on every device, as Java computes them. */
  @Test
  void reductionsOfSeveralTermsRunEverywhere() {
    KernelCheck.of("reduceChains", RefusedAlikeTest::reduceChains)
        .args(() -> new Object[] {new dev.loopjit.testing.Inputs(8).floatArray(200, -4, 4), new dev.loopjit.testing.Inputs(9).intArray(200, -1000, 1000),
            FloatArray.fromElements(0.5f), IntArray.fromElements(-5), IntArray.fromElements(1)})
        .tolerance(dev.loopjit.testing.Tolerance.relative(1e-5, 1e-4)).run();
    KernelCheck.of("reduceTwoTerms", RefusedAlikeTest::reduceTwoTerms)
        .args(() -> new Object[] {FloatArray.fromElements(1, 2, 3, 4, 5, 6), new FloatArray(1)}).run();
  }

  /** The outcome on one device: "ran" and the arrays, or the exception's class and message. */
  private static String outcome(Device d, Supplier<TaskGraph> graph) {
    try (ExecutionPlan p = new ExecutionPlan(graph.get().snapshot()).withDevice(d)) {
      p.execute();
      return "ran";
    } catch (RuntimeException e) {
      return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
  }

  private static void refusedAlike(String construct, Supplier<TaskGraph> graph) {
    String jvm = outcome(Devices.jvm(), graph);
    assertTrue(jvm.startsWith(KernelCompilationException.class.getSimpleName()), construct + ": the jvm refuses it: " + jvm);
    for (Device d : Devices.all()) assertEquals(jvm, outcome(d, graph), construct + " on " + d.id() + " as on the jvm");
  }

  private static TaskGraph one(String id, Object kernel, Object... args) {
    TaskGraph g = new TaskGraph("g");
    List<Object> arrays = new ArrayList<>();
    for (Object a : args) if (!(a instanceof Number)) arrays.add(a);
    g.transferToDevice(DataTransferMode.EVERY_EXECUTION, arrays.toArray());
    return KernelCheck.addTask(g, id, (java.io.Serializable) kernel, args);
  }

  @Test
  void whatNoDeviceRunsIsRefusedAlikeEverywhere() {
    refusedAlike("return", () -> one("t", (dev.loopjit.api.Task1<FloatArray>) RefusedAlikeTest::earlyReturn, FloatArray.fromElements(1, 2, -3, 4)));
    refusedAlike("break", () -> one("t", (dev.loopjit.api.Task1<FloatArray>) RefusedAlikeTest::earlyBreak, FloatArray.fromElements(1, 2, -3, 4)));
    refusedAlike("after an inner @Parallel loop",
        () -> one("t", (dev.loopjit.api.Task2<FloatArray, Integer>) RefusedAlikeTest::afterInnerLoop, new FloatArray(16), 4));
    refusedAlike("a setter on a shared Float4", () -> one("t", (dev.loopjit.api.Task1<VectorFloat4>) RefusedAlikeTest::sharedFloat4Setter, new VectorFloat4(4)));
    String message = outcome(Devices.jvm(), () -> one("t", (dev.loopjit.api.Task1<FloatArray>) RefusedAlikeTest::earlyReturn, new FloatArray(2)));
    assertTrue(message.contains("RefusedAlikeTest.earlyReturn (RefusedAlikeTest.java:"), "the refusal names the method and line: " + message);
  }

  static void nested(FloatArray a, int n) {
    for (@Parallel int i = 0; i < n; i++)
      for (@Parallel int j = 0; j < n; j++) a.set(i * n + j, i * 10 + j);
  }

  /** {@code new float[n]} with n a parameter, once refused everywhere: runs everywhere, as Java does. */
  @Test
  void anArrayOfASizeKnownAtLaunchRunsEverywhere() {
    KernelCheck.of("arrayOfLaunchSize", RefusedAlikeTest::arrayOfLaunchSize).args(() -> new Object[] {new FloatArray(8), 5}).run();
  }

  /** A WorkerGrid2D over two nested @Parallel loops: the jvm used to count one loop and refuse the grid the others run. */
  @Test
  void aTwoDimensionalGridOverNestedLoopsRunsEverywhere() {
    KernelCheck.of("nested", RefusedAlikeTest::nested).args(() -> new Object[] {new FloatArray(36), 6}).grid(new WorkerGrid2D(6, 6)).run();
  }

  static void fill(KernelContext c, FloatArray a) {
    int i = c.globalIdx;
    if (i < a.getSize()) a.set(i, i * 2);
  }

  /** TornadoVM's order: withPreCompilation() then withGridScheduler(...), on every device. */
  @Test
  void aGridMayComeAfterPreCompilation() {
    for (Device d : Devices.all()) {
      FloatArray a = new FloatArray(8);
      TaskGraph g = new TaskGraph("g").task("t", RefusedAlikeTest::fill, new KernelContext(), a).transferToHost(DataTransferMode.EVERY_EXECUTION, a);
      try (ExecutionPlan p = new ExecutionPlan(g.snapshot()).withDevice(d)) {
        p.withPreCompilation().withGridScheduler(new GridScheduler("g.t", new WorkerGrid1D(8))).execute();
      }
      for (int i = 0; i < 8; i++) assertEquals(2f * i, a.get(i), d.id() + " [" + i + "]");
    }
  }
}
