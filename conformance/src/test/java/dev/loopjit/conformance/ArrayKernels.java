// Conformance kernels for arrays: heap vs off-heap of every type, half floats, lengths, private arrays, aliasing, @Reduce.
package dev.loopjit.conformance;

import dev.loopjit.api.Parallel;
import dev.loopjit.api.Reduce;
import dev.loopjit.types.ByteArray;
import dev.loopjit.types.DoubleArray;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.HalfFloatArray;
import dev.loopjit.types.IntArray;
import dev.loopjit.types.LongArray;
import dev.loopjit.types.ShortArray;

/** Array kernels, checked against the jvm by {@link ArrayKernelsTest}. */
public final class ArrayKernels {
  private ArrayKernels() {}

  public static void heapAndOffHeap(float[] a, FloatArray b, float[] sum, FloatArray product) {
    for (@Parallel int i = 0; i < a.length; i++) {
      sum[i] = a[i] + b.get(i);
      product.set(i, a[i] * b.get(i));
    }
  }

  /** Reads and writes every off-heap type. */
  public static void everyOffHeapType(DoubleArray d, IntArray n, LongArray l, ShortArray s, ByteArray b, HalfFloatArray h, FloatArray out) {
    for (@Parallel int i = 0; i < out.getSize(); i++) {
      out.set(i, (float) d.get(i) + n.get(i) + l.get(i) + s.get(i) + b.get(i) + h.getFloat(i));
      d.set(i, d.get(i) * 2.0);
      n.set(i, n.get(i) + 1);
      l.set(i, ~l.get(i));
      s.set(i, (short) (s.get(i) + 1));
      b.set(i, (byte) (b.get(i) ^ 0x5A));
      h.set(i, h.getFloat(i) * 0.5f);
    }
  }

  /** Halves load as float (getFloat), compute in float, and store rounded to nearest even (overflowing to infinity). */
  public static void halfFloat(HalfFloatArray h, FloatArray f, HalfFloatArray out) {
    for (@Parallel int i = 0; i < h.getSize(); i++) out.set(i, h.getFloat(i) * 2.5f + f.get(i));
  }

  public static void lengthAndGetSize(int[] a, IntArray b, int[] out) {
    for (@Parallel int i = 0; i < a.length; i++) out[i] = a.length * 1000 + b.getSize() + a[i] * b.get(i % b.getSize());
  }

  /** A private float[8] per work-item: a window sorted by insertion, its median taken. */
  public static void privateWindowMedian(float[] a, float[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      float[] w = new float[8];
      for (int k = 0; k < 8; k++) w[k] = a[(i + k) % a.length];
      for (int k = 1; k < 8; k++) {
        float v = w[k];
        int j = k - 1;
        while (j >= 0 && w[j] > v) {
          w[j + 1] = w[j];
          j--;
        }
        w[j + 1] = v;
      }
      out[i] = (w[3] + w[4]) * 0.5f;
    }
  }

  /** A private int[16] histogram per row. */
  public static void privateHistogram(int[] a, int[] out, int cols) {
    for (@Parallel int r = 0; r < a.length / cols; r++) {
      int[] h = new int[16];
      for (int c = 0; c < cols; c++) h[a[r * cols + c] & 15]++;
      for (int k = 0; k < 16; k++) out[r * 16 + k] = h[k];
    }
  }

  /** Reads a private array before writing all of it: every work-item's must start zeroed. */
  public static void privateArrayStartsZeroed(int[] a, int[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      int[] t = new int[5];
      t[a[i] & 3] += a[i];
      t[4] += t[(a[i] >> 2) & 3];
      out[i] = t[0] + 2 * t[1] + 3 * t[2] + 4 * t[3] + 5 * t[4];
    }
  }

  public static void inPlace(float[] a) {
    for (@Parallel int i = 0; i < a.length; i++) a[i] = a[i] * 2f + 1f;
  }

  /** Called with the same array for both parameters. */
  public static void sameArrayTwice(int[] src, int[] dst) {
    for (@Parallel int i = 0; i < src.length; i++) dst[i] = src[i] + 1;
  }

  /** int addition wraps, so any order of summation gives the same total. */
  public static void reduceSumInt(int[] in, @Reduce int[] out) {
    for (@Parallel int i = 0; i < in.length; i++) out[0] += in[i];
  }

  public static void reduceSumFloat(FloatArray in, @Reduce FloatArray out) {
    for (@Parallel int i = 0; i < in.getSize(); i++) out.set(0, out.get(0) + in.get(i));
  }

  public static void reduceMax(float[] in, @Reduce float[] out) {
    for (@Parallel int i = 0; i < in.length; i++) out[0] = Math.max(out[0], in[i]);
  }

  /** An array variable that refers to one of two parameters, chosen once by a scalar (TornadoVM's ping-pong buffers). */
  public static void pingPong(FloatArray a, FloatArray b, FloatArray out, int step) {
    FloatArray src, dst;
    if (step % 2 == 0) {
      src = a;
      dst = b;
    } else {
      src = b;
      dst = a;
    }
    for (@Parallel int i = 0; i < src.getSize(); i++) {
      dst.set(i, src.get(i) * 0.5f + 1f);
      out.set(i, dst.get(i) - src.get(i % dst.getSize()));
    }
  }

  /** Per work-item: a Java array chosen by ?: from three (of different lengths) and read; another chosen by a test, written. */
  public static void chosenPerItem(int[] a, int[] b, int[] c, int[] x, int[] out, int[] evens, int[] odds) {
    for (@Parallel int i = 0; i < out.length; i++) {
      int[] p = x[i] > 0 ? a : b;
      if (x[i] < -50) p = c;
      out[i] = p[i % p.length] * 3 + p.length;
      int[] q = (x[i] & 1) == 0 ? evens : odds;
      q[i] = x[i];
    }
  }

  /**
   * Arrays made in the kernel with a size known at launch: a row of {@code n} floats per work-item
   * (filled, read backwards), a {@code long} one from an off-heap array's length, an int histogram
   * of {@code bins} made anew each round; every length read back.
   */
  public static void sizedAtLaunch(float[] a, FloatArray weights, float[] out, long[] sums, int[] counts, int n, int bins) {
    for (@Parallel int i = 0; i < out.length; i++) {
      float[] row = new float[n];
      for (int k = 0; k < row.length; k++) row[k] = a[(i * n + k) % a.length] * weights.get(k % weights.getSize());
      float s = 0f;
      for (int k = row.length - 1; k >= 0; k--) s = s * 0.5f + row[k];
      long[] wide = new long[weights.getSize() + 1];
      for (int k = 1; k < wide.length; k++) wide[k] = wide[k - 1] + (long) (weights.get(k - 1) * 1000f) * (i + 1);
      int seen = 0;
      for (int round = 0; round < 2; round++) {
        int[] histogram = new int[bins];
        for (int k = 0; k < n; k++) histogram[(int) Math.abs(row[k] * 7f) % bins]++;
        seen += histogram[round % bins];
      }
      out[i] = s + row.length;
      sums[i] = wide[wide.length - 1] + wide.length;
      counts[i] = seen;
    }
  }

  /**
   * AtomicInteger counters (TornadoVM's atomics API): how many elements pass each test, counted by
   * every work-item at once; a count does not depend on the order, so it is exact on every device.
   * The values the updates return are left unused here (they depend on the order). One made before
   * the loop counts too, and is read after it.
   */
  public static void atomicCounts(float[] a, java.util.concurrent.atomic.AtomicInteger positive, java.util.concurrent.atomic.AtomicInteger large,
      java.util.concurrent.atomic.AtomicInteger weight, int[] small) {
    java.util.concurrent.atomic.AtomicInteger below = new java.util.concurrent.atomic.AtomicInteger(1000);
    for (@Parallel int i = 0; i < a.length; i++) {
      if (a[i] > 0f) positive.incrementAndGet();
      if (Math.abs(a[i]) > 1.5f) large.getAndDecrement();
      weight.addAndGet(i % 3);
      if (Math.abs(a[i]) < 0.25f) below.incrementAndGet();
    }
    small[0] = below.get();
  }
}
