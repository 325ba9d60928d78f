// The launch shapes WorkGroups picks, for CPU and GPU limits, without a device.
package dev.loopjit.backend.opencl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.runtime.Grid;
import org.junit.jupiter.api.Test;

class WorkGroupsTest {
  private static final WorkGroups.Limits CPU2 = new WorkGroups.Limits(true, 2, 4096, new long[] {4096, 4096, 4096});
  private static final WorkGroups.Limits CPU64 = new WorkGroups.Limits(true, 64, 4096, new long[] {4096, 4096, 4096});
  private static final WorkGroups.Limits GPU = new WorkGroups.Limits(false, 132, 1024, new long[] {1024, 1024, 64});

  private static Grid loops(long... counts) {
    long[] global = {1, 1, 1};
    System.arraycopy(counts, 0, global, 0, counts.length);
    return new Grid(counts.length, global, null, counts);
  }

  private static WorkGroups.Shape pick(Grid g, WorkGroups.Limits l) {
    WorkGroups.Shape s = WorkGroups.choose(g, false, l, "g.t");
    for (int d = 0; d < s.dims(); d++) {
      assertEquals(0, s.global()[d] % s.local()[d], "whole work-groups: " + s);
      assertTrue(s.global()[d] >= g.counts()[d], "covers the range: " + s);
      assertTrue(s.global()[d] - g.counts()[d] < s.local()[d], "at most one partial group: " + s);
    }
    return s;
  }

  @Test
  void aPrimeRangeOnACpuGetsWholeGroupsForEveryCore() {
    WorkGroups.Shape s = pick(loops(997), CPU2);
    assertTrue(s.local()[0] > 1, s.toString());
    assertTrue(s.global()[0] / s.local()[0] >= 4, "two groups per compute unit: " + s);
    assertTrue(s.local()[0] <= 256, s.toString());
  }

  @Test
  void aLargeRangeOnACpuUsesGroupsOf256() {
    assertArrayEquals(new long[] {256}, pick(loops(1 << 20), CPU2).local());
    assertTrue(pick(loops(1000), CPU64).global()[0] / pick(loops(1000), CPU64).local()[0] >= 64);
  }

  @Test
  void aCpuGridIn2dKeepsRowsAlongXAndEnoughGroups() {
    WorkGroups.Shape s = pick(loops(53, 37), CPU2);
    assertEquals(53, s.local()[0]);
    long groups = (s.global()[0] / s.local()[0]) * (s.global()[1] / s.local()[1]);
    assertTrue(groups >= 4 && s.local()[0] * s.local()[1] <= 256, s.toString());
    WorkGroups.Shape small = pick(loops(4, 2), CPU2);
    assertTrue(small.local()[0] * small.local()[1] >= 1);
  }

  /**
   * The benchmarks' shapes on this project's 2-core PoCL machine, where the LocalSize sweep
   * (docs/PERFORMANCE.md) measured them as the best or level with the best: naive matmul 1024²
   * 1.55 s at 64×4 against 1.7–4.3 s for the other shapes (64×1: 4.1 s); matvec 4096 rows 6.1 ms
   * for any size that leaves two groups per core, 13 ms as one group.
   */
  @Test
  void theShapesTheLocalSizeSweepMeasuredBest() {
    assertArrayEquals(new long[] {64, 4}, pick(loops(1024, 1024), CPU2).local(), "naive matmul 1024");
    assertArrayEquals(new long[] {64, 4}, pick(loops(256, 256), CPU2).local(), "dense forward, 256 outputs x batch 256");
    WorkGroups.Shape matvec = pick(loops(4096), CPU2);
    assertArrayEquals(new long[] {256}, matvec.local(), "matrix-vector, 4096 rows");
    assertTrue(matvec.global()[0] / matvec.local()[0] >= 4, "never one group for the whole range: " + matvec);
    assertArrayEquals(new long[] {256}, pick(loops(1 << 24), CPU2).local(), "vector add 16M");
  }

  @Test
  void aCpuGridIn2dHasMoreThanOneRowPerGroupWhenTheRangeAllows() {
    // 64x1 (one row per group) measured 2.7 times slower than 64x4 on naive matmul.
    WorkGroups.Shape s = pick(loops(1024, 1024), CPU64);
    assertTrue(s.local()[1] > 1, s.toString());
    long groups = (s.global()[0] / s.local()[0]) * (s.global()[1] / s.local()[1]);
    assertTrue(groups >= 128, "two groups per compute unit: " + s);
  }

  @Test
  void gpuShapes() {
    WorkGroups.Shape one = pick(loops(997), GPU);
    assertArrayEquals(new long[] {256}, one.local());
    assertArrayEquals(new long[] {1024}, one.global());
    WorkGroups.Shape two = pick(loops(53, 37), GPU);
    assertArrayEquals(new long[] {16, 16}, two.local());
    assertArrayEquals(new long[] {64, 48}, two.global());
    assertArrayEquals(new long[] {8, 8, 4}, pick(loops(100, 100, 100), GPU).local());
    assertArrayEquals(new long[] {3, 16}, pick(loops(3, 100), GPU).local(), "clamped to the range");
  }

  @Test
  void theKernelsOwnLimitShrinksTheGroup() {
    WorkGroups.Limits tight = new WorkGroups.Limits(false, 132, 64, new long[] {1024, 1024, 64});
    WorkGroups.Shape s = pick(loops(1000, 1000), tight);
    assertTrue(s.local()[0] * s.local()[1] <= 64, s.toString());
  }

  @Test
  void aGivenLocalSizeIsCheckedAndTheRangeRoundedUp() {
    Grid g = new Grid(1, new long[] {997, 1, 1}, new long[] {128, 1, 1}, new long[] {997});
    WorkGroups.Shape s = pick(g, GPU);
    assertArrayEquals(new long[] {128}, s.local());
    assertArrayEquals(new long[] {1024}, s.global());
    Grid tooBig = new Grid(1, new long[] {4096, 1, 1}, new long[] {2048, 1, 1}, new long[] {4096});
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WorkGroups.choose(tooBig, false, GPU, "g.t"));
    assertTrue(e.getMessage().contains("g.t") && e.getMessage().contains("2048") && e.getMessage().contains("1024"), e.getMessage());
    Grid tooDeep = new Grid(3, new long[] {8, 8, 256}, new long[] {1, 1, 128}, new long[] {8, 8, 256});
    e = assertThrows(IllegalArgumentException.class, () -> WorkGroups.choose(tooDeep, false, GPU, "g.t"));
    assertTrue(e.getMessage().contains("dimension 2"), e.getMessage());
  }

  @Test
  void explicitKernelsGetTheJvmDefaultShape() {
    Grid g = new Grid(1, new long[] {200, 1, 1}, null, new long[] {200, 1, 1});
    WorkGroups.Shape s = WorkGroups.choose(g, true, CPU2, "g.t");
    assertArrayEquals(new long[] {64}, s.local());
    assertArrayEquals(new long[] {256}, s.global());
    Grid g2 = new Grid(2, new long[] {20, 30, 1}, null, new long[] {20, 30, 1});
    assertArrayEquals(new long[] {8, 8}, WorkGroups.choose(g2, true, GPU, "g.t").local());
  }
}
