// Conformance KernelContext kernels: local arrays sized at launch (every element type), SIMD-group operations, Debug.printf.
package dev.loopjit.conformance;

import dev.loopjit.api.Debug;
import dev.loopjit.api.KernelContext;
import dev.loopjit.api.Parallel;
import dev.loopjit.types.ByteArray;
import dev.loopjit.types.DoubleArray;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.HalfFloat;
import dev.loopjit.types.HalfFloatArray;
import dev.loopjit.types.IntArray;
import dev.loopjit.types.LongArray;
import dev.loopjit.types.ShortArray;

/** Explicit kernels checked by {@link GroupKernelsTest}. */
public final class GroupKernels {
  private GroupKernels() {}

  /**
   * A work-group's sum of {@code tile} elements of {@code in} (wrapping around it), staged through a
   * local array of {@code tile} floats that every work-item fills in strides: with tile = 16384 that
   * is 64 KiB, past the 48 KiB a CUDA kernel gets without opting in.
   */
  public static void wideTile(KernelContext ctx, FloatArray in, FloatArray out, int tile) {
    float[] s = ctx.allocateFloatLocalArray(tile);
    for (int k = ctx.localIdx; k < tile; k += ctx.localGroupSizeX) s[k] = in.get((ctx.groupIdx * tile + k) % in.getSize());
    ctx.localBarrier();
    if (ctx.localIdx == 0) {
      float sum = 0f;
      for (int k = 0; k < tile; k++) sum += s[k] * (k % 7 - 3);
      out.set(ctx.groupIdx, sum);
    }
  }

  /**
   * A work-group sum through a local array of {@code tile} floats, {@code tile} a parameter (one
   * compiled kernel for every tile size), read back through {@code s.length}; a second local array
   * sized from the work-group's size holds each item's index.
   */
  public static void tiledSums(KernelContext ctx, FloatArray in, FloatArray out, IntArray order, int tile) {
    float[] s = ctx.allocateFloatLocalArray(tile);
    int[] ids = ctx.allocateIntLocalArray(ctx.localGroupSizeX * 2);
    int me = ctx.localIdx, g = ctx.globalIdx;
    s[me] = g < in.getSize() ? in.get(g) : 0f;
    ids[2 * me] = g;
    ids[2 * me + 1] = -g;
    ctx.localBarrier();
    if (me == 0) {
      float sum = 0f;
      for (int k = 0; k < s.length; k++) sum += s[k];
      out.set(ctx.groupIdx, sum);
    }
    int next = (me + 1) % ctx.localGroupSizeX;
    if (g < order.getSize()) order.set(g, ids[2 * next] + ids[ids.length - 1 - 2 * me]);
  }

  /** Byte, short, half, long and double local arrays sized at launch: each item reads its right neighbour's values. */
  public static void narrowNeighbours(KernelContext ctx, ByteArray b, ShortArray sh, HalfFloatArray h, LongArray l, DoubleArray d, int n) {
    byte[] lb = ctx.allocateByteLocalArray(n);
    short[] ls = ctx.allocateShortLocalArray(ctx.localGroupSizeX);
    HalfFloat[] lh = ctx.allocateHalfFloatLocalArray(n + 1);
    long[] ll = ctx.allocateLongLocalArray(n);
    double[] ld = ctx.allocateDoubleLocalArray(n * 2 - ctx.localGroupSizeX);
    int me = ctx.localIdx, g = ctx.globalIdx;
    boolean in = g < b.getSize();
    lb[me] = in ? b.get(g) : 0;
    ls[me] = in ? sh.get(g) : 0;
    lh[me] = in ? h.getHalfFloat(g) : new HalfFloat(0f);   // a HalfFloat chosen by ?:
    ll[me] = in ? l.get(g) : 0L;
    ld[me] = in ? d.get(g) : 0.0;
    ctx.localBarrier();
    int next = (me + 1) % ctx.localGroupSizeX;
    byte vb = lb[next];
    short vs = ls[next];
    HalfFloat vh = lh[next];
    long vl = ll[next];
    double vd = ld[next];
    ctx.localBarrier();
    if (in) {
      b.set(g, (byte) (vb * 3));
      sh.set(g, (short) (vs + 1000));
      h.set(g, HalfFloat.mult(vh, new HalfFloat(1.5f)));
      l.set(g, vl << 9);
      d.set(g, vd * 0.25);
    }
  }

  /** Every SIMD-group operation on ints, floats, longs and doubles; each work-item writes what it got. */
  public static void simd(KernelContext ctx, IntArray ints, FloatArray floats, LongArray longs, DoubleArray doubles, IntArray out) {
    int g = ctx.globalIdx, n = ints.getSize();
    int i = g < n ? ints.get(g) : 0;
    float f = g < n ? floats.get(g) : 0f;
    long l = g < n ? longs.get(g) : 0L;
    double d = g < n ? doubles.get(g) : 0.0;
    int lane = ctx.simdLaneId(), group = ctx.simdGroupId(), size = ctx.simdGroupSize();
    int shuffled = ctx.simdShuffle(i, (lane * 7 + 3) % 32);
    float down = ctx.simdShuffleDown(f, 1);
    long broadcast = ctx.simdBroadcast(l, 5);
    double first = ctx.simdBroadcastFirst((float) d);
    int sum = ctx.simdSum(i);
    float fsum = ctx.simdSum(f);
    long lmax = ctx.simdMax(l);
    double dsum = ctx.simdSum(d);
    float fmax = ctx.simdMax(f);
    if (g < n) {
      ints.set(g, shuffled + sum);
      floats.set(g, down + fsum * 0.5f + fmax);
      longs.set(g, broadcast ^ lmax);
      doubles.set(g, first + dsum);
      out.set(g, lane + 100 * group + 10000 * size);
    }
  }

  /** Debug.printf from a parallel loop, for the values that need it; the kernel's own result besides. */
  public static void printNegatives(FloatArray a, IntArray count) {
    for (@Parallel int i = 0; i < a.getSize(); i++) {
      float x = a.get(i);
      if (x < -0.99f) Debug.printf("a[%d] = %.3f (%x, %c)\n", i, x, i * 31, 'A' + i % 26);
      count.set(i, x < -0.99f ? 1 : 0);
    }
  }

  /** Refused: a local array whose size differs between the work-items of a group. */
  public static void sizedPerWorkItem(KernelContext ctx, IntArray out) {
    int[] mine = ctx.allocateIntLocalArray(ctx.localIdx + 1);
    mine[0] = ctx.localIdx;
    out.set(ctx.globalIdx, mine[0]);
  }
}
