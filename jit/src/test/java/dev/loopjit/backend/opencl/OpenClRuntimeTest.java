// End to end through GraphRunner on an OpenCL device, each result compared with the same task on the jvm backend.
package dev.loopjit.backend.opencl;

import static dev.loopjit.backend.opencl.OpenClTesting.execute;
import static dev.loopjit.backend.opencl.OpenClTesting.graph;
import static dev.loopjit.backend.opencl.OpenClTesting.task;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Engine;
import dev.loopjit.api.GridScheduler;
import dev.loopjit.api.KernelContext;
import dev.loopjit.api.Profile;
import dev.loopjit.api.Task1;
import dev.loopjit.api.Task2;
import dev.loopjit.api.Task3;
import dev.loopjit.api.Task4;
import dev.loopjit.api.Task9;
import dev.loopjit.api.WorkerGrid1D;
import dev.loopjit.ir.Prim;
import dev.loopjit.runtime.GraphRunner;
import dev.loopjit.runtime.GraphSpec;
import dev.loopjit.runtime.Settings;
import dev.loopjit.spi.DeviceRuntime;
import dev.loopjit.spi.HostArray;
import dev.loopjit.types.DoubleArray;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OpenClRuntimeTest {
  @TempDir static java.nio.file.Path cache;
  private static String savedCacheDir;

  @BeforeAll
  static void privateCache() {
    savedCacheDir = System.getProperty("loopjit.cacheDir");
    System.setProperty("loopjit.cacheDir", cache.toString());
  }

  @AfterAll
  static void restoreCache() {
    if (savedCacheDir == null) System.clearProperty("loopjit.cacheDir");
    else System.setProperty("loopjit.cacheDir", savedCacheDir);
  }

  private static FloatArray randomFloats(int n, long seed) {
    Random r = new Random(seed);
    FloatArray a = new FloatArray(n);
    for (int i = 0; i < n; i++) a.set(i, r.nextFloat() * 200 - 100);
    return a;
  }

  /** Runs the graph {@code make} builds on the jvm and on opencl, over copies of the same inputs; returns the opencl profile. */
  private static Profile both(OpenClDevice d, Function<Boolean, GraphSpec> make, boolean profile, Runnable compare) {
    Profile p;
    try (Engine.Executor jvm = OpenClTesting.jvm(); Engine.Executor cl = OpenClTesting.opencl(d)) {
      execute(jvm, make.apply(false), false);
      p = execute(cl, make.apply(true), profile);
    }
    compare.run();
    return p;
  }

  @Test
  void vectorAddInPlaceOnOffHeapArrays() {
    OpenClDevice d = OpenClTesting.device();
    int n = 1 << 16;
    FloatArray[] jvm = {randomFloats(n, 1), randomFloats(n, 2), new FloatArray(n)};
    FloatArray[] cl = {randomFloats(n, 1), randomFloats(n, 2), new FloatArray(n)};
    Profile p = both(d, onCl -> {
      FloatArray[] x = onCl ? cl : jvm;
      return graph(task("vadd", (Task3<FloatArray, FloatArray, FloatArray>) HandwrittenKernels::vadd, x[0], x[1], x[2]),
          DataTransferMode.EVERY_EXECUTION, new Object[] {x[0], x[1], x[2]}, new Object[] {x[2]});
    }, false, () -> assertArrayEquals(jvm[2].toArray(), cl[2].toArray()));
    if (d.sharesHostMemory()) assertEquals(0, p.bytesIn() + p.bytesOut(), "zero-copy: nothing moved");
  }

  @Test
  void vectorAddThroughPooledBuffers() {
    OpenClDevice d = OpenClTesting.device();
    int n = 10_000;
    FloatArray[] jvm = {randomFloats(n, 3), randomFloats(n, 4), new FloatArray(n)};
    FloatArray[] cl = {randomFloats(n, 3), randomFloats(n, 4), new FloatArray(n)};
    Profile p = both(d, onCl -> {
      FloatArray[] x = onCl ? cl : jvm;
      return graph(task("vadd", (Task3<FloatArray, FloatArray, FloatArray>) HandwrittenKernels::vadd, x[0], x[1], x[2]),
          DataTransferMode.FIRST_EXECUTION, new Object[] {x[0], x[1]}, new Object[] {x[2]});
    }, false, () -> assertArrayEquals(jvm[2].toArray(), cl[2].toArray()));
    assertEquals(3L * n * 4, p.bytesIn(), "FIRST_EXECUTION arrays are copied, not used in place");
    assertEquals((long) n * 4, p.bytesOut());
    long free = d.context().pool().freeBytes();
    assertTrue(free >= 3L * n * 4, "closed plan's buffers went back to the pool: " + free);
    try (Engine.Executor again = OpenClTesting.opencl(d)) {
      execute(again, graph(task("vadd", (Task3<FloatArray, FloatArray, FloatArray>) HandwrittenKernels::vadd, cl[0], cl[1], cl[2]),
          DataTransferMode.FIRST_EXECUTION, new Object[] {cl[0], cl[1]}, new Object[] {cl[2]}), false);
      assertTrue(d.context().pool().freeBytes() <= free - 3L * n * 4, "a second plan reuses them");
    }
  }

  @Test
  void heapArraysOfAPrimeLength() {
    OpenClDevice d = OpenClTesting.device();
    int n = 997;
    float[][] jvm = {randomFloats(n, 5).toArray(), randomFloats(n, 6).toArray(), new float[n]};
    float[][] cl = {jvm[0].clone(), jvm[1].clone(), new float[n]};
    Profile p = both(d, onCl -> {
      float[][] x = onCl ? cl : jvm;
      return graph(task("vaddHeap", (Task3<float[], float[], float[]>) HandwrittenKernels::vaddHeap, x[0], x[1], x[2]),
          DataTransferMode.EVERY_EXECUTION, new Object[] {x[0], x[1]}, new Object[] {x[2]});
    }, false, () -> assertArrayEquals(jvm[2], cl[2]));
    assertEquals(3L * n * 4, p.bytesIn(), "heap arrays are copied");
  }

  @Test
  void aPrimeRangeRunsInGroupsLargerThanOne() {
    OpenClDevice d = OpenClTesting.device();
    IntArray out = new IntArray(997);
    try (Engine.Executor cl = OpenClTesting.opencl(d)) {
      execute(cl, graph(task("local", (Task1<IntArray>) HandwrittenKernels::localSizes, out), DataTransferMode.EVERY_EXECUTION,
          new Object[0], new Object[] {out}), false);
    }
    int local = out.get(0);
    assertTrue(local > 1, "local size " + local);
    for (int i = 0; i < out.getSize(); i++) assertEquals(local, out.get(i), "every item ran, in groups of " + local);
  }

  @Test
  void a2dKernel() {
    OpenClDevice d = OpenClTesting.device();
    int rows = 37, cols = 53;
    FloatArray[] jvm = {randomFloats(rows * cols, 7), new FloatArray(rows * cols)};
    FloatArray[] cl = {randomFloats(rows * cols, 7), new FloatArray(rows * cols)};
    both(d, onCl -> {
      FloatArray[] x = onCl ? cl : jvm;
      return graph(task("s", (Task4<FloatArray, FloatArray, Integer, Integer>) HandwrittenKernels::scale2d, x[0], x[1], rows, cols),
          DataTransferMode.EVERY_EXECUTION, new Object[] {x[0]}, new Object[] {x[1]});
    }, false, () -> assertArrayEquals(jvm[1].toArray(), cl[1].toArray()));
  }

  @Test
  void scalarsOfEveryType() {
    OpenClDevice d = OpenClTesting.device();
    DoubleArray jvm = new DoubleArray(8), cl = new DoubleArray(8);
    both(d, onCl -> graph(task("s", (Task9<Byte, Short, Character, Integer, Long, Float, Double, Boolean, DoubleArray>)
        HandwrittenKernels::scalars, (byte) -5, (short) -300, (char) 60000, 123456, 1L << 40, 1.5f, Math.PI, true, onCl ? cl : jvm),
        DataTransferMode.EVERY_EXECUTION, new Object[0], new Object[] {onCl ? cl : jvm}), false,
        () -> assertArrayEquals(jvm.toArray(), cl.toArray()));
    assertEquals(60000.0, cl.get(2), "char is unsigned");
  }

  @Test
  void booleanArrays() {
    OpenClDevice d = OpenClTesting.device();
    boolean[] in = new boolean[100];
    Random r = new Random(8);
    for (int i = 0; i < in.length; i++) in[i] = r.nextBoolean();
    IntArray jvm = new IntArray(100), cl = new IntArray(100);
    boolean[] inCl = in.clone();
    both(d, onCl -> graph(task("f", (Task2<boolean[], IntArray>) HandwrittenKernels::flags, onCl ? inCl : in, onCl ? cl : jvm),
        DataTransferMode.EVERY_EXECUTION, new Object[] {onCl ? inCl : in}, new Object[] {onCl ? cl : jvm}), false,
        () -> assertArrayEquals(jvm.toArray(), cl.toArray()));
  }

  @Test
  void explicitKernelsWithAndWithoutALocalSize() {
    OpenClDevice d = OpenClTesting.device();
    for (WorkerGrid1D grid : new WorkerGrid1D[] {new WorkerGrid1D(200), (WorkerGrid1D) new WorkerGrid1D(200).setLocalWork(32, 1, 1)}) {
      IntArray jvm = new IntArray(200), cl = new IntArray(200);
      GridScheduler s = new GridScheduler("g.ids", grid);
      try (Engine.Executor j = OpenClTesting.jvm(); Engine.Executor c = OpenClTesting.opencl(d)) {
        for (IntArray out : new IntArray[] {jvm, cl})
          execute(out == jvm ? j : c, graph(task("ids", (Task2<KernelContext, IntArray>) HandwrittenKernels::ids, new KernelContext(), out),
              DataTransferMode.EVERY_EXECUTION, new Object[0], new Object[] {out}), false, s);
      }
      assertArrayEquals(jvm.toArray(), cl.toArray(), grid.toString());
    }
  }

  @Test
  void aLocalSizeTheDeviceCannotRunIsRefusedBeforeAnythingRuns() {
    OpenClDevice d = OpenClTesting.device();
    int n = 1000;
    FloatArray a = randomFloats(n, 9), b = randomFloats(n, 10), c = new FloatArray(n);
    c.init(7f);
    long tooMany = Math.min(Integer.MAX_VALUE, 2L * d.maxWorkGroupSize());
    GridScheduler s = new GridScheduler("g.vadd", new WorkerGrid1D(n).setLocalWork(tooMany, 1, 1));
    try (Engine.Executor cl = OpenClTesting.opencl(d)) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> execute(cl, graph(
          task("vadd", (Task3<FloatArray, FloatArray, FloatArray>) HandwrittenKernels::vadd, a, b, c),
          DataTransferMode.FIRST_EXECUTION, new Object[] {a, b, c}, new Object[] {c}), false, s));
      assertTrue(e.getMessage().contains("g.vadd") && e.getMessage().contains("local work size"), e.getMessage());
    }
    for (int i = 0; i < n; i++) assertEquals(7f, c.get(i), "host array unchanged");
  }

  @Test
  void profilingTimesComeFromDeviceEvents() {
    OpenClDevice d = OpenClTesting.device();
    int n = 1 << 18;
    FloatArray a = randomFloats(n, 11), b = randomFloats(n, 12), c = new FloatArray(n);
    try (Engine.Executor cl = OpenClTesting.opencl(d)) {
      GraphSpec g = graph(task("vadd", (Task3<FloatArray, FloatArray, FloatArray>) HandwrittenKernels::vadd, a, b, c),
          DataTransferMode.FIRST_EXECUTION, new Object[] {a, b}, new Object[] {c});
      Profile p = execute(cl, g, true);
      assertTrue(p.kernelNanos() > 0, p.toString());
      assertTrue(p.copyInNanos() > 0 && p.copyOutNanos() > 0, p.toString());
      assertEquals(1, p.tasks().size());
      assertTrue(p.tasks().get(0).kernelNanos() > 0);
      Profile unmeasured = execute(cl, g, false);
      assertEquals(0, unmeasured.kernelNanos());
    }
  }

  @Test
  void everyEventIsReleased() {
    OpenClDevice d = OpenClTesting.device();
    int n = 4096;
    FloatArray a = randomFloats(n, 13), b = randomFloats(n, 14), c = new FloatArray(n);
    float[] h = new float[n];
    OpenClRuntime rt = new OpenClRuntime(d, HandwrittenKernels.SOURCE, Settings.options());
    try (Engine.Executor cl = new GraphRunner(rt)) {
      GraphSpec offHeap = graph(task("vadd", (Task3<FloatArray, FloatArray, FloatArray>) HandwrittenKernels::vadd, a, b, c),
          DataTransferMode.EVERY_EXECUTION, new Object[] {a, b, c}, new Object[] {c});
      GraphSpec heap = graph(task("vaddHeap", (Task3<float[], float[], float[]>) HandwrittenKernels::vaddHeap, h, h, h),
          DataTransferMode.EVERY_EXECUTION, new Object[] {h}, new Object[] {h});
      for (int i = 0; i < 50; i++) {
        execute(cl, i % 2 == 0 ? offHeap : heap, i % 3 == 0);
        assertEquals(0, rt.liveEvents(), "after execution " + i);
      }
    }
  }

  @Test
  void anArrayTooLargeForTheDeviceIsAClearError() {
    OpenClDevice d = OpenClTesting.device();
    // A host array that claims more than the device's largest buffer, without allocating it on the host: doubles, so
    // that an int length reaches past a limit of up to 16 GiB (PoCL's depends on the memory free when it starts).
    long length = d.maxAllocationBytes() / 8 + 1;
    org.junit.jupiter.api.Assumptions.assumeTrue(length <= Integer.MAX_VALUE, d + " takes buffers of " + d.maxAllocationBytes() + " bytes");
    HostArray huge = new HostArray(new double[1], Prim.DOUBLE, (int) length);
    try (OpenClRuntime rt = new OpenClRuntime(d, HandwrittenKernels.SOURCE, Settings.options())) {
      OpenClException e = assertThrows(OpenClException.class, () -> rt.allocate(huge, false));
      assertTrue(e.outOfMemory(), e.getMessage());
      assertTrue(e.getMessage().contains(huge.describe()) && e.getMessage().contains(String.valueOf(huge.byteSize()))
          && e.getMessage().contains(d.id()), e.getMessage());
    }
  }

  @Test
  void aSecondTaskOfTheSameMethodReusesTheKernel() {
    OpenClDevice d = OpenClTesting.device();
    FloatArray a = new FloatArray(4);
    try (OpenClRuntime rt = new OpenClRuntime(d, HandwrittenKernels.SOURCE, Settings.options())) {
      Engine.ExecutionOptions o = new Engine.ExecutionOptions(false, new GridScheduler());
      DeviceRuntime.Prepared first = rt.prepare(task("x", (Task3<FloatArray, FloatArray, FloatArray>) HandwrittenKernels::vadd, a, a, a));
      DeviceRuntime.Prepared second = rt.prepare(task("y", (Task3<FloatArray, FloatArray, FloatArray>) HandwrittenKernels::vadd, a, a, a));
      assertSame(first.kernel(), second.kernel());
      assertFalse(second.compiled());
      assertEquals(0, second.compileNanos() + second.driverCompileNanos());
    }
  }

  @Test
  void emptyArraysAreValidArguments() {
    OpenClDevice d = OpenClTesting.device();
    FloatArray a = new FloatArray(0), b = new FloatArray(0), c = new FloatArray(0);
    float[] h = new float[0];
    try (Engine.Executor cl = OpenClTesting.opencl(d)) {
      Profile p = execute(cl, graph(task("vadd", (Task3<FloatArray, FloatArray, FloatArray>) HandwrittenKernels::vadd, a, b, c),
          DataTransferMode.EVERY_EXECUTION, new Object[] {a, b, c}, new Object[] {c}), true);
      assertEquals(0, p.bytesIn());
      execute(cl, graph(task("vaddHeap", (Task3<float[], float[], float[]>) HandwrittenKernels::vaddHeap, h, h, h),
          DataTransferMode.FIRST_EXECUTION, new Object[] {h}, new Object[] {h}), false);
    }
  }
}
