// More KernelContext kernels: every id and size field in 3-D, local arrays of each type, globalBarrier, helpers given the context.
package dev.loopjit.conformance;

import dev.loopjit.api.KernelContext;
import dev.loopjit.types.DoubleArray;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import dev.loopjit.types.LongArray;

/** Explicit kernels checked by {@link ExplicitMoreKernelsTest}. */
public final class ExplicitMoreKernels {
  private ExplicitMoreKernels() {}

  /** Every geometry field of a 3-D grid, packed per work-item. */
  public static void ids3D(KernelContext ctx, IntArray out, int nx, int ny, int nz) {
    int x = ctx.globalIdx, y = ctx.globalIdy, z = ctx.globalIdz;
    if (x >= nx || y >= ny || z >= nz) return;
    int at = ((z * ny + y) * nx + x) * 4;
    out.set(at, ctx.localIdx + 16 * ctx.localIdy + 256 * ctx.localIdz);
    out.set(at + 1, ctx.groupIdx + 16 * ctx.groupIdy + 256 * ctx.groupIdz);
    out.set(at + 2, ctx.localGroupSizeX + 16 * ctx.localGroupSizeY + 256 * ctx.localGroupSizeZ);
    out.set(at + 3, ctx.globalGroupSizeX + 1000 * ctx.globalGroupSizeY + 1000000 * ctx.globalGroupSizeZ);
  }

  /** Int, long and double local arrays, shared through globalBarrier: each item reads its right neighbour's values. */
  public static void neighbours(KernelContext ctx, IntArray ints, LongArray longs, DoubleArray doubles) {
    int[] i = ctx.allocateIntLocalArray(32);
    long[] l = ctx.allocateLongLocalArray(32);
    double[] d = ctx.allocateDoubleLocalArray(32);
    int me = ctx.localIdx, g = ctx.globalIdx, n = ctx.localGroupSizeX;
    boolean in = g < ints.getSize();
    i[me] = in ? ints.get(g) : 0;
    l[me] = in ? longs.get(g) : 0L;
    d[me] = in ? doubles.get(g) : 0.0;
    ctx.globalBarrier();
    int next = (me + 1) % n;
    int iv = i[next];
    long lv = l[next];
    double dv = d[next];
    ctx.globalBarrier();
    if (in) {
      ints.set(g, iv * 3);
      longs.set(g, lv << 7);
      doubles.set(g, dv * 0.5);
    }
  }

  /**
   * Helpers that take the KernelContext: a work-group sum (its own local array and barriers), a
   * value computed from the ids, and a helper of a helper. Each group's sum goes to every member.
   */
  public static void groupSumsThroughHelpers(KernelContext ctx, FloatArray in, FloatArray out, int n) {
    int g = globalIndex(ctx);
    float v = g < n ? in.get(g) : 0f;
    float sum = groupSum(ctx, v);
    if (g < n) out.set(g, sum + positionInGroup(ctx));
  }

  private static int globalIndex(KernelContext ctx) {
    return ctx.globalIdx;
  }

  private static int positionInGroup(KernelContext ctx) {
    return ctx.localIdx * 1000 + ctx.groupIdx;
  }

  private static int lane(KernelContext ctx) {
    return ctx.localIdx;
  }

  /** A tree sum over the work-group (its size a power of two, at most 256), left-to-right pairs as the jvm adds them. */
  private static float groupSum(KernelContext ctx, float v) {
    float[] scratch = ctx.allocateFloatLocalArray(256);
    int l = lane(ctx), size = ctx.localGroupSizeX;
    scratch[l] = v;
    for (int stride = size / 2; stride > 0; stride /= 2) {
      ctx.localBarrier();
      if (l < stride) scratch[l] += scratch[l + stride];
    }
    ctx.localBarrier();
    float total = scratch[0];
    ctx.localBarrier();
    return total;
  }
}
