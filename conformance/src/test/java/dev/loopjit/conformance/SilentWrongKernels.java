// Conformance kernels for the two results TornadoVM's tests found silently wrong (issue #26), and their shapes' neighbours.
package dev.loopjit.conformance;

import dev.loopjit.api.KernelContext;
import dev.loopjit.api.Parallel;
import dev.loopjit.types.FloatArray;

/**
 * Checked against the jvm on every device by {@link SilentWrongKernelsTest}. The KernelContext
 * kernels put barriers under a condition the whole work-group shares (an early return, an if, a
 * return inside a loop of barriers, a helper that returns early); PoCL 3.1 ran the first one's
 * {@code lid == 0} block once per work-item before the {@code barriers} pass (docs/DRIVER-WORKAROUNDS.md §2).
 */
public final class SilentWrongKernels {
  private SilentWrongKernels() {}

  /** TornadoVM's TransformerKernelsTest.testMatrixVectorGenericWithResidual: hb[row] += w[row, :] · x, one work-group per row. */
  public static void matrixVectorWithResidual(KernelContext ctx, FloatArray x, FloatArray hb, FloatArray w, int n, int d, int localSize) {
    int row = ctx.groupIdx;
    int lid = ctx.localIdx;
    if (row >= d) return;
    float sum = rowSum(ctx, localSize, x, w, n);
    if (lid == 0) {
      float result = hb.get(row) + sum;
      hb.set(row, result);
    }
  }

  /** A barrier inside an if whose condition the group shares, and one in the else with a different use of local memory. */
  public static void barrierInUniformIf(KernelContext ctx, FloatArray in, FloatArray out, int mode) {
    float[] tile = ctx.allocateFloatLocalArray(64);
    int l = ctx.localIdx, g = ctx.globalIdx, n = in.getSize();
    if ((ctx.groupIdx + mode) % 2 == 0) {
      tile[l] = g < n ? in.get(g) : 0f;
      ctx.localBarrier();
      if (g < n) out.set(g, tile[ctx.localGroupSizeX - 1 - l] + 1f);
    } else {
      tile[l] = g < n ? 2f * in.get(g) : 0f;
      ctx.localBarrier();
      if (l == 0) {
        float s = 0f;
        for (int k = 0; k < ctx.localGroupSizeX; k++) s += tile[k];
        int first = ctx.groupIdx * ctx.localGroupSizeX;
        if (first < out.getSize()) out.set(first, s);
      }
    }
  }

  /** A tree sum whose groups past {@code groups} return early, and whose loop of barriers returns once the stride is below {@code stop}. */
  public static void returnsAroundBarrierLoop(KernelContext ctx, FloatArray in, FloatArray partial, int groups, int stop) {
    float[] tile = ctx.allocateFloatLocalArray(64);
    int l = ctx.localIdx, g = ctx.globalIdx;
    if (ctx.groupIdx >= groups) return;
    tile[l] = g < in.getSize() ? in.get(g) : 0f;
    for (int s = ctx.localGroupSizeX / 2; s > 0; s >>= 1) {
      ctx.localBarrier();
      if (s < stop) {
        if (l == 0) partial.set(ctx.groupIdx, -tile[0]);
        return;
      }
      if (l < s) tile[l] += tile[l + s];
    }
    if (l == 0) partial.set(ctx.groupIdx, tile[0]);
  }

  /** A helper that returns early (for the whole group) before its barrier, called twice. */
  public static void helperReturnsBeforeBarrier(KernelContext ctx, FloatArray in, FloatArray out, int skip) {
    float a = groupFirst(ctx, in, skip);
    float b = groupFirst(ctx, in, skip + 1);
    int g = ctx.globalIdx;
    if (g < out.getSize()) out.set(g, a * 10f + b);
  }

  static float groupFirst(KernelContext ctx, FloatArray in, int skip) {
    float[] tile = ctx.allocateFloatLocalArray(64);
    if (ctx.groupIdx % 3 == skip % 3) return -1f;
    int g = ctx.globalIdx;
    tile[ctx.localIdx] = g < in.getSize() ? in.get(g) : 0f;
    ctx.localBarrier();
    float v = tile[0];
    ctx.localBarrier();
    return v;
  }

  static float rowSum(KernelContext ctx, int localSize, FloatArray x, FloatArray w, int n) {
    int row = ctx.groupIdx;
    int lid = ctx.localIdx;
    float[] local = ctx.allocateFloatLocalArray(localSize);
    int offset = row * n;
    float partial = 0f;
    for (int j = lid; j < n; j += localSize) partial += w.get(offset + j) * x.get(j);
    local[lid] = partial;
    ctx.localBarrier();
    for (int stride = localSize / 2; stride > 0; stride >>= 1) {
      if (lid < stride) local[lid] += local[lid + stride];
      ctx.localBarrier();
    }
    return local[0];
  }

  /** A variable set before the loop and assigned in every iteration before it is read: each work-item's own, as Java's. */
  public static void variableAssignedBeforeRead(int[] a, int[] b, int k) {
    int carried = k;
    for (@Parallel int i = 0; i < a.length; i++) {
      if (a[i] > 0) carried = a[i];
      else carried = -a[i] + k;
      b[i] = carried * 3;
    }
  }

  /** A private array set before the loop and only read in it: every work-item starts from the same values. */
  public static void privateArrayReadOnly(int[] a, int[] b) {
    int[] q = {3, 1, 4, 1, 5, 9, 2, 6};
    int base = q[2] * 10;
    for (@Parallel int i = 0; i < a.length; i++) b[i] = q[a[i] & 7] + base;
    b[0] = b[0] + q[5];
  }

  /**
   * A private array allocated before the loop and written inside it is each work-item's own; the
   * iteration reads only the element it wrote, so every device gives Java's result.
   */
  public static void privateArrayWrittenBefore(float[] a) {
    float[] t = new float[4];
    t[1] = 3;
    for (@Parallel int i = 0; i < a.length; i++) {
      t[0] = i;
      a[i] = t[0] + t[1];
    }
  }
}
