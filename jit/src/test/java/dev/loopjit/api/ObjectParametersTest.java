// Objects of the program's own classes as kernel parameters: the fields a kernel reads through them, on every device, and what is refused.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import org.junit.jupiter.api.Test;

/**
 * A kernel given an object of the program's classes reads its fields — arrays, off-heap arrays,
 * primitives, fields inherited and fields of objects it holds — as a Java method does: the arrays
 * are copied like any task argument's (listing the object in {@code transferToDevice} or
 * {@code transferToHost} moves the arrays it holds), a primitive is read at each launch. As
 * TornadoVM's tests write them ({@code TestInheritedFields}, {@code TestFields.setNestedArray}).
 */
class ObjectParametersTest {
  public static class Base {
    public final float[] first;

    Base(int n) {
      first = new float[n];
    }
  }

  public static class Holder extends Base {
    public final FloatArray second;
    public final Inner inner;
    public float scale = 2f;
    short offset = 3;

    Holder(int n) {
      super(n);
      second = new FloatArray(n);
      inner = new Inner(n);
    }
  }

  public static class Inner {
    final IntArray counts;
    int step = 5;

    Inner(int n) {
      counts = new IntArray(n);
    }
  }

  static void update(Holder h, int n) {
    for (@Parallel int i = 0; i < n; i++) {
      h.first[i] += 1f;
      h.second.set(i, h.second.get(i) + h.first[i] * h.scale + h.offset);
      h.inner.counts.set(i, h.inner.counts.get(i) + h.inner.step + i);
    }
  }

  static void incrementFirst(Base b, int n) {
    for (@Parallel int i = 0; i < n; i++) b.first[i] += 1f;
  }

  static void expected(Holder h, int n) {
    update(h, n);
  }

  @Test
  void fieldsReadThroughObjectsAreJavasOnEveryDevice() {
    int n = 300;
    for (Device d : Devices.all()) {
      Holder h = new Holder(n), java = new Holder(n);
      try (ExecutionPlan plan = new ExecutionPlan(new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, h)
          .task("t0", ObjectParametersTest::incrementFirst, h, n).task("t1", ObjectParametersTest::update, h, n)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, h).snapshot()).withDevice(d)) {
        for (int round = 0; round < 2; round++) {
          plan.execute();
          incrementFirst(java, n);
          expected(java, n);
          assertArrayEquals(java.first, h.first, d.id() + " round " + round + ": inherited float[]");
          assertArrayEquals(java.second.toHeapArray(), h.second.toHeapArray(), d.id() + " round " + round + ": FloatArray");
          assertArrayEquals(java.inner.counts.toHeapArray(), h.inner.counts.toHeapArray(), d.id() + " round " + round + ": a nested object's array");
          // a primitive field is read at each launch: the next execution sees the host's change
          h.scale = java.scale = 3f + round;
          h.inner.step = java.inner.step = 7 * round;
        }
      }
    }
  }

  static void writesAField(Holder h, int n) {
    for (@Parallel int i = 0; i < n; i++) h.scale = 1f;
  }

  static float scaled(Holder h, int i) {
    return h.first[i] * 2f;
  }

  static void passesItOn(Holder h, float[] out) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = scaled(h, i);
  }

  public static class WithText {
    String name = "x";
    static final int SIZE = 4;
    final float[] data = new float[SIZE];
    final int four = 4;   // a constant: javac reads it with Objects.requireNonNull(w) and the value
  }

  static void readsAString(WithText w, int[] out) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = w.name.length();
  }

  static void readsAConstant(WithText w, int[] out) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = w.four + (int) w.data[i];
  }

  @Test
  void writingAFieldPassingTheObjectOnAndOtherFieldTypesAreRefusedAlike() {
    for (Device d : Devices.all()) {
      Holder h = new Holder(4);
      KernelCompilationException e = assertThrows(KernelCompilationException.class,
          () -> PrintedKernels.run(new TaskGraph("g").task("t", ObjectParametersTest::writesAField, h, 4), d), d.id());
      assertTrue(e.getMessage().contains("writing the field scale") && e.getMessage().contains("ObjectParametersTest.java:"), d.id() + ": " + e.getMessage());
      e = assertThrows(KernelCompilationException.class,
          () -> PrintedKernels.run(new TaskGraph("g").task("t", ObjectParametersTest::passesItOn, h, new float[4]), d), d.id());
      assertTrue(e.getMessage().contains("passing"), d.id() + ": " + e.getMessage());
      e = assertThrows(KernelCompilationException.class,
          () -> PrintedKernels.run(new TaskGraph("g").task("t", ObjectParametersTest::readsAString, new WithText(), new int[4]), d), d.id());
      assertTrue(e.getMessage().contains("the field name (String)"), d.id() + ": " + e.getMessage());
      int[] out = new int[4];
      PrintedKernels.run(new TaskGraph("g").task("t", ObjectParametersTest::readsAConstant, new WithText(), out)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, out), d);
      assertArrayEquals(new int[] {4, 4, 4, 4}, out, d.id() + ": a constant field");
    }
  }

  public static class MaybeEmpty {
    Inner inner;
  }

  static void readsInner(MaybeEmpty m, int[] out) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = m.inner.counts.get(i);
  }

  @Test
  void aNullObjectOnTheWayIsRefusedWhenTheTaskIsAdded() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new TaskGraph("g").task("t", ObjectParametersTest::readsInner, null, new int[4]));
    assertTrue(e.getMessage().contains("cannot take null"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> new TaskGraph("g").task("t", ObjectParametersTest::readsInner, new MaybeEmpty(), new int[4]));
    assertTrue(e.getMessage().contains("inner is null"), e.getMessage());
    MaybeEmpty full = new MaybeEmpty();
    full.inner = new Inner(4);
    full.inner.counts.init(9);
    int[] out = new int[4];
    PrintedKernels.run(new TaskGraph("g").task("t", ObjectParametersTest::readsInner, full, out).transferToHost(DataTransferMode.EVERY_EXECUTION, out),
        Devices.all().get(Devices.all().size() - 1));
    assertArrayEquals(new int[] {9, 9, 9, 9}, out);
  }
}
