// Conformance kernels for the two results TornadoVM's tests found silently wrong (issue #26).
package dev.loopjit.conformance;

import dev.loopjit.api.KernelContext;
import dev.loopjit.api.Parallel;
import dev.loopjit.types.FloatArray;

public final class SilentWrongKernels {
  private SilentWrongKernels() {}

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
