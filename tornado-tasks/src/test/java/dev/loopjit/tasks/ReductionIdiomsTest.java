// TornadoVM's reduction idioms, with the initial value set inside the kernel, on every device against the jvm.
package dev.loopjit.tasks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.KernelCompilationException;
import dev.loopjit.api.Parallel;
import dev.loopjit.api.Reduce;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.testing.Tolerance;
import dev.loopjit.types.DoubleArray;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import dev.loopjit.types.LongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kernels as TornadoVM's documentation writes them: the {@code @Reduce} output is set before the
 * {@code @Parallel} loop, inside the kernel. Java runs that statement once, before any iteration;
 * so must every device (a prologue launch of one work-item). Integer reductions are exact in any
 * order; float sums are compared within rounding.
 */
class ReductionIdiomsTest {
  private static final Tolerance REORDERED_SUM = Tolerance.relative(1e-4);

  static void sum(FloatArray in, @Reduce FloatArray out) {
    out.set(0, 0f);
    for (@Parallel int i = 0; i < in.getSize(); i++) out.set(0, out.get(0) + in.get(i));
  }

  static void sumInts(int[] in, @Reduce int[] out) {
    out[0] = 0;
    for (@Parallel int i = 0; i < in.length; i++) out[0] += in[i];
  }

  static void product(LongArray in, @Reduce LongArray out) {
    out.set(0, 1L);
    for (@Parallel int i = 0; i < in.getSize(); i++) out.set(0, out.get(0) * in.get(i));
  }

  static void max(FloatArray in, @Reduce FloatArray out) {
    out.set(0, Float.NEGATIVE_INFINITY);
    for (@Parallel int i = 0; i < in.getSize(); i++) out.set(0, Math.max(out.get(0), in.get(i)));
  }

  static void min(DoubleArray in, @Reduce DoubleArray out) {
    out.set(0, Double.MAX_VALUE);
    for (@Parallel int i = 0; i < in.getSize(); i++) out.set(0, Math.min(out.get(0), in.get(i)));
  }

  /** The initial value from a parameter, and two outputs set before the loop. */
  static void sumAndMax(IntArray in, int start, @Reduce IntArray sum, @Reduce IntArray max) {
    sum.set(0, start);
    max.set(0, Integer.MIN_VALUE);
    for (@Parallel int i = 0; i < in.getSize(); i++) {
      sum.set(0, sum.get(0) + in.get(i));
      max.set(0, Math.max(max.get(0), in.get(i)));
    }
  }

  /** The initial value read from another array: the prologue reads memory as Java does, once. */
  static void sumFromFirst(IntArray in, @Reduce IntArray out) {
    out.set(0, in.get(0));
    for (@Parallel int i = 1; i < in.getSize(); i++) out.set(0, out.get(0) + in.get(i));
  }

  /** A 2-D nest reducing into an initialised output. */
  static void sum2d(int[] m, int rows, int cols, @Reduce int[] out) {
    out[0] = 0;
    for (@Parallel int r = 0; r < rows; r++)
      for (@Parallel int c = 0; c < cols; c++) out[0] += m[r * cols + c];
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 257, 100_003})
  void sumOfFloats(int n) {
    KernelCheck.of("sum", ReductionIdiomsTest::sum).tolerance(REORDERED_SUM)
        .args(() -> new Object[] {new Inputs(1).floatArray(n, 0, 1), FloatArray.fromElements(1234f)}).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 257, 100_003})
  void integerReductionsAreExact(int n) {
    KernelCheck.of("sumInts", ReductionIdiomsTest::sumInts).args(() -> new Object[] {new Inputs(2).ints(n, -1000, 1000), new int[] {99}}).run();
    KernelCheck.of("product", ReductionIdiomsTest::product).args(() -> {
      long[] v = new long[n];
      int[] k = new Inputs(3).ints(n, 1, 4);
      for (int i = 0; i < n; i++) v[i] = i % 37 == 0 ? -k[i] : k[i] == 3 ? 1 : k[i];
      return new Object[] {LongArray.fromArray(v), LongArray.fromElements(5L)};
    }).run();
    KernelCheck.of("sumAndMax", ReductionIdiomsTest::sumAndMax)
        .args(() -> new Object[] {IntArray.fromArray(new Inputs(4).ints(n, -5000, 5000)), 17, IntArray.fromElements(-1), IntArray.fromElements(-1)})
        .run();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 257, 100_003})
  void minAndMaxAreExact(int n) {
    KernelCheck.of("max", ReductionIdiomsTest::max).args(() -> new Object[] {new Inputs(5).floatArray(n, -100, 100), FloatArray.fromElements(1e30f)}).run();
    KernelCheck.of("min", ReductionIdiomsTest::min).args(() -> {
      float[] f = new Inputs(6).floats(n, -100, 100);
      double[] d = new double[n];
      for (int i = 0; i < n; i++) d[i] = f[i];
      return new Object[] {DoubleArray.fromArray(d), DoubleArray.fromElements(-1e300)};
    }).run();
    KernelCheck.of("sumFromFirst", ReductionIdiomsTest::sumFromFirst).args(() -> new Object[] {IntArray.fromArray(new Inputs(7).ints(n, -9, 9)), IntArray.fromElements(-77)}).run();
  }

  @Test
  void twoDimensionalReduction() {
    KernelCheck.of("sum2d", ReductionIdiomsTest::sum2d).args(() -> new Object[] {new Inputs(8).ints(300 * 70, -50, 50), 300, 70, new int[] {5}}).run();
  }

  @Test
  void anEmptyLoopStillSetsTheInitialValue() {
    // Java runs out[0] = 0 before a loop of no iterations; so does every device (jvm's value is checked too).
    int[] out = {42};
    sumInts(new int[0], out);
    assertEquals(0, out[0]);
    KernelCheck.of("sumInts/empty", ReductionIdiomsTest::sumInts).args(() -> new Object[] {new int[0], new int[] {42}}).run();
  }

  @Test
  void eachExecutionStartsFromTheInitialValue() {
    // Without the in-kernel initial value, a second execution would add to the first's result.
    int[] in = new Inputs(9).ints(1000, -100, 100), out = {0};
    int expected = 0;
    for (int v : in) expected += v;
    for (Device device : Devices.all()) {
      TaskGraph g = new TaskGraph("twice").transferToDevice(DataTransferMode.FIRST_EXECUTION, in)
          .task("sum", ReductionIdiomsTest::sumInts, in, out).transferToHost(DataTransferMode.EVERY_EXECUTION, out);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(device)) {
        plan.execute();
        plan.execute();
      }
      assertEquals(expected, out[0], device.id());
    }
  }

  static void notAnInitialValue(int[] in, @Reduce int[] out) {
    int seen = out[0];
    for (@Parallel int i = 0; i < in.length; i++) out[0] += in[i] + seen;
  }

  @Test
  void aReadOfTheOutputBeforeTheLoopIsRefusedNamingIt() {
    // Reading out[0] into a value every iteration uses is not a reduction's initial value: refused, naming the parameter.
    for (Device device : Devices.all()) {
      if (device.backend().equals("jvm")) continue;   // the jvm runs Java itself
      TaskGraph g = new TaskGraph("bad").task("t", ReductionIdiomsTest::notAnInitialValue, new int[4], new int[1]);
      KernelCompilationException e = assertThrows(KernelCompilationException.class, () -> {
        try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(device)) {
          plan.execute();
        }
      }, device.id());
      assertTrue(e.getMessage().contains("'out'"), e.getMessage());
    }
  }
}
