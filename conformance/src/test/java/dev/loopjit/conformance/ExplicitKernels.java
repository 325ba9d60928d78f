// Conformance kernels written with KernelContext: ids, guards, local memory with barriers, atomics.
package dev.loopjit.conformance;

import dev.loopjit.api.KernelContext;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import dev.loopjit.types.LongArray;

/** Explicit kernels, checked against the jvm by {@link ExplicitKernelsTest} on grids whose sizes are not multiples of the local size. */
public final class ExplicitKernels {
  private ExplicitKernels() {}

  public static void saxpy(KernelContext ctx, float a, FloatArray x, FloatArray y) {
    int i = ctx.globalIdx;
    if (i < y.getSize()) y.set(i, a * x.get(i) + y.get(i));
  }

  /** Every id of a 2-D grid, encoded in one int. */
  public static void ids2D(KernelContext ctx, IntArray out, int width, int height) {
    int x = ctx.globalIdx, y = ctx.globalIdy;
    if (x < width && y < height)
      out.set(y * width + x, ctx.localIdx + 10 * ctx.localIdy + 100 * ctx.groupIdx + 10000 * ctx.groupIdy
          + 1000000 * (ctx.localGroupSizeX + ctx.localGroupSizeY));
  }

  /** A tree sum per work-group in local memory (local size at most 64, a power of two). */
  public static void localSum(KernelContext ctx, FloatArray in, FloatArray partial) {
    float[] tile = ctx.allocateFloatLocalArray(64);
    int l = ctx.localIdx, g = ctx.globalIdx;
    tile[l] = g < in.getSize() ? in.get(g) : 0f;
    for (int s = ctx.localGroupSizeX / 2; s > 0; s >>= 1) {
      ctx.localBarrier();
      if (l < s) tile[l] += tile[l + s];
    }
    if (l == 0) partial.set(ctx.groupIdx, tile[0]);
  }

  public static void atomicHistogram(KernelContext ctx, IntArray data, IntArray histogram) {
    int g = ctx.globalIdx;
    if (g < data.getSize()) ctx.atomicAdd(histogram, data.get(g) & 15, 1);
  }

  /** Atomic adds of every kind; the float values are small integers, so every order gives the same total. */
  public static void atomicSums(KernelContext ctx, FloatArray data, FloatArray floatTotal, LongArray longTotal, int[] counts) {
    int g = ctx.globalIdx;
    if (g < data.getSize()) {
      ctx.atomicAdd(floatTotal, 0, data.get(g));
      ctx.atomicAdd(longTotal, g % 2, (long) data.get(g) << 33);
      ctx.atomicAdd(counts, g % 3, 1);
    }
  }

  /** A transpose through an 8 x 8 tile of local memory: in is rows x cols, out cols x rows. */
  public static void transposeTile(KernelContext ctx, FloatArray in, FloatArray out, int rows, int cols) {
    float[] tile = ctx.allocateFloatLocalArray(64);
    int lx = ctx.localIdx, ly = ctx.localIdy;
    int x = ctx.groupIdx * 8 + lx, y = ctx.groupIdy * 8 + ly;
    if (x < cols && y < rows) tile[ly * 8 + lx] = in.get(y * cols + x);
    ctx.localBarrier();
    int tx = ctx.groupIdy * 8 + lx, ty = ctx.groupIdx * 8 + ly;
    if (tx < rows && ty < cols) out.set(ty * rows + tx, tile[lx * 8 + ly]);
  }
}
