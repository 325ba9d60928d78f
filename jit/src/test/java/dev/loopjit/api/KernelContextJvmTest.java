// KernelContext kernels on the jvm device: ids, rounding of the grid, real barriers, local memory, atomics under contention.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import dev.loopjit.types.LongArray;
import org.junit.jupiter.api.Test;

class KernelContextJvmTest {
  private static final int FIELDS = 15;

  /** Every id and size of every work-item, FIELDS ints each, at its linear global id. */
  static void recordIds(KernelContext ctx, IntArray out) {
    int linear = (ctx.globalIdz * ctx.globalGroupSizeY + ctx.globalIdy) * ctx.globalGroupSizeX + ctx.globalIdx;
    int[] v = {ctx.globalIdx, ctx.globalIdy, ctx.globalIdz, ctx.localIdx, ctx.localIdy, ctx.localIdz, ctx.groupIdx, ctx.groupIdy,
        ctx.groupIdz, ctx.globalGroupSizeX, ctx.globalGroupSizeY, ctx.globalGroupSizeZ, ctx.localGroupSizeX, ctx.localGroupSizeY,
        ctx.localGroupSizeZ};
    for (int k = 0; k < FIELDS; k++) out.set(linear * FIELDS + k, v[k]);
  }

  static void countWorkItems(KernelContext ctx, IntArray count) {
    ctx.atomicAdd(count, 0, 1);
  }

  static void treeSumWithBarriers(KernelContext ctx, FloatArray in, FloatArray partial) {
    float[] tile = ctx.allocateFloatLocalArray(64);
    int l = ctx.localIdx;
    tile[l] = in.get(ctx.globalIdx);
    for (int s = ctx.localGroupSizeX / 2; s > 0; s >>= 1) {
      ctx.localBarrier();
      if (l < s) tile[l] += tile[l + s];
    }
    if (l == 0) partial.set(ctx.groupIdx, tile[0]);
  }

  /** The same without barriers: a work-item reads partners' slots before they are written. */
  static void treeSumWithoutBarriers(KernelContext ctx, FloatArray in, FloatArray partial) {
    float[] tile = ctx.allocateFloatLocalArray(64);
    int l = ctx.localIdx;
    tile[l] = in.get(ctx.globalIdx);
    for (int s = ctx.localGroupSizeX / 2; s > 0; s >>= 1) if (l < s) tile[l] += tile[l + s];
    if (l == 0) partial.set(ctx.groupIdx, tile[0]);
  }

  /** Many atomic adds per work-item; the barrier makes the jvm give each work-item a thread, so they contend. */
  static void contendedAtomics(KernelContext ctx, IntArray ints, LongArray longs, FloatArray floats, int[] heap) {
    ctx.localBarrier();
    for (int k = 0; k < 100; k++) {
      ctx.atomicAdd(ints, 0, 1);
      ctx.atomicAdd(longs, 0, 3L);
      ctx.atomicAdd(floats, 0, 1f);
      ctx.atomicAdd(heap, 0, 1);
    }
  }

  /** Reads each local array before writing it (must be 0: fresh per group), then a neighbour's value (shared in the group). */
  static void localArrays(KernelContext ctx, int[] seen, int[] ints, long[] longs, float[] floats, double[] doubles) {
    int[] li = ctx.allocateIntLocalArray(8);
    long[] ll = ctx.allocateLongLocalArray(8);
    float[] lf = ctx.allocateFloatLocalArray(8);
    double[] ld = ctx.allocateDoubleLocalArray(8);
    int l = ctx.localIdx, g = ctx.globalIdx;
    seen[g] = li[l] + (int) ll[l] + (int) lf[l] + (int) ld[l];
    li[l] = g + 1;
    ll[l] = g + 2;
    lf[l] = g + 3;
    ld[l] = g + 4;
    ctx.localBarrier();
    int n = (l + 1) % ctx.localGroupSizeX;
    ints[g] = li[n];
    longs[g] = ll[n];
    floats[g] = lf[n];
    doubles[g] = ld[n];
  }

  private static GridScheduler grid(WorkerGrid w) {
    return new GridScheduler("g.t", w);
  }

  private static void run(TaskGraph g, WorkerGrid w, Object... out) {
    try (ExecutionPlan plan = new ExecutionPlan(g.transferToHost(DataTransferMode.EVERY_EXECUTION, out).snapshot())) {
      plan.withDevice(Devices.jvm()).withGridScheduler(grid(w)).execute();
    }
  }

  private static void checkIds(WorkerGrid w) {
    long[] global = w.getGlobalWork(), local = w.getLocalWork();
    int items = (int) (global[0] * global[1] * global[2]);
    IntArray out = new IntArray(items * FIELDS);
    run(new TaskGraph("g").task("t", KernelContextJvmTest::recordIds, new KernelContext(), out), w, out);
    for (int z = 0; z < global[2]; z++)
      for (int y = 0; y < global[1]; y++)
        for (int x = 0; x < global[0]; x++) {
          int[] g = {x, y, z}, want = new int[FIELDS];
          for (int d = 0; d < 3; d++) {
            want[d] = g[d];
            want[3 + d] = (int) (g[d] % local[d]);
            want[6 + d] = (int) (g[d] / local[d]);
            want[9 + d] = (int) global[d];
            want[12 + d] = (int) local[d];
          }
          int linear = (int) ((z * global[1] + y) * global[0] + x);
          for (int k = 0; k < FIELDS; k++) assertEquals(want[k], out.get(linear * FIELDS + k), "item " + x + "," + y + "," + z + " field " + k);
        }
  }

  @Test
  void idsOfA1DGrid() {
    checkIds(new WorkerGrid1D(12).setLocalWork(4, 1, 1));
  }

  @Test
  void idsOfA2DGrid() {
    checkIds(new WorkerGrid2D(6, 4).setLocalWork(3, 2, 1));
  }

  @Test
  void idsOfA3DGrid() {
    checkIds(new WorkerGrid3D(4, 2, 6).setLocalWork(2, 1, 3));
  }

  @Test
  void aGlobalSizeNotAMultipleOfTheLocalSizeIsRoundedUp() {
    IntArray count = new IntArray(1);
    run(new TaskGraph("g").task("t", KernelContextJvmTest::countWorkItems, new KernelContext(), count),
        new WorkerGrid1D(10).setLocalWork(4, 1, 1), count);
    assertEquals(12, count.get(0));
    IntArray count2 = new IntArray(1);
    run(new TaskGraph("g").task("t", KernelContextJvmTest::countWorkItems, new KernelContext(), count2),
        new WorkerGrid2D(5, 3).setLocalWork(2, 2, 1), count2);
    assertEquals(6 * 4, count2.get(0));
    IntArray ids = new IntArray(12 * FIELDS);
    run(new TaskGraph("g").task("t", KernelContextJvmTest::recordIds, new KernelContext(), ids), new WorkerGrid1D(10).setLocalWork(4, 1, 1), ids);
    assertEquals(12, ids.get(11 * FIELDS + 9), "globalGroupSizeX is the rounded-up size");
    assertEquals(11, ids.get(11 * FIELDS), "the extra work-items ran too");
  }

  private static float[] treeSums(Task3<KernelContext, FloatArray, FloatArray> kernel) {
    FloatArray in = new FloatArray(1024), partial = new FloatArray(16);
    in.init(1f);
    run(new TaskGraph("g").task("t", kernel, new KernelContext(), in, partial), new WorkerGrid1D(1024).setLocalWork(64, 1, 1), partial);
    return partial.toArray();
  }

  @Test
  void aTreeSumWithBarriersIsRight() {
    for (float p : treeSums(KernelContextJvmTest::treeSumWithBarriers)) assertEquals(64f, p);
  }

  @Test
  void withoutTheBarriersTheSameTreeSumIsWrong() {
    // Without barriers the jvm runs a group's work-items one after another, so work-item 0 adds partners'
    // slots before they are written: the race is lost every time, which shows the barriers above are real.
    float[] sums = treeSums(KernelContextJvmTest::treeSumWithoutBarriers);
    for (float p : sums) assertNotEquals(64f, p);
  }

  @Test
  void atomicAddsUnderContentionGiveExactTotals() {
    IntArray ints = new IntArray(1);
    LongArray longs = new LongArray(1);
    FloatArray floats = new FloatArray(1);
    int[] heap = new int[1];
    run(new TaskGraph("g").task("t", KernelContextJvmTest::contendedAtomics, new KernelContext(), ints, longs, floats, heap),
        new WorkerGrid1D(1024).setLocalWork(256, 1, 1), ints, longs, floats, heap);
    assertEquals(102_400, ints.get(0));
    assertEquals(307_200L, longs.get(0));
    assertEquals(102_400f, floats.get(0), "sums of 1.0 below 2^24 are exact in any order");
    assertEquals(102_400, heap[0]);
  }

  @Test
  void localArraysAreSharedInAGroupAndFreshForEachGroup() {
    int n = 32, local = 8;
    int[] seen = new int[n], ints = new int[n];
    long[] longs = new long[n];
    float[] floats = new float[n];
    double[] doubles = new double[n];
    run(new TaskGraph("g").task("t", KernelContextJvmTest::localArrays, new KernelContext(), seen, ints, longs, floats, doubles),
        new WorkerGrid1D(n).setLocalWork(local, 1, 1), seen, ints, longs, floats, doubles);
    for (int g = 0; g < n; g++) {
      int neighbour = g / local * local + (g % local + 1) % local;
      assertEquals(0, seen[g], "work-item " + g + " saw another group's local memory");
      assertEquals(neighbour + 1, ints[g], "int, work-item " + g);
      assertEquals(neighbour + 2, longs[g], "long, work-item " + g);
      assertEquals(neighbour + 3, floats[g], "float, work-item " + g);
      assertEquals(neighbour + 4, doubles[g], "double, work-item " + g);
    }
  }

  @Test
  void aKernelContextTaskNeedsAGrid() {
    IntArray count = new IntArray(1);
    ImmutableTaskGraph g = new TaskGraph("g").task("t", KernelContextJvmTest::countWorkItems, new KernelContext(), count).snapshot();
    try (ExecutionPlan plan = new ExecutionPlan(g)) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> plan.withDevice(Devices.jvm()).execute());
      assertTrue(e.getMessage().contains("g.t") && e.getMessage().contains("withGridScheduler"), e.getMessage());
    }
    assertEquals(0, count.get(0));
  }

  @Test
  void aFreshContextHasZeroIdsAndUnitSizes() {
    KernelContext c = new KernelContext();
    assertEquals(0, c.globalIdx + c.localIdy + c.groupIdz);
    assertEquals(1, c.globalGroupSizeX * c.localGroupSizeZ);
  }
}
