// Kernels for the jvm-mt device's own tests: chunk edges, odd loop shapes, work-item state, reductions of every operator and type.
package dev.loopjit.backend.jvmmt;

import dev.loopjit.api.KernelContext;
import dev.loopjit.api.Parallel;
import dev.loopjit.api.Reduce;
import dev.loopjit.types.DoubleArray;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.HalfFloatArray;
import dev.loopjit.types.IntArray;

/** @Parallel and KernelContext kernels whose chunked and threaded runs must match the jvm. */
public final class ChunkKernels {
  private ChunkKernels() {}

  public static void scaleAdd(int[] a, int[] out, int k) {
    for (@Parallel int i = 0; i < a.length; i++) out[i] = a[i] * k + i;
  }

  /** Backwards with a step of 3: chunks of the iteration space, not of the index range. */
  public static void everyThirdBackwards(float[] a, float[] out) {
    for (@Parallel int i = a.length - 1; i >= 0; i -= 3) out[i] = a[i] * 2f + 1f;
  }

  public static void table(IntArray out, int rows, int cols) {
    for (@Parallel int r = 0; r < rows; r++)
      for (@Parallel int c = 0; c < cols; c++) out.set(r * cols + c, r * 1000 + c);
  }

  public static void cube(int[] out, int nx, int ny, int nz) {
    for (@Parallel int z = 0; z < nz; z++)
      for (@Parallel int y = 0; y < ny; y++)
        for (@Parallel int x = 0; x < nx; x++) out[(z * ny + y) * nx + x] = z * 10000 + y * 100 + x;
  }

  /** A variable set before the nest and updated in it: Java carries it from one iteration to the next (refused). */
  public static void startsFresh(int[] out, int base) {
    int acc = base;
    for (@Parallel int i = 0; i < out.length; i++) {
      acc += i;
      out[i] = acc;
    }
  }

  /** A parameter updated in the loop: carried as {@link #startsFresh}'s variable (refused). */
  public static void parameterStartsFresh(int[] out, int base) {
    for (@Parallel int i = 0; i < out.length; i++) {
      base += i;
      out[i] = base;
    }
  }

  /** A private array filled before the nest and written in it: its element carried as {@link #startsFresh}'s variable (refused). */
  public static void privateArrayStartsFresh(int[] out) {
    int[] t = new int[2];
    t[0] = 5;
    for (@Parallel int i = 0; i < out.length; i++) {
      t[1] += i;
      out[i] = t[0] + t[1];
    }
  }

  public static void halves(HalfFloatArray a, HalfFloatArray out) {
    for (@Parallel int i = 0; i < a.getSize(); i++) out.set(i, a.getFloat(i) * 3f + 0.1f);
  }

  public static void outOfBounds(FloatArray a, float[] out, int shift) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = a.get(i + shift) + 1f;
  }

  public static void sumInt(int[] in, @Reduce int[] out) {
    for (@Parallel int i = 0; i < in.length; i++) out[0] += in[i];
  }

  public static void productInt(int[] in, @Reduce int[] out) {
    for (@Parallel int i = 0; i < in.length; i++) out[0] *= in[i];
  }

  public static void minLong(long[] in, @Reduce long[] out) {
    for (@Parallel int i = 0; i < in.length; i++) out[0] = Math.min(out[0], in[i]);
  }

  public static void maxLong(long[] in, @Reduce long[] out) {
    for (@Parallel int i = 0; i < in.length; i++) out[0] = Math.max(out[0], in[i]);
  }

  public static void sumFloat(float[] in, @Reduce float[] out) {
    for (@Parallel int i = 0; i < in.length; i++) out[0] += in[i];
  }

  public static void productFloat(float[] in, @Reduce float[] out) {
    for (@Parallel int i = 0; i < in.length; i++) out[0] *= in[i];
  }

  public static void minMaxFloat(float[] in, @Reduce float[] out) {
    for (@Parallel int i = 0; i < in.length; i++) {
      out[0] = Math.min(out[0], in[i]);
      out[1] = Math.max(out[1], in[i]);
    }
  }

  public static void sumDouble(double[] in, @Reduce double[] out) {
    for (@Parallel int i = 0; i < in.length; i++) out[0] += in[i];
  }

  public static void productDouble(double[] in, @Reduce double[] out) {
    for (@Parallel int i = 0; i < in.length; i++) out[0] *= in[i];
  }

  public static void minMaxDouble(double[] in, @Reduce double[] out) {
    for (@Parallel int i = 0; i < in.length; i++) {
      out[0] = Math.min(out[0], in[i]);
      out[1] = Math.max(out[1], in[i]);
    }
  }

  public static void sumLong(long[] in, @Reduce long[] out) {
    for (@Parallel int i = 0; i < in.length; i++) out[0] += in[i];
  }

  public static void productLong(long[] in, @Reduce long[] out) {
    for (@Parallel int i = 0; i < in.length; i++) out[0] *= in[i];
  }

  public static void minMaxInt(int[] in, @Reduce int[] out) {
    for (@Parallel int i = 0; i < in.length; i++) {
      out[0] = Math.min(out[0], in[i]);
      out[1] = Math.max(out[1], in[i]);
    }
  }

  /** A 2-D reduction: each chunk of rows adds its partial sum once. */
  public static void sum2d(int[] m, @Reduce long[] out, int rows, int cols) {
    for (@Parallel int r = 0; r < rows; r++)
      for (@Parallel int c = 0; c < cols; c++) out[0] += m[r * cols + c];
  }

  /** A work-group sum in local memory with barriers in a loop; one partial per group. */
  public static void groupSums(KernelContext ctx, IntArray in, IntArray partial) {
    int[] tile = ctx.allocateIntLocalArray(256);
    int l = ctx.localIdx, g = ctx.globalIdx;
    tile[l] = g < in.getSize() ? in.get(g) : 0;
    for (int s = ctx.localGroupSizeX / 2; s > 0; s >>= 1) {
      ctx.localBarrier();
      if (l < s) tile[l] += tile[l + s];
    }
    if (l == 0) partial.set(ctx.groupIdx, tile[0]);
  }

  /** Reverses each 2-D tile through local memory: every item reads what another wrote before the barrier. */
  public static void reverseTiles(KernelContext ctx, IntArray in, IntArray out, int cols) {
    int[] tile = ctx.allocateIntLocalArray(64);
    int lx = ctx.localIdx, ly = ctx.localIdy, w = ctx.localGroupSizeX, h = ctx.localGroupSizeY;
    int me = ly * w + lx;
    int x = ctx.globalIdx, y = ctx.globalIdy;
    tile[me] = in.get(y * cols + x);
    ctx.localBarrier();
    out.set(y * cols + x, tile[w * h - 1 - me]);
  }

  /** Out of bounds in one work-item of a group whose others wait at a barrier: must fail, not hang. */
  public static void failsBeforeBarrier(KernelContext ctx, IntArray in, IntArray out) {
    int[] tile = ctx.allocateIntLocalArray(64);
    int l = ctx.localIdx;
    tile[l] = in.get(ctx.globalIdx + (l == 3 ? 1_000_000 : 0));
    ctx.localBarrier();
    out.set(ctx.globalIdx, tile[(l + 1) % ctx.localGroupSizeX]);
  }

  /** No barrier: a group's items run in a loop on one thread; atomics across groups. */
  public static void histogram(KernelContext ctx, IntArray in, IntArray bins) {
    int g = ctx.globalIdx;
    if (g < in.getSize()) ctx.atomicAdd(bins, in.get(g) & 15, 1);
  }

  /** Runs in lanes on jvm-mt: the inner loop reads b along x. */
  public static void matmul(float[] a, float[] b, float[] c, int rows, int inner, int cols) {
    for (@Parallel int i = 0; i < rows; i++)
      for (@Parallel int j = 0; j < cols; j++) {
        float acc = 0f;
        for (int k = 0; k < inner; k++) acc += a[i * inner + k] * b[k * cols + j];
        c[i * cols + j] = acc;
      }
  }

  /** Lanes on jvm-mt with values of the row: a row offset that depends on i alone and a bias per row. */
  public static void matmulRowBias(float[] a, float[] b, float[] bias, float[] c, int rows, int inner, int cols) {
    for (@Parallel int i = 0; i < rows; i++)
      for (@Parallel int j = 0; j < cols; j++) {
        int row = i * inner;
        float r = bias[i];
        float acc = r * 0.5f;
        for (int k = 0; k < inner; k++) acc += a[row + k] * b[k * cols + j] + r;
        c[i * cols + j] = acc - r;
      }
  }

  /** Lanes with a branch that depends on the row (the same for every lane). */
  public static void matmulOddRows(float[] a, float[] b, float[] c, int rows, int inner, int cols) {
    for (@Parallel int i = 0; i < rows; i++)
      for (@Parallel int j = 0; j < cols; j++) {
        float acc = 0f;
        for (int k = 0; k < inner; k++) if (i % 2 == 1) acc += a[i * inner + k] * b[k * cols + j];
        c[i * cols + j] = acc;
      }
  }

  /** Lanes in 1-D, with a uniform branch in the inner loop, an offset index and a value that differs per lane before the loop. */
  public static void columnSums(DoubleArray m, double[] out, int rows, int cols, int skip) {
    for (@Parallel int j = 0; j < cols; j++) {
      double s = j * 0.5;
      int col = j + 1;
      for (int r = 0; r < rows; r++) {
        if (r == skip) continue;
        s = s * 0.75 + m.get(r * (cols + 1) + col);
      }
      out[j] = s;
    }
  }

  /** Not in lanes (a branch that differs per lane), still right. */
  public static void positiveColumnSums(float[] m, float[] out, int rows, int cols) {
    for (@Parallel int j = 0; j < cols; j++) {
      float s = 0f;
      for (int r = 0; r < rows; r++) if (m[r * cols + j] > 0f) s += m[r * cols + j];
      out[j] = s;
    }
  }

  /** In lanes, and one lane reads past the end of b. */
  public static void matmulOutOfBounds(float[] a, float[] b, float[] c, int n) {
    for (@Parallel int i = 0; i < n; i++)
      for (@Parallel int j = 0; j < n; j++) {
        float acc = 0f;
        for (int k = 0; k < n; k++) acc += a[i * n + k] * b[k * n + j + (j == n - 1 ? 1 : 0) * n];
        c[i * n + j] = acc;
      }
  }

  /** A barrier inside a switch: the group does not fit fission, so its work-items run as threads. */
  public static void barrierInSwitch(KernelContext ctx, IntArray in, IntArray out, int mode) {
    int[] tile = ctx.allocateIntLocalArray(64);
    int l = ctx.localIdx;
    tile[l] = in.get(ctx.globalIdx);
    switch (mode) {
      case 1:
        ctx.localBarrier();
        out.set(ctx.globalIdx, tile[(l + 1) % ctx.localGroupSizeX]);
        break;
      default:
        ctx.localBarrier();
        out.set(ctx.globalIdx, tile[l] * 2);
    }
  }

  /** {@link #barrierInSwitch} with its tile sized at launch from the work-group's size (no fission: threads). */
  public static void sizedTileInSwitch(KernelContext ctx, IntArray in, IntArray out, int mode) {
    int[] tile = ctx.allocateIntLocalArray(ctx.localGroupSizeX);
    int l = ctx.localIdx;
    tile[l] = in.get(ctx.globalIdx);
    switch (mode) {
      case 1:
        ctx.localBarrier();
        out.set(ctx.globalIdx, tile[(l + 1) % tile.length]);
        break;
      default:
        ctx.localBarrier();
        out.set(ctx.globalIdx, tile[tile.length - 1 - l] * 2);
    }
  }

  /** Work-items past the end return before the barrier; the others meet there and go on. */
  public static void returnsBeforeBarrier(KernelContext ctx, IntArray in, IntArray out, int n) {
    int[] tile = ctx.allocateIntLocalArray(64);
    int g = ctx.globalIdx, l = ctx.localIdx;
    if (g >= n) return;
    tile[l] = in.get(g);
    ctx.localBarrier();
    int next = l + 1 < ctx.localGroupSizeX && g + 1 < n ? tile[l + 1] : 0;
    out.set(g, tile[l] + next);
  }

  /** Two work-items of each group wait at a barrier the others never reach (undefined in OpenCL). */
  public static void divergentBarrier(KernelContext ctx, IntArray out) {
    if (ctx.localIdx < 2) ctx.localBarrier();
    out.set(ctx.globalIdx, 1);
  }

  /** Jammed on jvm-mt: a row per iteration, so four rows run interleaved, each with its own sum. */
  public static void rowSums(float[] m, float[] v, float[] out, int cols) {
    for (@Parallel int r = 0; r < out.length; r++) {
      float s = 0f;
      for (int c = 0; c < cols; c++) s += m[r * cols + c] * v[c];
      out[r] = s;
    }
  }

  /** Jammed in 2-D, with a uniform branch inside the loop and a value per lane before it. */
  public static void dense(DoubleArray x, DoubleArray w, double[] bias, double[] y, int batch, int in, int out) {
    for (@Parallel int b = 0; b < batch; b++)
      for (@Parallel int o = 0; o < out; o++) {
        double acc = bias[o];
        for (int i = 0; i < in; i++) {
          if (i % 7 == 3) continue;
          acc = acc * 0.999 + x.get(b * in + i) * w.get(o * in + i);
        }
        y[b * out + o] = acc;
      }
  }
}
