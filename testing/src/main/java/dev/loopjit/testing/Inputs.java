// Deterministic kernel inputs: the same seed gives the same values, with the edge cases of each type up front.
package dev.loopjit.testing;

import dev.loopjit.types.DoubleArray;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import dev.loopjit.types.LongArray;
import java.util.SplittableRandom;

/**
 * Seeded random arrays for kernel checks. Make a new {@code Inputs} inside the argument supplier,
 * so every device gets the same values:
 *
 * <pre>{@code
 * .args(() -> { Inputs in = new Inputs(42); return new Object[] {in.ints(n), in.nonZeroInts(n), new int[n]}; })
 * }</pre>
 *
 * The "any" generators ({@link #ints}, {@link #longs}, {@link #anyFloats}, {@link #anyDoubles})
 * put the type's edge cases first (zero, ±1, the extremes, NaN, ±infinity, ±0, subnormals,
 * values that saturate on conversion), then random values.
 */
public final class Inputs {
  /** Edge cases of int, in the order {@link #ints} puts them first. */
  public static final int[] INT_EDGES = {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, Integer.MIN_VALUE + 1,
      Integer.MAX_VALUE - 1, 2, -2, 1 << 24, (1 << 24) + 1, 46341, -46341, 0x55555555, 0xAAAAAAAA};

  /** Edge cases of long. */
  public static final long[] LONG_EDGES = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1,
      Integer.MIN_VALUE, Integer.MAX_VALUE, 1L << 32, (1L << 53) + 1, 3037000500L, 0x5555555555555555L};

  /** Edge cases of float: NaN, infinities, signed zeros, subnormals, extremes, halves, values that saturate in casts. */
  public static final float[] FLOAT_EDGES = {0f, -0f, 1f, -1f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
      Float.MIN_VALUE, -Float.MIN_VALUE, Float.MIN_NORMAL, Float.MAX_VALUE, -Float.MAX_VALUE, 0.5f, -0.5f, 1.5f, 2.5f, -2.5f,
      3e9f, -3e9f, 1e19f, -1e19f, 16777217f, 0.1f, Float.intBitsToFloat(0x7fc00001), 2.1474836E9f, -2.1474839E9f};

  /** Edge cases of double. */
  public static final double[] DOUBLE_EDGES = {0d, -0d, 1d, -1d, Double.NaN, Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE, -Double.MAX_VALUE,
      0.5, -0.5, 1.5, 2.5, -2.5, 3e9, -3e9, 1e19, -1e19, 9.223372036854776E18, 2147483647.5, -2147483648.5, 0.1,
      (double) Float.MAX_VALUE * 2, 1e-40, 0x1.000001p0};

  private final SplittableRandom random;

  /** Values determined by {@code seed}. */
  public Inputs(long seed) {
    random = new SplittableRandom(seed);
  }

  /** {@link #INT_EDGES}, then random ints over the whole range. */
  public int[] ints(int n) {
    int[] a = new int[n];
    for (int i = 0; i < n; i++) a[i] = i < INT_EDGES.length ? INT_EDGES[i] : random.nextInt();
    return a;
  }

  /** Uniform in {@code [lo, hi)}. */
  public int[] ints(int n, int lo, int hi) {
    int[] a = new int[n];
    for (int i = 0; i < n; i++) a[i] = random.nextInt(lo, hi);
    return a;
  }

  /** As {@link #ints(int)} with every zero replaced by a nonzero value: safe divisors. */
  public int[] nonZeroInts(int n) {
    int[] a = ints(n);
    for (int i = 0; i < n; i++) if (a[i] == 0) a[i] = i % 2 == 0 ? -1 : 7;
    return a;
  }

  /** {@link #LONG_EDGES}, then random longs over the whole range. */
  public long[] longs(int n) {
    long[] a = new long[n];
    for (int i = 0; i < n; i++) a[i] = i < LONG_EDGES.length ? LONG_EDGES[i] : random.nextLong();
    return a;
  }

  /** Uniform in {@code [lo, hi)}. */
  public long[] longs(int n, long lo, long hi) {
    long[] a = new long[n];
    for (int i = 0; i < n; i++) a[i] = random.nextLong(lo, hi);
    return a;
  }

  /** As {@link #longs(int)} with every zero replaced by a nonzero value: safe divisors. */
  public long[] nonZeroLongs(int n) {
    long[] a = longs(n);
    for (int i = 0; i < n; i++) if (a[i] == 0) a[i] = i % 2 == 0 ? -1 : 13;
    return a;
  }

  /** Uniform in {@code [lo, hi)}. */
  public float[] floats(int n, float lo, float hi) {
    float[] a = new float[n];
    for (int i = 0; i < n; i++) a[i] = lo + (float) random.nextDouble() * (hi - lo);
    return a;
  }

  /**
   * {@link #FLOAT_EDGES}, then a mix: a third random bit patterns (every exponent, NaN payloads,
   * subnormals), the rest uniform in [-1000, 1000).
   */
  public float[] anyFloats(int n) {
    float[] a = new float[n];
    for (int i = 0; i < n; i++)
      a[i] = i < FLOAT_EDGES.length ? FLOAT_EDGES[i]
          : random.nextInt(3) == 0 ? Float.intBitsToFloat(random.nextInt()) : (float) random.nextDouble(-1000, 1000);
    return a;
  }

  /** Uniform in {@code [lo, hi)}. */
  public double[] doubles(int n, double lo, double hi) {
    double[] a = new double[n];
    for (int i = 0; i < n; i++) a[i] = random.nextDouble(lo, hi);
    return a;
  }

  /** {@link #DOUBLE_EDGES}, then a mix of random bit patterns and uniform values in [-1e6, 1e6). */
  public double[] anyDoubles(int n) {
    double[] a = new double[n];
    for (int i = 0; i < n; i++)
      a[i] = i < DOUBLE_EDGES.length ? DOUBLE_EDGES[i]
          : random.nextInt(3) == 0 ? Double.longBitsToDouble(random.nextLong()) : random.nextDouble(-1e6, 1e6);
    return a;
  }

  /** Random shorts over the whole range, extremes first. */
  public short[] shorts(int n) {
    short[] a = new short[n];
    short[] edges = {0, 1, -1, Short.MIN_VALUE, Short.MAX_VALUE};
    for (int i = 0; i < n; i++) a[i] = i < edges.length ? edges[i] : (short) random.nextInt();
    return a;
  }

  /** Random bytes over the whole range, extremes first. */
  public byte[] bytes(int n) {
    byte[] a = new byte[n];
    byte[] edges = {0, 1, -1, Byte.MIN_VALUE, Byte.MAX_VALUE};
    for (int i = 0; i < n; i++) a[i] = i < edges.length ? edges[i] : (byte) random.nextInt();
    return a;
  }

  /** Random chars over the whole range, extremes first. */
  public char[] chars(int n) {
    char[] a = new char[n];
    char[] edges = {0, 1, 0xFFFF, 0x7FFF, 0x8000, 'a'};
    for (int i = 0; i < n; i++) a[i] = i < edges.length ? edges[i] : (char) random.nextInt();
    return a;
  }

  /** Random booleans. */
  public boolean[] booleans(int n) {
    boolean[] a = new boolean[n];
    for (int i = 0; i < n; i++) a[i] = random.nextBoolean();
    return a;
  }

  /** A random permutation of {@code 0..n-1}. */
  public int[] permutation(int n) {
    int[] a = new int[n];
    for (int i = 0; i < n; i++) a[i] = i;
    for (int i = n - 1; i > 0; i--) {
      int j = random.nextInt(i + 1), t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
    return a;
  }

  /** An off-heap copy of {@link #floats(int, float, float)}. */
  public FloatArray floatArray(int n, float lo, float hi) {
    return FloatArray.fromArray(floats(n, lo, hi));
  }

  /** An off-heap copy of {@link #doubles(int, double, double)}. */
  public DoubleArray doubleArray(int n, double lo, double hi) {
    return DoubleArray.fromArray(doubles(n, lo, hi));
  }

  /** An off-heap copy of {@link #ints(int, int, int)}. */
  public IntArray intArray(int n, int lo, int hi) {
    return IntArray.fromArray(ints(n, lo, hi));
  }

  /** An off-heap copy of {@link #longs(int)}. */
  public LongArray longArray(int n) {
    return LongArray.fromArray(longs(n));
  }
}
