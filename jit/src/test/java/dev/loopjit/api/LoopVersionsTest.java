// Counted loops whose checks the bounds pass hoists: the same results, and the same failure, as the jvm on every device.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@code bounds} pass runs a counted loop unchecked where the indices it hoists are in range at
 * the first and the last iteration, and as before otherwise. Each kernel here reads its offsets
 * from an array ({@code p[…]}), so the host cannot prove anything at launch and the checked kernel
 * runs; each case is run on the jvm and then on every device, which must give the same outputs, or
 * throw the same {@link KernelIndexOutOfBoundsException} and leave the host's output alone (the
 * cases fail in one work-item, or at the same index in each). They cover both ways of the choice:
 * in range at both ends, out at the last iteration only, out at the first, indices beyond an int
 * (whose {@code long} endpoints send the work-item to the checked loop), negative and zero strides,
 * loops that stop early or never start, accesses under a condition, private arrays and stores.
 */
class LoopVersionsTest {
  static final int N = 16;

  /** {@code out[i] = a[off + i] + a[off + i + step] + …}, {@code len} terms; off and step only in work-item who: p = {off, step, len, who}. */
  static void window(float[] a, float[] out, int[] p) {
    for (@Parallel int i = 0; i < out.length; i++) {
      int off = i == p[3] ? p[0] : 0, step = i == p[3] ? p[1] : 1, len = p[2];
      float acc = 0f;
      for (int k = 0; k < len; k++) acc += a[off + i + k * step];
      out[i] = acc;
    }
  }

  /** {@link #window} through locals the loop assigns from k: the index is still linear in k. */
  static void derived(float[] a, float[] out, int[] p) {
    for (@Parallel int i = 0; i < out.length; i++) {
      int off = i == p[3] ? p[0] : 0, step = i == p[3] ? p[1] : 1, len = p[2];
      float acc = 0f;
      for (int k = 0; k < len; k++) {
        int at = k * step;
        int there = at + off;
        acc += a[there + i];
      }
      out[i] = acc;
    }
  }

  /** Stops at the first negative element: reads past the end only where Java would. p = {len}. */
  static void untilNegative(float[] a, float[] out, int[] p) {
    for (@Parallel int i = 0; i < out.length; i++) {
      int len = p[0];
      float acc = 0f;
      for (int k = 0; k < len; k++) {
        float v = a[i + k];
        if (v < 0f) break;
        acc += v;
      }
      out[i] = acc;
    }
  }

  /** A read under a condition and a private array: p = {len, cut}. */
  static void conditional(float[] a, float[] out, int[] p) {
    for (@Parallel int i = 0; i < out.length; i++) {
      int len = p[0], cut = p[1];
      float[] t = new float[8];
      float acc = 0f;
      for (int k = 0; k < len; k++) {
        if (k < cut) acc += a[i + k];
        t[k] = acc;
      }
      out[i] = acc + t[0];
    }
  }

  /** A private array allocated in the loop, which then comes twice. p = {len}. */
  static void allocatedInTheLoop(float[] a, float[] out, int[] p) {
    for (@Parallel int i = 0; i < out.length; i++) {
      int len = p[0];
      float acc = 0f;
      for (int k = 0; k < len; k++) {
        float[] t = new float[4];
        t[k & 3] = a[i + k];
        acc += t[k & 3] + t[0];
      }
      out[i] = acc;
    }
  }

  /** Writes in the loop: a row of {@code out} from a window of {@code a}. p = {off, len}. */
  static void rows(float[] a, float[] out, int[] p) {
    for (@Parallel int i = 0; i < N; i++) {
      int off = p[0], len = p[1];
      for (int k = 0; k < len; k++) out[i * len + k] = a[off + k] * 2f;
    }
  }

  @Test
  void windowsInRangeOutAtEitherEndWrappedAndStrided() {
    int[][] cases = {
        {0, 1, 9, 0}, {0, 0, 5, 7}, {0, 1, 0, 7}, {3, -1, 4, 2},   // in range; a zero stride; the loop never starts; a negative stride
        {1, 1, 9, 15}, {-1, 1, 2, 0}, {2, -1, 4, 0},                // out at the last iteration; at the first; a negative stride out at the last
        {0, 1 << 30, 5, 4}, {Integer.MIN_VALUE, Integer.MIN_VALUE, 2, 0},   // k·step beyond an int
        {Integer.MAX_VALUE, 1, 3, 6}};                              // off + i wraps to a negative index
    for (int[] p : cases) {
      same("window " + java.util.Arrays.toString(p), LoopVersionsTest::window, ramp(N + 8), N, p);
      same("derived " + java.util.Arrays.toString(p), LoopVersionsTest::derived, ramp(N + 8), N, p);
    }
  }

  /** Random windows around the edges of a and of int (seeded: {@code -Dloopversions.seed}); one work-item strays. */
  @Test
  void randomWindowsNearTheEdges() {
    long seed = Long.getLong("loopversions.seed", 7);
    java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
    int[] edges = {0, 1, -1, 2, N + 7, N + 8, N + 9, 1 << 30, -(1 << 30), Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE - 3};
    for (int c = 0; c < 40; c++) {
      int off = r.nextBoolean() ? edges[r.nextInt(edges.length)] : r.nextInt(-4, N + 12);
      int step = r.nextBoolean() ? edges[r.nextInt(edges.length)] : r.nextInt(-3, 4);
      int[] p = {off, step, r.nextInt(0, 10), r.nextInt(0, N)};
      same("window " + java.util.Arrays.toString(p) + " (seed " + seed + ")", LoopVersionsTest::window, ramp(N + 8), N, p);
      same("derived " + java.util.Arrays.toString(p) + " (seed " + seed + ")", LoopVersionsTest::derived, ramp(N + 8), N, p);
    }
  }

  @Test
  void earlyExitsConditionsPrivateArraysAndStores() {
    float[] stops = ramp(N + 8);
    stops[N + 2] = -1f;   // every window stops there, before the end of a
    for (int len : new int[] {0, 3, 40}) same("untilNegative " + len, LoopVersionsTest::untilNegative, stops, N, new int[] {len});
    for (int[] p : new int[][] {{8, 8}, {8, 3}, {9, 3}, {6, 40}, {4, 0}})   // {9, 3}: t[8] fails
      same("conditional " + java.util.Arrays.toString(p), LoopVersionsTest::conditional, ramp(N + 8), N, p);
    for (int len : new int[] {0, 5, 9, 10})   // 10: a[i + 9] fails at i = 15
      same("allocatedInTheLoop " + len, LoopVersionsTest::allocatedInTheLoop, ramp(N + 8), N, new int[] {len});
    for (int[] p : new int[][] {{0, 4}, {9, 3}, {10, 3}, {-1, 2}})
      same("rows " + java.util.Arrays.toString(p), LoopVersionsTest::rows, ramp(12), N * 4, p);
  }

  /**
   * The counted loop runs in two copies, the hoisted one first: its reads of {@code a} carry no check
   * and their index is computed without wrap-around (the test showed it stays within int).
   */
  @Test
  void theLoopComesTwiceOnceWithItsIndicesHoisted() {
    for (Task3<float[], float[], int[]> k : List.<Task3<float[], float[], int[]>>of(LoopVersionsTest::window, LoopVersionsTest::derived)) {
      String ir = KernelCode.of(k, "ir").text();
      assertEquals(2, ir.split("for \\(;;\\)", -1).length - 1, ir);
      assertTrue(ir.contains("((long) len) - 1L"), ir);
      assertTrue(ir.contains("a[add_no_wrap("), ir);
    }
  }

  /** Runs {@code k} on the jvm, then on every device: the same outputs, or the same failure with the output untouched. */
  private static void same(String what, Task3<float[], float[], int[]> k, float[] input, int outLength, int[] p) {
    Object reference = null;
    List<String> seen = new ArrayList<>();
    for (Device d : devicesJvmFirst()) {
      float[] a = input.clone(), out = new float[outLength];
      java.util.Arrays.fill(out, 7f);
      int[] params = p.clone();
      TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a, params, out).task("t", k, a, out, params)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, out);
      Object got;
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d)) {
        plan.execute();
        got = out.clone();
      } catch (KernelIndexOutOfBoundsException e) {
        got = List.of(e.array(), e.index(), e.length(), e.source());
        float[] untouched = new float[outLength];
        java.util.Arrays.fill(untouched, 7f);
        assertArrayEquals(untouched, out, what + " on " + d.id() + ": the output is unchanged after " + e.getMessage());
      }
      if (reference == null) reference = got;
      else if (reference instanceof float[] r && got instanceof float[] o) assertArrayEquals(r, o, what + " on " + d.id());
      else assertEquals(reference, got, what + " on " + d.id());
      seen.add(d.id());
    }
    assertEquals(Devices.all().size(), seen.size(), "ran on " + seen);
  }

  private static List<Device> devicesJvmFirst() {
    List<Device> l = new ArrayList<>();
    l.add(Devices.jvm());
    for (Device d : Devices.all()) if (!d.equals(Devices.jvm())) l.add(d);
    return l;
  }

  static float[] ramp(int n) {
    float[] a = new float[n];
    for (int i = 0; i < n; i++) a[i] = i + 0.5f;
    return a;
  }
}
