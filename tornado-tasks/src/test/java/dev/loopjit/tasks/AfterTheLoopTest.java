// Statements after the @Parallel loop run once, after every iteration, as in Java: on every device against the jvm.
package dev.loopjit.tasks;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.KernelCompilationException;
import dev.loopjit.api.Parallel;
import dev.loopjit.api.Reduce;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * TornadoVM programs finish a kernel after its loop: a mean from a sum, a flag from the results.
 * Java runs those statements once, after every iteration; a device does too (an epilogue launch of
 * one work-item), so they see every iteration's writes.
 */
class AfterTheLoopTest {
  /** A mean: the sum's initial value before the loop, the division after it. Integers, so exact on every device. */
  static void mean(IntArray in, @Reduce IntArray out) {
    out.set(0, 0);
    for (@Parallel int i = 0; i < in.getSize(); i++) out.set(0, out.get(0) + in.get(i));
    out.set(0, out.get(0) / Math.max(1, in.getSize()));
  }

  /** The epilogue reads what other iterations wrote. */
  static void lastOfSquares(int[] a, int[] last) {
    int n = a.length;
    for (@Parallel int i = 0; i < n; i++) a[i] = i * i;
    last[0] = n > 0 ? a[n - 1] + a[0] : -1;
  }

  /** A statement before the loop that writes memory runs once, before: the epilogue sees the loop's writes, not a reset. */
  static void anyNegative(float[] x, int[] flag, int[] count) {
    flag[0] = 0;
    for (@Parallel int i = 0; i < x.length; i++) if (x[i] < 0) flag[0] = 1;
    count[0] = flag[0] * 100 + x.length;
  }

  /** Several statements after the loop, with a local of their own and a helper. */
  static void scaleThenNormalise(FloatArray v, float s, FloatArray norm) {
    for (@Parallel int i = 0; i < v.getSize(); i++) v.set(i, v.get(i) * s);
    float sum = 0f;
    for (int i = 0; i < v.getSize(); i++) sum += v.get(i) * v.get(i);
    norm.set(0, (float) Math.sqrt(sum));
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 257, 100_003})
  void meanOfIntegers(int n) {
    KernelCheck.of("mean", AfterTheLoopTest::mean).args(() -> new Object[] {IntArray.fromArray(new Inputs(1).ints(n, -1000, 1000)), IntArray.fromElements(7)})
        .run();
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 4099})
  void theEpilogueSeesEveryIteration(int n) {
    KernelCheck.of("lastOfSquares", AfterTheLoopTest::lastOfSquares).args(() -> new Object[] {new int[n], new int[] {5}}).run();
    KernelCheck.of("anyNegative", AfterTheLoopTest::anyNegative).args(() -> new Object[] {new Inputs(2).floats(n, -0.01f, 10), new int[] {9}, new int[1]})
        .run();
    KernelCheck.of("scaleThenNormalise", AfterTheLoopTest::scaleThenNormalise)
        .args(() -> new Object[] {new Inputs(3).floatArray(n, -1, 1), 0.5f, new FloatArray(1)}).run();
  }

  /** Before the loop: a private table every work-item fills for itself, and a flag written once, which the iterations read. */
  static void privateTableAndFlag(int[] a, int[] flag) {
    int[] t = new int[2];
    t[0] = 5;
    t[1] = 7;
    flag[0] = 3;
    for (@Parallel int i = 0; i < a.length; i++) a[i] = t[i % 2] * flag[0];
  }

  @Test
  void beforeTheLoopPrivateArraysAreEachWorkItemsAndMemoryIsWrittenOnce() {
    KernelCheck.of("privateTableAndFlag", AfterTheLoopTest::privateTableAndFlag).args(() -> new Object[] {new int[1001], new int[1]}).run();
  }

  /** A loop before the nest that writes memory, whose variable's slot javac gives the @Parallel loop's. */
  static void fillsThenMaps(int[] a, int[] b) {
    for (int k = 0; k < 4; k++) b[k] = k * 3;
    for (@Parallel int i = 0; i < a.length; i++) a[i] = a[i] + 1;
  }

  @Test
  void aLoopBeforeTheNestSharingItsVariablesSlotRunsOnce() {
    KernelCheck.of("fillsThenMaps", AfterTheLoopTest::fillsThenMaps).args(() -> new Object[] {new int[1001], new int[4]}).run();
  }

  /** One statement fills a private table and writes memory: it cannot run both once and in every work-item. */
  static void fillsBoth(int[] a, int[] b) {
    int[] t = new int[4];
    for (int k = 0; k < 4; k++) {
      t[k] = k;
      b[k] = k;
    }
    for (@Parallel int i = 0; i < a.length; i++) a[i] = t[i % 4];
  }

  /** TornadoVM's early exit: a condition every iteration agrees on, at the start of the body. */
  static void scaleUnlessDisabled(float[] x, int disabled, float s) {
    for (@Parallel int i = 0; i < x.length; i++) {
      if (disabled != 0) return;
      x[i] = x[i] * s;
    }
  }

  static void addUnlessEmpty(int[] a, int[] b, int n) {
    for (@Parallel int i = 0; i < a.length; i++) {
      if (n <= 0 || b.length < a.length) return;
      a[i] += b[i] * n;
    }
  }

  static void addUnlessOff(int[] a, int[] b, int n) {
    for (@Parallel int i = 0; i < a.length; i++) {
      if (n <= 0 || b.length < a.length) break;
      a[i] += b[i] * n;
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1})
  void anEarlyExitEveryIterationAgreesOnRuns(int disabled) {
    KernelCheck.of("addUnlessOff", AfterTheLoopTest::addUnlessOff)
        .args(() -> new Object[] {new Inputs(7).ints(777, -9, 9), new Inputs(8).ints(disabled == 0 ? 777 : 5, -9, 9), 3 - 3 * disabled}).run();
    KernelCheck.of("scaleUnlessDisabled", AfterTheLoopTest::scaleUnlessDisabled)
        .args(() -> new Object[] {new Inputs(4).floats(777, -1, 1), disabled, 2.5f}).run();
    KernelCheck.of("addUnlessEmpty", AfterTheLoopTest::addUnlessEmpty)
        .args(() -> new Object[] {new Inputs(5).ints(777, -9, 9), new Inputs(6).ints(disabled == 0 ? 777 : 5, -9, 9), 3 - 3 * disabled}).run();
  }

  /** A @Parallel bound from a local array of constant size, as TornadoVM programs write it. */
  static void boundFromALocalArray(int[] out) {
    int[] weights = new int[8];
    for (@Parallel int i = 0; i < weights.length; i++) out[i] = i * 3;
  }

  @Test
  void aBoundFromALocalArraysLength() {
    KernelCheck.of("boundFromALocalArray", AfterTheLoopTest::boundFromALocalArray).args(() -> new Object[] {new int[10]}).run();
  }

  static void returnsWhereTheIndexSays(int[] a) {
    for (@Parallel int i = 0; i < a.length; i++) {
      if (i == 3) return;
      a[i] = 1;
    }
  }

  static void readsTheLoopsVariable(int[] a, int[] out) {
    int last = 0;
    for (@Parallel int i = 0; i < a.length; i++) {
      last = a[i];
      a[i] = last + 1;
    }
    out[0] = last;
  }

  @Test
  void aVariableTheIterationsAssignIsRefusedAfterTheLoop() {
    for (Device device : Devices.all()) {
      if (device.backend().equals("jvm")) continue;   // the jvm runs Java itself
      TaskGraph g = new TaskGraph("bad").task("t", AfterTheLoopTest::readsTheLoopsVariable, new int[4], new int[1]);
      KernelCompilationException e = assertThrows(KernelCompilationException.class, () -> {
        try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(device)) {
          plan.execute();
        }
      }, device.id());
      assertTrue(e.getMessage().contains("'last'") && e.getMessage().contains("AfterTheLoopTest.java:"), e.getMessage());
      TaskGraph early = new TaskGraph("early").task("t", AfterTheLoopTest::returnsWhereTheIndexSays, new int[8]);
      KernelCompilationException r = assertThrows(KernelCompilationException.class, () -> {
        try (ExecutionPlan plan = new ExecutionPlan(early.snapshot()).withDevice(device)) {
          plan.execute();
        }
      }, device.id());
      assertTrue(r.getMessage().contains("'return' inside a @Parallel loop"), r.getMessage());
      TaskGraph both = new TaskGraph("both").task("t", AfterTheLoopTest::fillsBoth, new int[8], new int[4]);
      KernelCompilationException f = assertThrows(KernelCompilationException.class, () -> {
        try (ExecutionPlan plan = new ExecutionPlan(both.snapshot()).withDevice(device)) {
          plan.execute();
        }
      }, device.id());
      assertTrue(f.getMessage().contains("AfterTheLoopTest.java:") && f.getMessage().contains("split it in two"), f.getMessage());
    }
  }
}
