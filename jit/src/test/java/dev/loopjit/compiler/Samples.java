// Small kernels the compiler's own tests read: one per shape the front end must structure.
package dev.loopjit.compiler;

import dev.loopjit.api.KernelContext;
import dev.loopjit.api.Parallel;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;

/** Kernels for front-end tests; each is also valid Java that runs on the JVM. */
public final class Samples {
  private Samples() {}

  public static void saxpy(float a, FloatArray x, FloatArray y) {
    for (@Parallel int i = 0; i < y.getSize(); i++) y.set(i, a * x.get(i) + y.get(i));
  }

  public static void matmul(float[] a, float[] b, float[] c, int n) {
    for (@Parallel int i = 0; i < n; i++)
      for (@Parallel int j = 0; j < n; j++) {
        float acc = 0f;
        for (int k = 0; k < n; k++) acc += a[i * n + k] * b[k * n + j];
        c[i * n + j] = acc;
      }
  }

  public static void reverse(int[] in, int[] out, int n) {
    for (@Parallel int i = n - 1; i >= 0; i--) out[n - 1 - i] = in[i] > 0 && in[i] < 100 ? in[i] : -1;
  }

  static int clampAdd(int a, int b) {
    int s = a + b;
    if (s > 1000) return 1000;
    if (s < -1000) return -1000;
    return s;
  }

  public static void calls(IntArray x) {
    for (@Parallel int i = 0; i < x.getSize(); i++) {
      int v = x.get(i);
      x.set(i, clampAdd(v, Math.floorMod(v, 7)) + Integer.rotateLeft(v, 3));
    }
  }

  public static void control(int[] x, int[] y) {
    outer:
    for (@Parallel int i = 0; i < x.length; i++) {
      int acc = 0;
      for (int k = 0; k < 10; k++) {
        if (k == x[i]) continue;
        switch (k % 4) {
          case 0 -> acc += 1;
          case 1 -> acc -= 2;
          case 2 -> {
            if (acc > 5) continue outer;
            acc *= 2;
          }
          default -> acc ^= k;
        }
        if (acc > 100) break;
      }
      int j = 0;
      do {
        acc += j;
        j++;
      } while (j < 3);
      while (acc > 50) acc -= 7;
      y[i] = acc;
    }
  }

  public static void single(float[] x) {
    float s = 0;
    for (int i = 0; i < x.length; i++) s += x[i];
    x[0] = s;
  }

  public static void reduceGroups(KernelContext ctx, FloatArray in, FloatArray out) {
    float[] tile = ctx.allocateFloatLocalArray(64);
    int l = ctx.localIdx;
    tile[l] = ctx.globalIdx < in.getSize() ? in.get(ctx.globalIdx) : 0f;
    for (int s = ctx.localGroupSizeX / 2; s > 0; s /= 2) {
      ctx.localBarrier();
      if (l < s) tile[l] += tile[l + s];
    }
    if (l == 0) out.set(ctx.groupIdx, tile[0]);
  }
}
