// Instance-method kernels (this::compute, obj::compute): the object's fields become arguments, on every device against the jvm.
package dev.loopjit.tasks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import dev.loopjit.testing.Inputs;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * TornadoVM programs often keep a model's state in fields and hand {@code this::compute} to a task.
 * The fields the kernel reads (primitives, primitive arrays, {@code dev.loopjit.types} arrays) are
 * extra kernel arguments: primitives read at each {@code execute()}, arrays the ones the object held
 * when the task was added. Each test runs a fresh object on every device and compares with the jvm.
 */
class InstanceKernelsTest {
  /** y = alpha * x + y, with alpha and x in fields and an instance helper. */
  static final class Saxpy {
    float alpha;
    final FloatArray x;

    Saxpy(float alpha, FloatArray x) {
      this.alpha = alpha;
      this.x = x;
    }

    void compute(FloatArray y) {
      for (@Parallel int i = 0; i < y.getSize(); i++) y.set(i, scaled(x.get(i)) + y.get(i));
    }

    private float scaled(float v) {
      return alpha * v;
    }
  }

  /** A layer: weights and a bias in fields (Java arrays), the output a field the kernel writes; narrow and boolean fields. */
  static class Layer {
    final int[] weights;
    final int[] out;
    short bias;
    boolean relu;

    Layer(int[] weights, int n) {
      this.weights = weights;
      this.out = new int[n];
    }

    void forward(int[] in) {
      for (@Parallel int i = 0; i < out.length; i++) {
        int v = weights[i % weights.length] * in[i] + bias;
        out[i] = relu && v < 0 ? 0 : v;
      }
    }

    int offset() {
      return bias * 2;
    }

    void withOffset(int[] in) {
      for (@Parallel int i = 0; i < out.length; i++) out[i] = in[i] + offset();
    }
  }

  /** A sum with its initial value in the kernel (TornadoVM's idiom), of a field. */
  static final class Sum {
    final IntArray data;

    Sum(IntArray data) {
      this.data = data;
    }

    void total(@Reduce IntArray out) {
      out.set(0, 0);
      for (@Parallel int i = 0; i < data.getSize(); i++) out.set(0, out.get(0) + data.get(i));
    }
  }

  /** A KernelContext kernel with a scale in a field. */
  static final class Scaler {
    int factor = 3;

    void scale(KernelContext ctx, IntArray a) {
      int i = ctx.globalIdx;
      if (i < a.getSize()) a.set(i, a.get(i) * factor);
    }
  }

  /** Runs {@code run} on a fresh setup on the jvm and on every other device and compares what it returns. */
  private static void onEveryDevice(Function<Device, int[]> run) {
    int[] reference = run.apply(Devices.jvm());
    List<String> ran = new ArrayList<>();
    for (Device d : Devices.all()) {
      if (d.backend().equals("jvm")) continue;
      assertArrayEquals(reference, run.apply(d), d.id());
      ran.add(d.id());
    }
    assertTrue(Devices.all().size() == 1 || !ran.isEmpty());
  }

  private static int[] bits(FloatArray a) {
    int[] b = new int[a.getSize()];
    for (int i = 0; i < b.length; i++) b[i] = Float.floatToRawIntBits(a.get(i));
    return b;
  }

  @Test
  void fieldsAreArgumentsAndAPrimitiveFieldIsReadAtEachExecute() {
    onEveryDevice(d -> {
      Saxpy s = new Saxpy(2f, new Inputs(1).floatArray(1000, -1, 1));
      FloatArray y = new Inputs(2).floatArray(1000, -1, 1);
      TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.FIRST_EXECUTION, s.x)
          .transferToDevice(DataTransferMode.EVERY_EXECUTION, y).task("t", s::compute, y).transferToHost(DataTransferMode.EVERY_EXECUTION, y);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d)) {
        plan.execute();
        int[] first = bits(y);
        s.alpha = -0.5f;   // the next execute sees it
        plan.execute();
        int[] both = new int[first.length * 2];
        System.arraycopy(first, 0, both, 0, first.length);
        System.arraycopy(bits(y), 0, both, first.length, first.length);
        return both;
      }
    });
  }

  @Test
  void aFieldArrayTheKernelWritesIsCopiedBackLikeAnyOther() {
    for (boolean relu : new boolean[] {false, true})
      onEveryDevice(d -> {
        Layer l = new Layer(new Inputs(3).ints(7, -5, 5), 513);
        l.bias = -3;
        l.relu = relu;
        int[] in = new Inputs(4).ints(513, -100, 100);
        TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, in, l.weights).task("t", l::forward, in)
            .transferToHost(DataTransferMode.EVERY_EXECUTION, l.out);
        try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d)) {
          plan.execute();
        }
        return l.out;
      });
  }

  @Test
  void aHelperCalledOnThisIsInlinedWithItsFields() {
    onEveryDevice(d -> {
      Layer l = new Layer(new int[1], 100);
      l.bias = 21;
      int[] in = new Inputs(5).ints(100, -100, 100);
      TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, in).task("t", l::withOffset, in)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, l.out);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d)) {
        plan.execute();
      }
      return l.out;
    });
  }

  @Test
  void aReductionOverAField() {
    onEveryDevice(d -> {
      Sum s = new Sum(IntArray.fromArray(new Inputs(6).ints(10_007, -1000, 1000)));
      IntArray out = IntArray.fromElements(99);
      TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.FIRST_EXECUTION, s.data).task("t", s::total, out)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, out);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d)) {
        plan.execute();
      }
      return out.toHeapArray();
    });
  }

  @Test
  void aKernelContextKernelReadsItsFields() {
    onEveryDevice(d -> {
      Scaler s = new Scaler();
      IntArray a = IntArray.fromArray(new Inputs(7).ints(300, -1000, 1000));
      TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a).task("t", s::scale, new KernelContext(), a)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, a);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d)) {
        plan.withGridScheduler(new GridScheduler("g.t", new WorkerGrid1D(320))).execute();
      }
      return a.toHeapArray();
    });
  }

  /** A bound in a field: what the host proves from it when the plan is built must not outlive a change of the field. */
  static final class Fill {
    int n = 8;

    void fill(int[] a) {
      for (@Parallel int i = 0; i < n; i++) a[i] = i + 1;
    }
  }

  @Test
  void aFieldThatGrowsPastTheArrayIsStillBoundsChecked() {
    for (Device d : Devices.all()) {
      Fill f = new Fill();
      int[] a = new int[8];
      TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a).task("t", f::fill, a)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, a);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d)) {
        plan.execute();
        assertArrayEquals(new int[] {1, 2, 3, 4, 5, 6, 7, 8}, a, d.id());
        java.util.Arrays.fill(a, -1);
        f.n = 9;
        var e = assertThrows(dev.loopjit.api.KernelIndexOutOfBoundsException.class, plan::execute, d.id());
        assertTrue(e.getMessage().contains("Index 8 out of bounds for length 8"), e.getMessage());
        assertArrayEquals(new int[] {-1, -1, -1, -1, -1, -1, -1, -1}, a, d.id() + ": host array unchanged");
      }
    }
  }

  // ---------------------------------------------------------------- refused, before anything runs

  static final class Named {
    String label = "x";
    final float[] data = new float[4];
    int count;

    void useLabel(float[] out) {
      for (@Parallel int i = 0; i < out.length; i++) out[i] = label.length();
    }

    void writeField(float[] out) {
      for (@Parallel int i = 0; i < out.length; i++) out[i] = data[i];
      count = out.length;
    }
  }

  static class Base {
    int k = 2;

    int twice(int v) {
      return v * k;
    }

    void run(int[] a) {
      for (@Parallel int i = 0; i < a.length; i++) a[i] = twice(a[i]);
    }
  }

  static final class Overrides extends Base {
    @Override
    int twice(int v) {
      return v * 3;
    }
  }

  @Test
  void aFieldOfAnotherTypeIsRefusedWhenTheTaskIsAdded() {
    Named n = new Named();
    var e = assertThrows(IllegalArgumentException.class, () -> new TaskGraph("g").task("t", n::useLabel, new float[4]));
    assertTrue(e.getMessage().contains("field label (String)"), e.getMessage());
  }

  @Test
  void writingAFieldIsRefusedWithItsName() {
    Named n = new Named();
    float[] out = {1, 2, 3, 4};
    for (Device d : Devices.all()) {
      if (d.backend().equals("jvm")) continue;
      TaskGraph g = new TaskGraph("g").task("t", n::writeField, out).transferToHost(DataTransferMode.EVERY_EXECUTION, out);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d)) {
        var e = assertThrows(KernelCompilationException.class, plan::execute);
        assertTrue(e.getMessage().contains("writing the field count"), e.getMessage());
      }
      assertArrayEquals(new float[] {1, 2, 3, 4}, out);
    }
  }

  @Test
  void anOverriddenHelperIsRefusedAndAnInheritedKernelRuns() {
    var e = assertThrows(IllegalArgumentException.class, () -> new TaskGraph("g").task("t", new Overrides()::run, new int[3]));
    assertTrue(e.getMessage().contains("overrides Base.twice"), e.getMessage());
    onEveryDevice(d -> {
      Base b = new Base() {};   // a subclass that overrides nothing
      int[] a = {1, 2, 3};
      TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a).task("t", b::run, a)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, a);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d)) {
        plan.execute();
      }
      assertArrayEquals(new int[] {2, 4, 6}, a);
      return a;
    });
  }

  @Test
  void anArrayFieldThatNowHoldsAnotherArrayIsRefusedBeforeAnythingRuns() {
    for (Device d : Devices.all()) {
      Sum s = new Sum(IntArray.fromElements(1, 2, 3));
      IntArray out = IntArray.fromElements(0);
      TaskGraph g = new TaskGraph("g").task("t", s::total, out).transferToHost(DataTransferMode.EVERY_EXECUTION, out);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d)) {
        plan.execute();
        assertEquals(6, out.get(0), d.id());
        out.set(0, -1);
        Sum other = new Sum(IntArray.fromElements(5));
        var field = assertThrows(IllegalStateException.class, () -> {
          try {
            java.lang.reflect.Field f = Sum.class.getDeclaredField("data");
            f.setAccessible(true);
            f.set(s, other.data);   // a final field changed by reflection: the same shape as a plain field reassigned
          } catch (ReflectiveOperationException x) {
            throw new AssertionError(x);
          }
          plan.execute();
        });
        assertTrue(field.getMessage().contains("field data of Sum now holds a different array"), field.getMessage());
        assertEquals(-1, out.get(0), d.id());
      }
    }
  }
}
