// The launch shapes WorkGroups picks, for CPU and GPU limits, without a device.
package dev.loopjit.spi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
  void aLargeRangeOnACpuUsesLargeGroups() {
    assertArrayEquals(new long[] {4096}, pick(loops(1 << 20), CPU2).local());
    assertTrue(pick(loops(1000), CPU64).global()[0] / pick(loops(1000), CPU64).local()[0] >= 64);
    assertEquals(0, pick(loops(1000), CPU64).local()[0] % 8, "whole vector lanes");
  }

  @Test
  void aCpuRangeIsSplitIntoAboutThirtyTwoGroupsPerComputeUnit() {
    WorkGroups.Shape s = pick(loops(100_000), CPU2);
    long groups = s.global()[0] / s.local()[0];
    assertTrue(groups >= 64 && groups <= 70, s.toString());
    assertEquals(0, s.local()[0] % 8, "whole vector lanes: " + s);
    WorkGroups.Shape tiny = pick(loops(20), CPU2);
    assertTrue(tiny.local()[0] >= 1 && tiny.local()[0] <= 20, tiny.toString());
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
   * The benchmarks' shapes on this project's 2-core PoCL machine, as the LocalSize sweep measured
   * them (docs/PERFORMANCE.md): matvec of 4096 rows 5.6 ms in groups of 64, 6.3 ms in groups of 256,
   * 13.4 ms as one group; a 16M vector add 6.5 ms in groups of 4096, 7.0 ms in groups of 256; naive
   * matmul 1024² and dense within 10% for every 2-D shape tried, 64×4 among the fastest.
   */
  @Test
  void theShapesTheLocalSizeSweepMeasured() {
    assertArrayEquals(new long[] {64}, pick(loops(4096), CPU2).local(), "matrix-vector, 4096 rows");
    assertArrayEquals(new long[] {4096}, pick(loops(1 << 24), CPU2).local(), "vector add 16M");
    assertArrayEquals(new long[] {64, 4}, pick(loops(1024, 1024), CPU2).local(), "naive matmul 1024");
    assertArrayEquals(new long[] {64, 4}, pick(loops(256, 256), CPU2).local(), "dense forward, 256 outputs x batch 256");
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

  @Test
  void coarsenedKernelsGetTallGroupsWithinTheirGrid() {
    Grid g = WorkGroups.coarsened(new Grid(2, new long[] {128, 512}, null, new long[] {2048, 2048}));
    assertArrayEquals(new long[] {4, 16}, g.local());
    assertArrayEquals(new long[] {128, 512}, g.global());
    assertArrayEquals(new long[] {2, 3, 1}, WorkGroups.coarsened(new Grid(3, new long[] {2, 3, 5}, null, new long[] {32, 12, 5})).local());
  }
}
