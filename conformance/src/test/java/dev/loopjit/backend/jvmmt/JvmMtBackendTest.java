// The jvm-mt device: registered and ranked, chunk edges, work-item state, reductions, barriers, failures, many threads.
package dev.loopjit.backend.jvmmt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.GridScheduler;
import dev.loopjit.api.KernelCode;
import dev.loopjit.api.KernelCompilationException;
import dev.loopjit.api.KernelContext;
import dev.loopjit.api.KernelIndexOutOfBoundsException;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.api.WorkerGrid1D;
import dev.loopjit.api.WorkerGrid2D;
import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.DoubleArray;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.HalfFloatArray;
import dev.loopjit.types.IntArray;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JvmMtBackendTest {
  private static Device mt() {
    return Devices.get("jvm-mt");
  }

  /** Runs {@code check} and fails unless jvm-mt was one of the devices it ran on. */
  private static void onJvmMt(KernelCheck check) {
    KernelCheck.Result r = check.run();
    assertTrue(r.ranOn("jvm-mt"), r.kernel() + " did not run on jvm-mt: " + r.devices());
  }

  @Test
  void isListedAfterTheJvmAndIsTheBestWithoutOpenClOrCuda() {
    List<String> ids = Devices.all().stream().map(Device::id).toList();
    assertEquals("jvm", ids.get(0));
    assertTrue(ids.contains("jvm-mt"), ids.toString());
    Device d = mt();
    assertEquals(Device.Kind.JVM, d.kind());
    assertEquals("jvm-mt", d.backend());
    assertEquals(Runtime.getRuntime().availableProcessors(), d.computeUnits());
    String before = System.getProperty("loopjit.backends");
    System.setProperty("loopjit.backends", "jvm,jvm-mt");
    try {
      if (System.getProperty("loopjit.device") == null && System.getenv("LOOPJIT_DEVICE") == null) assertEquals("jvm-mt", Devices.best().id());
    } finally {
      if (before == null) System.clearProperty("loopjit.backends");
      else System.setProperty("loopjit.backends", before);
    }
  }

  @Test
  void chunkCountsCoverTheRangeOuterDimensionsFirst() {
    assertArrayEquals(new long[] {8, 1, 1}, Cores.chunkGrid(new long[] {1 << 20}, 2));
    assertArrayEquals(new long[] {3, 1, 1}, Cores.chunkGrid(new long[] {3}, 2));
    assertArrayEquals(new long[] {1, 8, 1}, Cores.chunkGrid(new long[] {1024, 1024}, 2));
    assertArrayEquals(new long[] {4, 2, 1}, Cores.chunkGrid(new long[] {1024, 2}, 2));
    assertArrayEquals(new long[] {1, 1, 8}, Cores.chunkGrid(new long[] {5, 5, 100}, 2));
    assertArrayEquals(new long[] {1, 1, 1}, Cores.chunkGrid(new long[] {1}, 16));
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 7, 8, 9, 63, 1023, 4097, 100_003})
  void everyRangeSizeSplitsIntoChunksThatCoverIt(int n) {
    onJvmMt(KernelCheck.of("scaleAdd/" + n, ChunkKernels::scaleAdd)
        .args(() -> new Object[] {new Inputs(n).ints(n), new int[n], 3}));
    onJvmMt(KernelCheck.of("everyThirdBackwards/" + n, ChunkKernels::everyThirdBackwards)
        .args(() -> new Object[] {new Inputs(n).floats(n, -4f, 4f), new float[n]}));
  }

  @ParameterizedTest
  @ValueSource(strings = {"1x1", "1x1000", "1000x1", "3x5", "17x33", "300x301"})
  void twoDimensionalRangesOfAnyShape(String shape) {
    int rows = Integer.parseInt(shape.split("x")[0]), cols = Integer.parseInt(shape.split("x")[1]);
    onJvmMt(KernelCheck.of("table/" + shape, ChunkKernels::table).args(() -> new Object[] {new IntArray(rows * cols), rows, cols}));
  }

  @Test
  void threeDimensionalRanges() {
    for (int[] s : new int[][] {{1, 1, 1}, {7, 3, 2}, {2, 3, 50}, {40, 1, 1}})
      onJvmMt(KernelCheck.of("cube/" + s[0] + "x" + s[1] + "x" + s[2], ChunkKernels::cube)
          .args(() -> new Object[] {new int[s[0] * s[1] * s[2]], s[0], s[1], s[2]}));
  }

  @Test
  void halfFloatArraysRoundAsTheJvmDoes() {
    onJvmMt(KernelCheck.of("halves", ChunkKernels::halves).args(() -> {
      float[] v = new Inputs(5).floats(3001, -100f, 100f);
      HalfFloatArray a = new HalfFloatArray(v.length);
      for (int i = 0; i < v.length; i++) a.set(i, v[i]);
      return new Object[] {a, new HalfFloatArray(v.length)};
    }));
  }

  /**
   * A variable, parameter or private array element set before the nest and updated in it: Java
   * carries the value from one iteration to the next, a work-item (or a chunk on jvm-mt) would start
   * from the value before the nest. Once every device but the jvm gave the latter; now every device,
   * the jvm included, refuses the kernel at the line that reads the carried value (issue #26).
   */
  @Test
  void aValueCarriedFromOneIterationToTheNextIsRefusedEverywhere() {
    for (Device d : Devices.all()) {
      for (var k : List.<dev.loopjit.api.Task2<int[], Integer>>of(ChunkKernels::startsFresh, ChunkKernels::parameterStartsFresh)) {
        KernelCompilationException e = assertThrows(KernelCompilationException.class, () -> run(d, k, 100, 7), d.id());
        assertEquals("a value carried between @Parallel iterations", e.construct(), e.getMessage());
      }
      int[] p = new int[100];
      TaskGraph g = new TaskGraph("g").task("t", ChunkKernels::privateArrayStartsFresh, p).transferToHost(DataTransferMode.EVERY_EXECUTION, p);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
        KernelCompilationException e = assertThrows(KernelCompilationException.class, () -> plan.withDevice(d).execute(), d.id());
        assertTrue(e.getMessage().contains("private array 't'"), e.getMessage());
      }
      assertArrayEquals(new int[100], p, d.id());
    }
  }

  private static int[] run(Device d, dev.loopjit.api.Task2<int[], Integer> k, int n, int base) {
    int[] out = new int[n];
    TaskGraph g = new TaskGraph("g").task("t", k, out, base).transferToHost(DataTransferMode.EVERY_EXECUTION, out);
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
      plan.withDevice(d).execute();
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 5, 1000, 65_537})
  void reductionsOfEveryOperatorAndType(int n) {
    Inputs in = new Inputs(40 + n);
    int[] small = in.ints(n, -50, 50);
    int[] signs = in.ints(n, 0, 2);
    onJvmMt(KernelCheck.of("sumInt", ChunkKernels::sumInt).args(() -> new Object[] {new Inputs(1).ints(n), new int[] {11}}));
    onJvmMt(KernelCheck.of("productInt", ChunkKernels::productInt).args(() -> new Object[] {new Inputs(2).ints(n), new int[] {3}}));
    onJvmMt(KernelCheck.of("minMaxInt", ChunkKernels::minMaxInt)
        .args(() -> new Object[] {new Inputs(3).ints(n), new int[] {Integer.MAX_VALUE, Integer.MIN_VALUE}}));
    onJvmMt(KernelCheck.of("sumLong", ChunkKernels::sumLong).args(() -> new Object[] {new Inputs(4).longs(n), new long[] {-5}}));
    onJvmMt(KernelCheck.of("productLong", ChunkKernels::productLong).args(() -> new Object[] {new Inputs(5).longs(n), new long[] {1}}));
    onJvmMt(KernelCheck.of("minLong", ChunkKernels::minLong).args(() -> new Object[] {new Inputs(6).longs(n), new long[] {0}}));
    onJvmMt(KernelCheck.of("maxLong", ChunkKernels::maxLong).args(() -> new Object[] {new Inputs(7).longs(n), new long[] {0}}));
    // small integers and ±1, ±2 factors: exact in any order, so every device must match bit for bit
    onJvmMt(KernelCheck.of("sumFloat", ChunkKernels::sumFloat).args(() -> new Object[] {floats(small), new float[] {0.5f}}));
    onJvmMt(KernelCheck.of("productFloat", ChunkKernels::productFloat).args(() -> new Object[] {factors(signs, 64), new float[] {-1f}}));
    onJvmMt(KernelCheck.of("minMaxFloat", ChunkKernels::minMaxFloat).args(() -> new Object[] {new Inputs(8).floats(n, -1e30f, 1e30f),
        new float[] {Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY}}));
    onJvmMt(KernelCheck.of("sumDouble", ChunkKernels::sumDouble).args(() -> new Object[] {doubles(small), new double[] {0.25}}));
    onJvmMt(KernelCheck.of("productDouble", ChunkKernels::productDouble).args(() -> new Object[] {doubles(factors(signs, 512)), new double[] {2}}));
    onJvmMt(KernelCheck.of("minMaxDouble", ChunkKernels::minMaxDouble).args(() -> new Object[] {new Inputs(9).doubles(n, -1e300, 1e300),
        new double[] {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}}));
  }

  @Test
  void aTwoDimensionalReductionAddsEveryChunkOnce() {
    for (int[] s : new int[][] {{1, 1}, {3, 1000}, {1000, 3}, {97, 101}})
      onJvmMt(KernelCheck.of("sum2d/" + s[0] + "x" + s[1], ChunkKernels::sum2d)
          .args(() -> new Object[] {new Inputs(s[0]).ints(s[0] * s[1]), new long[] {1}, s[0], s[1]}));
  }

  private static float[] floats(int[] v) {
    float[] f = new float[v.length];
    for (int i = 0; i < v.length; i++) f[i] = v[i];
    return f;
  }

  private static double[] doubles(int[] v) {
    double[] d = new double[v.length];
    for (int i = 0; i < v.length; i++) d[i] = v[i];
    return d;
  }

  private static double[] doubles(float[] v) {
    double[] d = new double[v.length];
    for (int i = 0; i < v.length; i++) d[i] = v[i];
    return d;
  }

  /** Factors ±1, with a 2 or a ½ every {@code every}-th element alternately: products stay exact. */
  private static float[] factors(int[] signs, int every) {
    float[] f = new float[signs.length];
    for (int i = 0; i < f.length; i++) f[i] = (signs[i] == 0 ? -1f : 1f) * (i % every == 0 ? (i / every % 2 == 0 ? 2f : 0.5f) : 1f);
    return f;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 8, 64, 256})
  void workGroupsMeetAtTheirBarriers(int local) {
    int n = 4096 + 5;
    onJvmMt(KernelCheck.of("groupSums/" + local, ChunkKernels::groupSums)
        .grid(new WorkerGrid1D(n).setLocalWork(local, 1, 1))
        .args(() -> new Object[] {new KernelContext(), IntArray.fromArray(new Inputs(local).ints(n, -1000, 1000)),
            new IntArray((n + local - 1) / local)}));
  }

  @Test
  void twoDimensionalWorkGroupsShareLocalMemory() {
    onJvmMt(KernelCheck.of("reverseTiles", ChunkKernels::reverseTiles).grid(new WorkerGrid2D(64, 40).setLocalWork(8, 8, 1))
        .args(() -> new Object[] {new KernelContext(), IntArray.fromArray(new Inputs(3).ints(64 * 40)), new IntArray(64 * 40), 64}));
  }

  @Test
  void groupsWithoutBarriersRunTheirItemsInALoopAndAtomicsAddUp() {
    int n = 100_000;
    onJvmMt(KernelCheck.of("histogram", ChunkKernels::histogram).grid(new WorkerGrid1D(n).setLocalWork(128, 1, 1))
        .args(() -> new Object[] {new KernelContext(), IntArray.fromArray(new Inputs(9).ints(n)), new IntArray(16)}));
  }

  @Test
  void anIndexOutOfBoundsThrowsNamingTheArrayAndLeavesTheHostArraysAlone() {
    int n = 5000;
    FloatArray a = FloatArray.fromArray(new Inputs(1).floats(n, -1f, 1f));
    float[] out = new float[n];
    java.util.Arrays.fill(out, 42f);
    TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a)
        .task("oob", ChunkKernels::outOfBounds, a, out, 1).transferToHost(DataTransferMode.EVERY_EXECUTION, out);
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
      plan.withDevice(mt());
      KernelIndexOutOfBoundsException e = assertThrows(KernelIndexOutOfBoundsException.class, plan::execute);
      String m = e.getMessage();
      assertTrue(m.contains("g.oob") && m.contains("Index 5000 out of bounds for length 5000") && m.contains("of array a ")
          && m.contains("ChunkKernels.outOfBounds (ChunkKernels.java:"), m);
      assertEquals("a", e.array());
      assertEquals(5000, e.index());
      for (int i = 0; i < n; i++) assertEquals(42f, out[i], "host array changed at " + i);
    }
    // the same plan shape with a good shift works afterwards
    TaskGraph ok = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a)
        .task("ok", ChunkKernels::outOfBounds, a, out, 0).transferToHost(DataTransferMode.EVERY_EXECUTION, out);
    try (ExecutionPlan plan = new ExecutionPlan(ok.snapshot())) {
      plan.withDevice(mt()).execute();
    }
    for (int i = 0; i < n; i++) assertEquals(a.get(i) + 1f, out[i]);
  }

  @Test
  void aWorkItemThatFailsBeforeABarrierDoesNotHangItsGroup() {
    int n = 256;
    IntArray in = IntArray.fromArray(new Inputs(2).ints(n)), out = new IntArray(n);
    out.init(-1);
    TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, in)
        .task("t", ChunkKernels::failsBeforeBarrier, new KernelContext(), in, out).transferToHost(DataTransferMode.EVERY_EXECUTION, out);
    assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
        plan.withDevice(mt()).withGridScheduler(new GridScheduler("g.t", new WorkerGrid1D(n).setLocalWork(64, 1, 1)));
        KernelIndexOutOfBoundsException e = assertThrows(KernelIndexOutOfBoundsException.class, plan::execute);
        assertEquals("in", e.array(), e.getMessage());
      }
    });
    for (int i = 0; i < n; i++) assertEquals(-1, out.get(i), "host array changed at " + i);
  }

  @Test
  void plansOnManyThreadsAtOnce() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 16; t++) {
        int seed = t;
        done.add(pool.submit(() -> {
          int n = 20_000 + seed;
          int[] a = new Inputs(seed).ints(n), out = new int[n];
          TaskGraph g = new TaskGraph("g" + seed).transferToDevice(DataTransferMode.EVERY_EXECUTION, a)
              .task("t", ChunkKernels::scaleAdd, a, out, seed).transferToHost(DataTransferMode.EVERY_EXECUTION, out);
          try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
            plan.withDevice(mt());
            for (int r = 0; r < 5; r++) {
              plan.execute();
              for (int i = 0; i < n; i++) assertEquals(a[i] * seed + i, out[i]);
            }
          }
        }));
      }
      for (Future<?> f : done) f.get();
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void theDumpIsTheBytecodeThatRuns() {
    String code = KernelCode.of(ChunkKernels::scaleAdd, "jvm").text();
    assertNotNull(code);
    assertTrue(code.contains("JVM bytecode") && code.contains("kernel(") && code.contains("chunk_start_x") && code.contains("imul"), code);
  }

  @ParameterizedTest
  @ValueSource(strings = {"1x1x1", "3x5x7", "17x40x1100", "64x64x2049", "2x300x3000"})
  void lanesGiveTheSequentialResultToTheBit(String shape) {
    String[] s = shape.split("x");
    int rows = Integer.parseInt(s[0]), inner = Integer.parseInt(s[1]), cols = Integer.parseInt(s[2]);
    onJvmMt(KernelCheck.of("matmul/" + shape, ChunkKernels::matmul).args(() -> new Object[] {
        new Inputs(1).floats(rows * inner, -1f, 1f), new Inputs(2).floats(inner * cols, -1f, 1f), new float[rows * cols], rows, inner, cols}));
  }

  @Test
  void lanesInOneDimensionWithUniformBranchesAndOffsets() {
    for (int cols : new int[] {1, 1023, 1024, 1025, 2500})
      onJvmMt(KernelCheck.of("columnSums/" + cols, ChunkKernels::columnSums).args(() -> new Object[] {
          DoubleArray.fromArray(new Inputs(cols).doubles(9 * (cols + 1), -1, 1)), new double[cols], 9, cols, 4}));
    onJvmMt(KernelCheck.of("positiveColumnSums", ChunkKernels::positiveColumnSums).args(() -> new Object[] {
        new Inputs(3).floats(7 * 3000, -1f, 1f), new float[3000], 7, 3000}));
  }

  @Test
  void lanesApplyWhereTheInnerLoopReadsAlongXAndNowhereElse() {
    String matmul = KernelCode.of(ChunkKernels::matmul, "jvm").text();
    assertTrue(matmul.contains("lanes = min(64") && matmul.contains("item_y + 3"), "matmul runs in lanes, four rows at a time in strips of 64");
    assertTrue(KernelCode.of(ChunkKernels::columnSums, "jvm").text().contains("s_lanes"), "columnSums runs in lanes");
    assertTrue(!KernelCode.of(ChunkKernels::positiveColumnSums, "jvm").text().contains("_lanes"), "a branch that differs per lane");
    assertTrue(!KernelCode.of(dev.loopjit.conformance.ReductionKernels::rowsTotal, "jvm").text().contains("_lanes"), "reductions");
    assertTrue(!KernelCode.of(ChunkKernels::scaleAdd, "jvm").text().contains("_lanes"), "no inner loop");
  }

  @Test
  void anIndexOutOfBoundsInALaneThrowsAndLeavesTheHostArraysAlone() {
    int n = 40;
    float[] a = new Inputs(1).floats(n * n, -1f, 1f), b = new Inputs(2).floats(n * n, -1f, 1f), c = new float[n * n];
    java.util.Arrays.fill(c, 7f);
    TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a, b)
        .task("mm", ChunkKernels::matmulOutOfBounds, a, b, c, n).transferToHost(DataTransferMode.EVERY_EXECUTION, c);
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
      plan.withDevice(mt());
      KernelIndexOutOfBoundsException e = assertThrows(KernelIndexOutOfBoundsException.class, plan::execute);
      assertEquals("b", e.array(), e.getMessage());
    }
    for (float v : c) assertEquals(7f, v);
  }

  private static dev.loopjit.ir.KernelIR jvmIr(java.io.Serializable kernel) {
    return dev.loopjit.compiler.Compiler.compile(dev.loopjit.ir.MethodRef.ofLambda(kernel, "test"),
        JvmMtRecipe.INSTANCE.target(null, "", dev.loopjit.spi.Options.DEFAULTS));
  }

  @Test
  void groupsWithBarriersRunAsLoopsSplitAtTheBarriers() {
    for (java.io.Serializable k : List.<java.io.Serializable>of((dev.loopjit.api.Task3<KernelContext, IntArray, IntArray>) ChunkKernels::groupSums,
        (dev.loopjit.api.Task4<KernelContext, IntArray, IntArray, Integer>) ChunkKernels::reverseTiles,
        (dev.loopjit.api.Task4<KernelContext, IntArray, IntArray, Integer>) ChunkKernels::returnsBeforeBarrier,
        (dev.loopjit.api.Task4<KernelContext, dev.loopjit.types.IntArray, dev.loopjit.types.LongArray, dev.loopjit.types.DoubleArray>)
            dev.loopjit.conformance.ExplicitMoreKernels::neighbours))
      assertNotNull(Fission.of(jvmIr(k)), "fission of " + jvmIr(k).name());
    assertEquals(null, Fission.of(jvmIr((dev.loopjit.api.Task4<KernelContext, IntArray, IntArray, Integer>) ChunkKernels::barrierInSwitch)));
    assertEquals(null, Fission.of(jvmIr((dev.loopjit.api.Task3<KernelContext, IntArray, IntArray>) ChunkKernels::histogram)), "no barrier");
  }

  @Test
  void aBarrierInASwitchRunsOnThreads() {
    for (int mode : new int[] {0, 1})
      onJvmMt(KernelCheck.of("barrierInSwitch/" + mode, ChunkKernels::barrierInSwitch).grid(new WorkerGrid1D(256).setLocalWork(32, 1, 1))
          .args(() -> new Object[] {new KernelContext(), IntArray.fromArray(new Inputs(4).ints(256)), new IntArray(256), mode}));
  }

  /** A local array sized at launch is one array per group, shared by its items whether they run as threads or as loops. */
  @ParameterizedTest
  @ValueSource(ints = {8, 32, 100})
  void localArraysSizedAtLaunchAreTheGroupsOnThreadsAndInLoops(int local) {
    assertEquals(null, Fission.of(jvmIr((dev.loopjit.api.Task4<KernelContext, IntArray, IntArray, Integer>) ChunkKernels::sizedTileInSwitch)));
    assertNotNull(Fission.of(jvmIr((dev.loopjit.api.Task5<KernelContext, FloatArray, FloatArray, IntArray, Integer>)
        dev.loopjit.conformance.GroupKernels::tiledSums)), "tiledSums runs its groups as loops");
    int n = local * 6;
    for (int mode : new int[] {0, 1})
      onJvmMt(KernelCheck.of("sizedTileInSwitch/" + local + "/" + mode, ChunkKernels::sizedTileInSwitch).grid(new WorkerGrid1D(n).setLocalWork(local, 1, 1))
          .args(() -> new Object[] {new KernelContext(), IntArray.fromArray(new Inputs(6).ints(n)), new IntArray(n), mode}));
  }

  /** Work-items that return before a barrier leave it to the others, as on the jvm (OpenCL leaves this undefined, so only the JVMs are compared). */
  @Test
  void workItemsThatReturnTakeNoPartInLaterRegions() {
    int n = 1000;
    KernelCheck check = KernelCheck.of("returnsBeforeBarrier", ChunkKernels::returnsBeforeBarrier).grid(new WorkerGrid1D(n).setLocalWork(64, 1, 1))
        .args(() -> new Object[] {new KernelContext(), IntArray.fromArray(new Inputs(5).ints(n)), new IntArray(n), n - 37});
    assertArrayEquals(((IntArray) check.runOn(Devices.jvm())[2]).toArray(), ((IntArray) check.runOn(mt())[2]).toArray());
  }

  @Test
  void workItemsThatGoDifferentWaysAroundABarrierAreRefused() {
    IntArray out = new IntArray(64);
    TaskGraph g = new TaskGraph("g").task("t", ChunkKernels::divergentBarrier, new KernelContext(), out).transferToHost(DataTransferMode.EVERY_EXECUTION, out);
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
      plan.withDevice(mt()).withGridScheduler(new GridScheduler("g.t", new WorkerGrid1D(64).setLocalWork(16, 1, 1)));
      IllegalStateException e = assertThrows(IllegalStateException.class, plan::execute);
      assertTrue(e.getMessage().contains("different ways around a barrier"), e.getMessage());
    }
    for (int i = 0; i < 64; i++) assertEquals(0, out.get(i));
  }

  @Test
  void rowsRunJammedGiveTheSequentialResultToTheBit() {
    for (int rows : new int[] {1, 3, 4, 5, 8, 11, 1001})
      onJvmMt(KernelCheck.of("rowSums/" + rows, ChunkKernels::rowSums).args(() -> new Object[] {
          new Inputs(rows).floats(rows * 333, -1f, 1f), new Inputs(7).floats(333, -1f, 1f), new float[rows], 333}));
    for (int out : new int[] {1, 6, 13, 64})
      onJvmMt(KernelCheck.of("dense/" + out, ChunkKernels::dense).args(() -> new Object[] {
          DoubleArray.fromArray(new Inputs(1).doubles(5 * 50, -1, 1)), DoubleArray.fromArray(new Inputs(2).doubles(out * 50, -1, 1)),
          new Inputs(3).doubles(out, -1, 1), new double[5 * out], 5, 50, out}));
    assertTrue(KernelCode.of(ChunkKernels::rowSums, "jvm").text().contains("s_3 = s_3 + "), "rowSums runs jammed");
    assertTrue(KernelCode.of(ChunkKernels::dense, "jvm").text().contains("acc_3"), "dense runs jammed");
  }

  @ParameterizedTest
  @ValueSource(strings = {"4x9x1024", "5x1x1025", "8x33x7", "13x2x2049", "3x4x5", "37x5x130", "64x3x64", "45x17x200"})
  void lanesWithValuesAndBranchesOfTheRowGiveTheSequentialResultToTheBit(String shape) {
    String[] s = shape.split("x");
    int rows = Integer.parseInt(s[0]), inner = Integer.parseInt(s[1]), cols = Integer.parseInt(s[2]);
    onJvmMt(KernelCheck.of("matmulRowBias/" + shape, ChunkKernels::matmulRowBias).args(() -> new Object[] {
        new Inputs(1).floats(rows * inner, -1f, 1f), new Inputs(2).floats(inner * cols, -1f, 1f), new Inputs(3).floats(rows, -1f, 1f),
        new float[rows * cols], rows, inner, cols}));
    onJvmMt(KernelCheck.of("matmulOddRows/" + shape, ChunkKernels::matmulOddRows).args(() -> new Object[] {
        new Inputs(1).floats(rows * inner, -1f, 1f), new Inputs(2).floats(inner * cols, -1f, 1f), new float[rows * cols], rows, inner, cols}));
    // chunks of at least four rows (37 and more over 8 chunks) run the rows four at a time, the rows left one by one
    String bias = KernelCode.of(ChunkKernels::matmulRowBias, "jvm").text(), odd = KernelCode.of(ChunkKernels::matmulOddRows, "jvm").text();
    assertTrue(bias.contains("lanes = min(64") && bias.contains("item_y + 3"), "a row offset and a bias per row: lanes, four rows at a time");
    assertTrue(odd.contains("lanes = min(1024") && !odd.contains("item_y + 3"), "a branch on the row: lanes, one row at a time");
  }
}
