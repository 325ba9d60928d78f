// The launch shapes WorkGroups picks for a CUDA GPU and the local sizes it refuses, with an H100's limits and no device.
package dev.loopjit.spi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class GpuLaunchShapeTest {
  /** cuDeviceGetAttribute on an H100: 1024 threads per block, blocks up to 1024×1024×64, grids up to (2^31-1)×65535×65535. */
  private static final WorkGroups.Limits H100 = limits(1024);

  private static WorkGroups.Limits limits(long maxThreads) {
    return new WorkGroups.Limits(false, 132, maxThreads, new long[] {1024, 1024, 64}, new long[] {Integer.MAX_VALUE, 65535, 65535},
        "CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM");
  }

  private static Grid loops(long... counts) {
    long[] global = {1, 1, 1};
    System.arraycopy(counts, 0, global, 0, counts.length);
    return new Grid(counts.length, global, null, counts);
  }

  private static Grid local(long[] counts, long... local) {
    long[] global = {1, 1, 1}, l = {1, 1, 1};
    System.arraycopy(counts, 0, global, 0, counts.length);
    System.arraycopy(local, 0, l, 0, local.length);
    return new Grid(counts.length, global, l, counts);
  }

  /** The shape, checked to cover the range with at most one partial block per dimension. */
  private static Launch pick(Grid g, boolean explicit, WorkGroups.Limits l) {
    WorkGroups.Shape shape = WorkGroups.choose(g, explicit, l, "g.t");
    Launch s = new Launch(shape.groups(), shape.groupSize());
    assertEquals(3, s.blocks().length);
    assertEquals(3, s.threads().length);
    for (int d = 0; d < 3; d++) {
      long covered = s.blocks()[d] * s.threads()[d], want = d < g.dims() ? g.global()[d] : 1;
      assertTrue(covered >= want, "covers the range: " + s);
      assertTrue(covered - want < s.threads()[d], "at most one partial block: " + s);
    }
    assertTrue(s.threads()[0] * s.threads()[1] * s.threads()[2] <= l.maxGroup(), s.toString());
    return s;
  }

  @Test
  void parallelLoopsGet256Or16x16Or8x8x4Threads() {
    Launch one = pick(loops(997), false, H100);
    assertArrayEquals(new long[] {256, 1, 1}, one.threads(), "a prime range still gets whole blocks of 256");
    assertArrayEquals(new long[] {4, 1, 1}, one.blocks());
    Launch two = pick(loops(53, 37), false, H100);
    assertArrayEquals(new long[] {16, 16, 1}, two.threads());
    assertArrayEquals(new long[] {4, 3, 1}, two.blocks());
    Launch three = pick(loops(100, 100, 100), false, H100);
    assertArrayEquals(new long[] {8, 8, 4}, three.threads());
    assertArrayEquals(new long[] {13, 13, 25}, three.blocks());
  }

  @Test
  void smallRangesClampTheBlock() {
    assertArrayEquals(new long[] {3, 16, 1}, pick(loops(3, 100), false, H100).threads());
    assertArrayEquals(new long[] {1, 1, 1}, pick(loops(1), false, H100).threads(), "a single work-item");
    assertArrayEquals(new long[] {1, 1, 1}, pick(loops(1), false, H100).blocks());
  }

  @Test
  void explicitKernelsGetTheJvmDefaultShape() {
    Grid g = new Grid(1, new long[] {200, 1, 1}, null, new long[] {200, 1, 1});
    Launch s = pick(g, true, H100);
    assertArrayEquals(new long[] {64, 1, 1}, s.threads());
    assertArrayEquals(new long[] {4, 1, 1}, s.blocks());
    Grid g2 = new Grid(2, new long[] {20, 30, 1}, null, new long[] {20, 30, 1});
    assertArrayEquals(new long[] {8, 8, 1}, pick(g2, true, H100).threads());
    Grid g3 = new Grid(3, new long[] {9, 9, 9}, null, new long[] {9, 9, 9});
    assertArrayEquals(new long[] {4, 4, 4}, pick(g3, true, H100).threads());
  }

  @Test
  void theKernelsOwnLimitShrinksTheBlock() {
    WorkGroups.Limits registers = limits(64);
    Launch s = pick(loops(1000, 1000), false, registers);
    assertTrue(s.threads()[0] * s.threads()[1] <= 64, s.toString());
    assertArrayEquals(new long[] {64, 1, 1}, pick(loops(1000), false, registers).threads());
  }

  @Test
  void aGivenLocalSizeIsUsedAndTheRangeRoundedUp() {
    Launch s = pick(local(new long[] {997}, 128), false, H100);
    assertArrayEquals(new long[] {128, 1, 1}, s.threads());
    assertArrayEquals(new long[] {8, 1, 1}, s.blocks());
    Launch two = pick(local(new long[] {53, 37}, 8, 4), false, H100);
    assertArrayEquals(new long[] {8, 4, 1}, two.threads());
    assertArrayEquals(new long[] {7, 10, 1}, two.blocks());
  }

  @Test
  void aLocalSizeTheDeviceCannotRunIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> WorkGroups.choose(local(new long[] {4096}, 2048), false, H100, "g.t"));
    assertTrue(e.getMessage().contains("g.t") && e.getMessage().contains("2048") && e.getMessage().contains("1024"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> WorkGroups.choose(local(new long[] {8, 8, 256}, 1, 1, 128), false, H100, "g.t"));
    assertTrue(e.getMessage().contains("dimension 2") && e.getMessage().contains("64"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> WorkGroups.choose(local(new long[] {64, 64}, 64, 32), false, H100, "g.t"));
    assertTrue(e.getMessage().contains("2048 work-items"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> WorkGroups.choose(local(new long[] {64}, 0), false, H100, "g.t"));
    assertTrue(e.getMessage().contains("at least 1"), e.getMessage());
    WorkGroups.Limits registers = limits(512);
    e = assertThrows(IllegalArgumentException.class, () -> WorkGroups.choose(local(new long[] {4096}, 1024), false, registers, "g.t"));
    assertTrue(e.getMessage().contains("at most 512"), "the kernel's own limit: " + e.getMessage());
  }

  @Test
  void aRangeBeyondTheGridLimitIsRefused() {
    long rows = 65535L * 16 + 1;   // needs 65536 blocks of 16 in y
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WorkGroups.choose(loops(4, rows), false, H100, "g.t"));
    assertTrue(e.getMessage().contains("65536 groups") && e.getMessage().contains("dimension 1"), e.getMessage());
    assertArrayEquals(new long[] {1, 1024, 1}, pick(local(new long[] {4, rows}, 1, 1024), false, H100).threads(), "a taller block fits");
  }

  /** A launch as cuLaunchKernel takes it. */
  private record Launch(long[] blocks, long[] threads) {}
}
