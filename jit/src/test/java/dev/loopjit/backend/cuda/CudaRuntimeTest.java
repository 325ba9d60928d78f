// End to end through GraphRunner on a CUDA GPU with handwritten PTX, each result compared with the same task on the jvm backend.
package dev.loopjit.backend.cuda;

import static dev.loopjit.backend.cuda.CudaTesting.execute;
import static dev.loopjit.backend.cuda.CudaTesting.graph;
import static dev.loopjit.backend.cuda.CudaTesting.task;
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
import dev.loopjit.api.WorkerGrid2D;
import dev.loopjit.ir.Prim;
import dev.loopjit.runtime.GraphRunner;
import dev.loopjit.runtime.GraphSpec;
import dev.loopjit.runtime.Settings;
import dev.loopjit.spi.DeviceBuffer;
import dev.loopjit.spi.DeviceRuntime;
import dev.loopjit.spi.HostArray;
import dev.loopjit.types.DoubleArray;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every test needs a CUDA GPU and skips (saying why) without one. The kernels are the handwritten
 * PTX of {@link HandwrittenPtx}; results must equal the jvm's exactly (the PTX rounds as Java does).
 */
class CudaRuntimeTest {
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

  private static Task3<FloatArray, FloatArray, FloatArray> vadd() {
    return HandwrittenPtx::vadd;
  }

  /** Runs the graph {@code make} builds on the jvm and on cuda, over copies of the same inputs; returns the cuda profile. */
  private static Profile both(CudaDevice d, Function<Boolean, GraphSpec> make, boolean profile, Runnable compare) {
    Profile p;
    try (Engine.Executor jvm = CudaTesting.jvm(); Engine.Executor cu = CudaTesting.cuda(d)) {
      execute(jvm, make.apply(false), false);
      p = execute(cu, make.apply(true), profile);
    }
    compare.run();
    return p;
  }

  @Test
  void vectorAddOnPinnedOffHeapArrays() {
    CudaDevice d = CudaTesting.device();
    int n = 1 << 20;   // 4 MiB each: above PinnedMemory.MIN_BYTES
    FloatArray[] jvm = {randomFloats(n, 1), randomFloats(n, 2), new FloatArray(n)};
    FloatArray[] cu = {randomFloats(n, 1), randomFloats(n, 2), new FloatArray(n)};
    Profile p = both(d, onCuda -> {
      FloatArray[] x = onCuda ? cu : jvm;
      return graph(task("vadd", vadd(), x[0], x[1], x[2]), DataTransferMode.EVERY_EXECUTION, new Object[] {x[0], x[1], x[2]},
          new Object[] {x[2]});
    }, false, () -> assertArrayEquals(jvm[2].toArray(), cu[2].toArray()));
    assertEquals(3L * n * 4, p.bytesIn(), "a discrete GPU copies everything, even what the runner would allow in place");
    assertEquals((long) n * 4, p.bytesOut());
    for (FloatArray a : cu) assertFalse(PinnedMemory.PROCESS.pinned(HostArray.of(a)), "unpinned when the plan closed");
  }

  @Test
  void offHeapArraysArePinnedWhileThePlanHoldsThem() {
    CudaDevice d = CudaTesting.device();
    FloatArray big = randomFloats(1 << 16, 3), small = randomFloats(100, 4), out = new FloatArray(1 << 16);
    CudaRuntime rt = new CudaRuntime(d, HandwrittenPtx.SOURCE, Settings.options());
    try (Engine.Executor cu = new GraphRunner(rt)) {
      execute(cu, graph(task("vadd", vadd(), big, big, out), DataTransferMode.EVERY_EXECUTION, new Object[] {big}, new Object[] {out}), false);
      if (d.hostRegisterSupported()) {
        assertTrue(PinnedMemory.PROCESS.pinned(HostArray.of(big)), "256 KiB is pinned");
        // out too, unless the driver refused it for sharing a page with big (then its copies are pageable, still right)
        assertTrue(rt.pinnedArrays() >= 1 && rt.pinnedArrays() <= 2, "big and out: " + rt.pinnedArrays());
      }
      assertFalse(PinnedMemory.PROCESS.pinned(HostArray.of(small)), "small arrays are never pinned");
      try (Engine.Executor second = CudaTesting.cuda(d)) {   // a second plan shares the registration
        FloatArray out2 = new FloatArray(1 << 16);
        execute(second, graph(task("vadd", vadd(), big, big, out2), DataTransferMode.EVERY_EXECUTION, new Object[] {big},
            new Object[] {out2}), false);
        assertArrayEquals(out.toArray(), out2.toArray());
      }
      if (d.hostRegisterSupported()) assertTrue(PinnedMemory.PROCESS.pinned(HostArray.of(big)), "still pinned for the first plan");
      for (int i = 0; i < out.getSize(); i++) assertEquals(big.get(i) + big.get(i), out.get(i));
    }
    assertFalse(PinnedMemory.PROCESS.pinned(HostArray.of(big)), "unpinned by the last plan to close");
    assertEquals(0, rt.pinnedArrays());
  }

  @Test
  void vectorAddThroughPooledDeviceMemory() {
    CudaDevice d = CudaTesting.device();
    int n = 10_000;
    FloatArray[] jvm = {randomFloats(n, 3), randomFloats(n, 4), new FloatArray(n)};
    FloatArray[] cu = {randomFloats(n, 3), randomFloats(n, 4), new FloatArray(n)};
    Profile p = both(d, onCuda -> {
      FloatArray[] x = onCuda ? cu : jvm;
      return graph(task("vadd", vadd(), x[0], x[1], x[2]), DataTransferMode.FIRST_EXECUTION, new Object[] {x[0], x[1]},
          new Object[] {x[2]});
    }, false, () -> assertArrayEquals(jvm[2].toArray(), cu[2].toArray()));
    assertEquals(3L * n * 4, p.bytesIn());
    assertEquals((long) n * 4, p.bytesOut());
    long free = d.context().pool().freeBytes();
    assertTrue(free >= 3L * n * 4, "the closed plan's memory went back to the pool: " + free);
    try (Engine.Executor again = CudaTesting.cuda(d)) {
      execute(again, graph(task("vadd", vadd(), cu[0], cu[1], cu[2]), DataTransferMode.FIRST_EXECUTION, new Object[] {cu[0], cu[1]},
          new Object[] {cu[2]}), false);
      assertTrue(d.context().pool().freeBytes() <= free - 3L * n * 4, "a second plan reuses it");
    }
  }

  @Test
  void heapArraysOfAPrimeLength() {
    CudaDevice d = CudaTesting.device();
    int n = 997;
    float[][] jvm = {randomFloats(n, 5).toArray(), randomFloats(n, 6).toArray(), new float[n]};
    float[][] cu = {jvm[0].clone(), jvm[1].clone(), new float[n]};
    Profile p = both(d, onCuda -> {
      float[][] x = onCuda ? cu : jvm;
      return graph(task("vaddHeap", (Task3<float[], float[], float[]>) HandwrittenPtx::vaddHeap, x[0], x[1], x[2]),
          DataTransferMode.EVERY_EXECUTION, new Object[] {x[0], x[1]}, new Object[] {x[2]});
    }, true, () -> assertArrayEquals(jvm[2], cu[2]));
    assertEquals(3L * n * 4, p.bytesIn(), "heap arrays are copied, the written one too (on first use)");
    assertTrue(p.copyInNanos() > 0 && p.copyOutNanos() > 0, "synchronous copies are timed on the host: " + p);
  }

  @Test
  void largeHeapArrays() {
    CudaDevice d = CudaTesting.device();
    int n = 3 << 20;   // 12 MiB each: the critical-call copies move real amounts
    float[][] jvm = {randomFloats(n, 15).toArray(), randomFloats(n, 16).toArray(), new float[n]};
    float[][] cu = {jvm[0].clone(), jvm[1].clone(), new float[n]};
    both(d, onCuda -> {
      float[][] x = onCuda ? cu : jvm;
      return graph(task("vaddHeap", (Task3<float[], float[], float[]>) HandwrittenPtx::vaddHeap, x[0], x[1], x[2]),
          DataTransferMode.EVERY_EXECUTION, new Object[] {x[0], x[1]}, new Object[] {x[2]});
    }, false, () -> assertArrayEquals(jvm[2], cu[2]));
  }

  @Test
  void aPrimeRangeRunsInBlocksOf256() {
    CudaDevice d = CudaTesting.device();
    IntArray out = new IntArray(997);
    try (Engine.Executor cu = CudaTesting.cuda(d)) {
      execute(cu, graph(task("local", (Task1<IntArray>) HandwrittenPtx::localSizes, out), DataTransferMode.EVERY_EXECUTION,
          new Object[0], new Object[] {out}), false);
    }
    for (int i = 0; i < out.getSize(); i++) assertEquals(256, out.get(i), "every thread ran, in blocks of 256; index " + i);
  }

  @Test
  void aGivenLocalSizeIsTheBlockSize() {
    CudaDevice d = CudaTesting.device();
    IntArray out = new IntArray(997);
    GridScheduler s = new GridScheduler("g.local", new WorkerGrid1D(997).setLocalWork(32, 1, 1));
    try (Engine.Executor cu = CudaTesting.cuda(d)) {
      execute(cu, graph(task("local", (Task1<IntArray>) HandwrittenPtx::localSizes, out), DataTransferMode.EVERY_EXECUTION,
          new Object[0], new Object[] {out}), false, s);
    }
    for (int i = 0; i < out.getSize(); i++) assertEquals(32, out.get(i), "index " + i);
  }

  @Test
  void a2dKernelWithAndWithoutALocalSize() {
    CudaDevice d = CudaTesting.device();
    int rows = 37, cols = 53;
    for (GridScheduler s : new GridScheduler[] {new GridScheduler(), new GridScheduler("g.s", new WorkerGrid2D(cols, rows).setLocalWork(8, 4, 1))}) {
      FloatArray[] jvm = {randomFloats(rows * cols, 7), new FloatArray(rows * cols)};
      FloatArray[] cu = {randomFloats(rows * cols, 7), new FloatArray(rows * cols)};
      try (Engine.Executor j = CudaTesting.jvm(); Engine.Executor c = CudaTesting.cuda(d)) {
        for (FloatArray[] x : List.of(jvm, cu))   // the jvm runs the loops themselves, so it takes no launch grid
          execute(x == jvm ? j : c, graph(task("s", (Task4<FloatArray, FloatArray, Integer, Integer>) HandwrittenPtx::scale2d, x[0], x[1],
              rows, cols), DataTransferMode.EVERY_EXECUTION, new Object[] {x[0]}, new Object[] {x[1]}), false,
              x == jvm ? new GridScheduler() : s);
      }
      assertArrayEquals(jvm[1].toArray(), cu[1].toArray(), s.toString());
    }
  }

  @Test
  void scalarsOfEveryType() {
    CudaDevice d = CudaTesting.device();
    DoubleArray jvm = new DoubleArray(8), cu = new DoubleArray(8);
    both(d, onCuda -> graph(task("s", (Task9<Byte, Short, Character, Integer, Long, Float, Double, Boolean, DoubleArray>)
        HandwrittenPtx::scalars, (byte) -5, (short) -300, (char) 60000, 123456, 1L << 40, 1.5f, Math.PI, true, onCuda ? cu : jvm),
        DataTransferMode.EVERY_EXECUTION, new Object[0], new Object[] {onCuda ? cu : jvm}), false,
        () -> assertArrayEquals(jvm.toArray(), cu.toArray()));
    assertEquals(-5.0, cu.get(0), "byte is signed");
    assertEquals(60000.0, cu.get(2), "char is unsigned");
    assertEquals(0x1p40, cu.get(4), "long is 64 bits");
  }

  @Test
  void booleanArrays() {
    CudaDevice d = CudaTesting.device();
    boolean[] in = new boolean[100];
    Random r = new Random(8);
    for (int i = 0; i < in.length; i++) in[i] = r.nextBoolean();
    IntArray jvm = new IntArray(100), cu = new IntArray(100);
    boolean[] inCu = in.clone();
    both(d, onCuda -> graph(task("f", (Task2<boolean[], IntArray>) HandwrittenPtx::flags, onCuda ? inCu : in, onCuda ? cu : jvm),
        DataTransferMode.EVERY_EXECUTION, new Object[] {onCuda ? inCu : in}, new Object[] {onCuda ? cu : jvm}), false,
        () -> assertArrayEquals(jvm.toArray(), cu.toArray()));
    assertArrayEquals(in, inCu, "the boolean[] itself is unchanged");
  }

  @Test
  void explicitKernelsWithAndWithoutALocalSize() {
    CudaDevice d = CudaTesting.device();
    for (WorkerGrid1D grid : new WorkerGrid1D[] {new WorkerGrid1D(200), (WorkerGrid1D) new WorkerGrid1D(200).setLocalWork(32, 1, 1)}) {
      IntArray jvm = new IntArray(200), cu = new IntArray(200);
      GridScheduler s = new GridScheduler("g.ids", grid);
      try (Engine.Executor j = CudaTesting.jvm(); Engine.Executor c = CudaTesting.cuda(d)) {
        for (IntArray out : new IntArray[] {jvm, cu})
          execute(out == jvm ? j : c, graph(task("ids", (Task2<KernelContext, IntArray>) HandwrittenPtx::ids, new KernelContext(), out),
              DataTransferMode.EVERY_EXECUTION, new Object[0], new Object[] {out}), false, s);
      }
      assertArrayEquals(jvm.toArray(), cu.toArray(), grid.toString());
    }
  }

  @Test
  void sharedMemoryAndBarriers() {
    CudaDevice d = CudaTesting.device();
    int n = 200;
    IntArray in = new IntArray(n);
    for (int i = 0; i < n; i++) in.set(i, i * 7 - 50);
    for (WorkerGrid1D grid : new WorkerGrid1D[] {new WorkerGrid1D(n), (WorkerGrid1D) new WorkerGrid1D(n).setLocalWork(64, 1, 1)}) {
      IntArray jvm = new IntArray(n), cu = new IntArray(n);
      GridScheduler s = new GridScheduler("g.rev", grid);
      try (Engine.Executor j = CudaTesting.jvm(); Engine.Executor c = CudaTesting.cuda(d)) {
        for (IntArray out : new IntArray[] {jvm, cu})
          execute(out == jvm ? j : c, graph(task("rev", (Task3<KernelContext, IntArray, IntArray>) HandwrittenPtx::reverseInGroups,
              new KernelContext(), in, out), DataTransferMode.EVERY_EXECUTION, new Object[] {in}, new Object[] {out}), false, s);
      }
      assertArrayEquals(jvm.toArray(), cu.toArray(), grid.toString());
      assertEquals(in.get(63), cu.get(0), "the first block reversed");
    }
  }

  @Test
  void aLocalSizeTheDeviceCannotRunIsRefusedBeforeAnythingRuns() {
    CudaDevice d = CudaTesting.device();
    int n = 1000;
    FloatArray a = randomFloats(n, 9), b = randomFloats(n, 10), c = new FloatArray(n);
    c.init(7f);
    GridScheduler s = new GridScheduler("g.vadd", new WorkerGrid1D(n).setLocalWork(2L * d.maxWorkGroupSize(), 1, 1));
    try (Engine.Executor cu = CudaTesting.cuda(d)) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> execute(cu, graph(task("vadd", vadd(), a, b, c),
          DataTransferMode.FIRST_EXECUTION, new Object[] {a, b, c}, new Object[] {c}), false, s));
      assertTrue(e.getMessage().contains("g.vadd") && e.getMessage().contains("local work size"), e.getMessage());
    }
    for (int i = 0; i < n; i++) assertEquals(7f, c.get(i), "host array unchanged");
  }

  @Test
  void profilingTimesComeFromDeviceEvents() {
    CudaDevice d = CudaTesting.device();
    int n = 1 << 18;
    FloatArray a = randomFloats(n, 11), b = randomFloats(n, 12), c = new FloatArray(n);
    try (Engine.Executor cu = CudaTesting.cuda(d)) {
      GraphSpec g = graph(task("vadd", vadd(), a, b, c), DataTransferMode.FIRST_EXECUTION, new Object[] {a, b}, new Object[] {c});
      long t0 = System.nanoTime();
      Profile p = execute(cu, g, true);
      long wall = System.nanoTime() - t0;
      assertTrue(p.kernelNanos() > 0, p.toString());
      assertTrue(p.copyInNanos() > 0 && p.copyOutNanos() > 0, p.toString());
      // the events time what happened inside this execute: never more than its wall time (no bound on the size, which load decides)
      assertTrue(p.kernelNanos() + p.copyInNanos() + p.copyOutNanos() <= wall, "device events inside the execution's " + wall + " ns: " + p);
      assertEquals(1, p.tasks().size());
      assertTrue(p.tasks().get(0).kernelNanos() > 0);
      assertTrue(p.compileNanos() >= 0 && p.kernelsCompiled() <= 1, p.toString());
      Profile unmeasured = execute(cu, g, false);
      assertEquals(0, unmeasured.kernelNanos());
    }
  }

  @Test
  void eventsAreReusedAndEveryOneIsDestroyed() {
    CudaDevice d = CudaTesting.device();
    int n = 1 << 15;
    FloatArray a = randomFloats(n, 13), b = randomFloats(n, 14), c = new FloatArray(n);
    float[] h = new float[n];
    CudaRuntime rt = new CudaRuntime(d, HandwrittenPtx.SOURCE, Settings.options());
    try (Engine.Executor cu = new GraphRunner(rt)) {
      GraphSpec offHeap = graph(task("vadd", vadd(), a, b, c), DataTransferMode.EVERY_EXECUTION, new Object[] {a, b, c}, new Object[] {c});
      GraphSpec heap = graph(task("vaddHeap", (Task3<float[], float[], float[]>) HandwrittenPtx::vaddHeap, h, h, h),
          DataTransferMode.EVERY_EXECUTION, new Object[] {h}, new Object[] {h});
      int afterFirst = 0;
      for (int i = 0; i < 50; i++) {
        execute(cu, i % 2 == 0 ? offHeap : heap, i % 3 == 0);
        assertEquals(0, rt.liveEvents(), "after execution " + i);
        // pooled: what the first executions created serves every later one
        if (i == 1) afterFirst = rt.createdEvents();
        if (i > 1) assertEquals(afterFirst, rt.createdEvents(), "events created by execution " + i);
      }
      assertTrue(afterFirst > 0 && afterFirst <= 12, "events for one execution's copies and launch: " + afterFirst);
    }
    assertEquals(0, rt.liveEvents());
    assertEquals(0, rt.createdEvents(), "every event destroyed when the plan closes");
    CudaRuntime quiet = new CudaRuntime(d, HandwrittenPtx.SOURCE, Settings.options());
    try (Engine.Executor cu = new GraphRunner(quiet)) {
      GraphSpec offHeap = graph(task("vadd", vadd(), a, b, c), DataTransferMode.EVERY_EXECUTION, new Object[] {a, b, c}, new Object[] {c});
      for (int i = 0; i < 3; i++) execute(cu, offHeap, false);
      assertEquals(0, quiet.createdEvents(), "no profiler, no events");
    }
  }

  /**
   * A fault (a kernel writing far past its array, bounds checks off) is reported as one, naming the
   * device and saying to restart; the plan stays failed and closes quietly; NVIDIA's driver keeps
   * the fault until the process exits (an H200 answered every later context with it), so a new plan
   * fails at once, naming the first fault, and so does every plan after it. In a process of its own.
   */
  @Test
  void aFaultIsReportedAsOneAndLaterPlansSayTheProcessMustRestart() throws Exception {
    CudaDevice d = CudaTesting.device();
    var steps = FaultInItsOwnProcess.run();
    String first = steps.get("first");
    assertTrue(first.startsWith("CudaException") && first.contains("context is lost") && first.contains("no plan on " + d.id())
        && first.contains("restart"), "no write faulted, or not as one: " + steps);
    assertTrue(steps.get("again").startsWith("CudaException"), "the plan that faulted stays failed: " + steps.get("again"));
    assertEquals("ok", steps.get("close"), "closing it does not throw: the fault was reported when it happened");
    String next = steps.get("next");
    assertTrue(next.contains(d.id()) && next.contains("cannot run anything more in this process") && next.contains("faulted earlier")
        && next.contains("restart the JVM"), next);
    assertTrue(next.contains(first.substring("CudaException: ".length(), "CudaException: ".length() + 30)), "names the first fault: " + next);
    assertEquals(next.substring(next.indexOf("cannot run")), steps.get("after").substring(steps.get("after").indexOf("cannot run")),
        "every later plan says the same");
    assertEquals("[1, 2, 3]", steps.get("b"), "nothing ran after the fault, and no data was lost");
  }

  /**
   * Heap arrays of up to {@link CudaRuntime#SMALL_UP_TO} bytes go through the page-locked small
   * buffer with no wait per copy: the host array changes only when the stream is waited for, then
   * holds the device's bytes; more small copies than the buffer holds wait for it and go on; a
   * larger heap array takes the synchronous path.
   */
  @Test
  void smallHeapArraysAreCopiedWithoutAWaitEach() {
    CudaDevice d = CudaTesting.device();
    try (CudaRuntime rt = new CudaRuntime(d, HandwrittenPtx.SOURCE, Settings.options())) {
      int copies = (int) (CudaRuntime.SMALL_BYTES / CudaRuntime.SMALL_UP_TO) + 3;   // past one buffer's worth
      List<long[]> hosts = new ArrayList<>();
      List<DeviceBuffer> buffers = new ArrayList<>();
      for (int k = 0; k < copies; k++) {
        long[] h = new long[(int) (CudaRuntime.SMALL_UP_TO / 8)];
        java.util.Arrays.fill(h, k * 1000L + 7);
        hosts.add(h);
        DeviceBuffer b = rt.allocate(HostArray.of(h), false);
        buffers.add(b);
        rt.copyIn(b);
      }
      for (long[] h : hosts) java.util.Arrays.fill(h, -1L);   // the device has the copies: what the host does now does not matter
      for (DeviceBuffer b : buffers) rt.copyOut(b);
      rt.finish();
      for (int k = 0; k < copies; k++) assertEquals(k * 1000L + 7, hosts.get(k)[hosts.get(k).length - 1], "array " + k);
      assertEquals(2 * copies, rt.smallCopies());
      long[] big = new long[(int) (CudaRuntime.SMALL_UP_TO / 8) + 1];
      DeviceBuffer b = rt.allocate(HostArray.of(big), false);
      rt.copyIn(b);
      rt.finish();
      assertEquals(2 * copies, rt.smallCopies(), "a larger heap array is copied synchronously");
      b.release();
      for (DeviceBuffer x : buffers) x.release();
    }
  }

  /** A heap array past {@link CudaRuntime#STAGED_FROM} goes through the staging buffer in slices, not a critical downcall: round trip exact. */
  @Test
  void largeHeapArraysAreCopiedThroughTheStagingBuffer() {
    CudaDevice d = CudaTesting.device();
    int n = (int) (CudaRuntime.STAGE_BYTES / 4) * 2 + 12345;   // two whole slices and a part
    float[] host = new float[n];
    for (int i = 0; i < n; i++) host[i] = i * 0.5f - 7;
    float[] expected = host.clone();
    try (CudaRuntime rt = new CudaRuntime(d, HandwrittenPtx.SOURCE, Settings.options())) {
      DeviceBuffer in = rt.allocate(HostArray.of(host), false);
      rt.copyIn(in);
      rt.finish();
      assertEquals(1, rt.stagedCopies());
      java.util.Arrays.fill(host, 0f);   // then read back from the device over it
      rt.copyOut(in);
      rt.finish();
      assertEquals(2, rt.stagedCopies());
      assertArrayEquals(expected, host);
      int[] small = {1, 2, 3};
      DeviceBuffer s = rt.allocate(HostArray.of(small), false);
      rt.copyIn(s);
      rt.finish();
      assertEquals(2, rt.stagedCopies(), "a small heap array is copied directly");
      in.release();
      s.release();
    }
  }

  @Test
  void runningOutOfDeviceMemoryIsAClearError() {
    CudaDevice d = CudaTesting.device();
    // Host arrays that claim 16 GiB each without allocating them on the host: heap, so nothing is pinned.
    HostArray huge = new HostArray(new long[1], Prim.LONG, Integer.MAX_VALUE);
    List<DeviceBuffer> held = new ArrayList<>();
    CudaException e = null;
    try (CudaRuntime rt = new CudaRuntime(d, HandwrittenPtx.SOURCE, Settings.options())) {
      for (long i = 0; i <= d.memoryBytes() / huge.byteSize() + 1 && e == null; i++) {
        try {
          held.add(rt.allocate(huge, false));
        } catch (CudaException x) {
          e = x;
        }
      }
      for (DeviceBuffer b : held) b.release();
    } finally {
      d.context().pool().drain();
    }
    assertTrue(e != null, "the device ran out after " + held.size() + " allocations of " + huge.byteSize() + " bytes");
    assertTrue(e.outOfMemory(), e.getMessage());
    String m = e.getMessage();
    assertTrue(m.contains(huge.describe()) && m.contains(String.valueOf(huge.byteSize())) && m.contains(d.id()) && m.contains("MiB free"), m);
  }

  @Test
  void aSecondTaskOfTheSameMethodReusesTheKernel() {
    CudaDevice d = CudaTesting.device();
    FloatArray a = new FloatArray(4);
    try (CudaRuntime rt = new CudaRuntime(d, HandwrittenPtx.SOURCE, Settings.options())) {
      Engine.ExecutionOptions o = new Engine.ExecutionOptions(false, new GridScheduler());
      DeviceRuntime.Prepared first = rt.prepare(task("x", vadd(), a, a, a));
      DeviceRuntime.Prepared second = rt.prepare(task("y", vadd(), a, a, a));
      assertSame(first.kernel(), second.kernel());
      assertFalse(second.compiled());
      assertEquals(0, second.compileNanos() + second.driverCompileNanos());
      assertTrue(((dev.loopjit.spi.CompiledKernel<?>) first.kernel()).maxGroup() >= 256, "the kernel runs blocks of 256 at least");
    }
  }

  @Test
  void emptyArraysAreValidArguments() {
    CudaDevice d = CudaTesting.device();
    FloatArray a = new FloatArray(0), b = new FloatArray(0), c = new FloatArray(0);
    float[] h = new float[0];
    try (Engine.Executor cu = CudaTesting.cuda(d)) {
      Profile p = execute(cu, graph(task("vadd", vadd(), a, b, c), DataTransferMode.EVERY_EXECUTION, new Object[] {a, b, c},
          new Object[] {c}), true);
      assertEquals(0, p.bytesIn());
      execute(cu, graph(task("vaddHeap", (Task3<float[], float[], float[]>) HandwrittenPtx::vaddHeap, h, h, h),
          DataTransferMode.FIRST_EXECUTION, new Object[] {h}, new Object[] {h}), false);
    }
  }

  @Test
  void plansOnTheSameDeviceFromTwoThreads() throws Exception {
    CudaDevice d = CudaTesting.device();
    int n = 1 << 16;
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int t = 0; t < 2; t++) {
      int seed = t;
      threads.add(Thread.ofPlatform().start(() -> {
        try {
          FloatArray a = randomFloats(n, 100 + seed), b = randomFloats(n, 200 + seed), c = new FloatArray(n);
          try (Engine.Executor cu = CudaTesting.cuda(d)) {
            for (int i = 0; i < 10; i++)
              execute(cu, graph(task("vadd", vadd(), a, b, c), DataTransferMode.EVERY_EXECUTION, new Object[] {a, b}, new Object[] {c}), false);
          }
          for (int i = 0; i < n; i++) assertEquals(a.get(i) + b.get(i), c.get(i), "thread " + seed + " index " + i);
        } catch (Throwable e) {
          failures.add(e);
        }
      }));
    }
    for (Thread t : threads) t.join();
    assertTrue(failures.isEmpty(), "each thread makes the context current for itself: " + failures);
  }
}
