// Conformance kernels that call static methods: our own helpers (inlined) and pure JDK methods of Math, Integer, Long, Float.
package dev.loopjit.conformance;

import dev.loopjit.api.Parallel;

/** Call kernels, checked against the jvm by {@link CallKernelsTest}. */
public final class CallKernels {
  private CallKernels() {}

  private static float square(float x) {
    return x * x;
  }

  private static float cube(float x) {
    return square(x) * x;
  }

  public static void staticHelpers(float[] a, float[] out) {
    for (@Parallel int i = 0; i < a.length; i++) out[i] = square(a[i]) + cube(a[i]) * 0.5f;
  }

  private static int h(int x) {
    return x * 3;
  }

  private static int g(int x) {
    return h(x) + 1;
  }

  private static int f(int x) {
    return g(x) ^ h(x >> 1);
  }

  public static void nestedCalls(int[] a, int[] out) {
    for (@Parallel int i = 0; i < a.length; i++) out[i] = f(g(h(a[i])));
  }

  /** A helper with a loop and several returns. */
  private static boolean isPrime(int n) {
    if (n < 2) return false;
    if (n % 2 == 0) return n == 2;
    for (int d = 3; d * d <= n; d += 2) if (n % d == 0) return false;
    return true;
  }

  private static int nextPrime(int n) {
    int p = n;
    while (!isPrime(p)) p++;
    return p;
  }

  public static void helperWithLoopAndReturns(int[] a, int[] out) {
    for (@Parallel int i = 0; i < a.length; i++) out[i] = isPrime(a[i]) ? -1 : nextPrime(a[i]);
  }

  /** A helper that reads an array parameter. */
  private static float rowMax(float[] m, int row, int cols) {
    float best = m[row * cols];
    for (int c = 1; c < cols; c++) best = Math.max(best, m[row * cols + c]);
    return best;
  }

  public static void helperReadsArray(float[] m, float[] out, int cols) {
    for (@Parallel int r = 0; r < out.length; r++) out[r] = rowMax(m, r, cols);
  }

  /** A helper that writes an array parameter, and returns early. */
  private static void fillRow(int[] m, int row, int cols, int value) {
    if (value < 0) {
      m[row * cols] = value;
      return;
    }
    for (int c = 0; c < cols; c++) m[row * cols + c] = value + c;
  }

  public static void helperWritesArray(int[] m, int cols) {
    for (@Parallel int r = 0; r < m.length / cols; r++) fillRow(m, r, cols, r % 5 == 0 ? -r - 1 : r * 10);
  }

  /** The same helper inlined at two call sites, with locals of the same names. */
  private static int clampAdd(int x, int y) {
    int s = x + y;
    int limit = 1000;
    return s > limit ? limit : s < -limit ? -limit : s;
  }

  public static void helperCalledTwice(int[] a, int[] out) {
    for (@Parallel int i = 0; i < a.length; i++) out[i] = clampAdd(a[i], 5) * 7 + clampAdd(-a[i], a[i] >> 2);
  }

  public static void floorModDiv(int[] a, int[] b, long[] la, long[] lb, int[] out, long[] lout) {
    for (@Parallel int i = 0; i < a.length; i++) {
      out[2 * i] = Math.floorMod(a[i], b[i]);
      out[2 * i + 1] = Math.floorDiv(a[i], b[i]);
      lout[2 * i] = Math.floorMod(la[i], lb[i]);
      lout[2 * i + 1] = Math.floorDiv(la[i], lb[i]);
    }
  }

  public static void integerBits(int[] a, int[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      int x = a[i];
      out[7 * i] = Integer.rotateLeft(x, 7);
      out[7 * i + 1] = Integer.rotateRight(x, x);
      out[7 * i + 2] = Integer.bitCount(x);
      out[7 * i + 3] = Integer.numberOfLeadingZeros(x);
      out[7 * i + 4] = Integer.numberOfTrailingZeros(x);
      out[7 * i + 5] = Integer.reverse(x);
      out[7 * i + 6] = Integer.highestOneBit(x);
    }
  }

  public static void longBits(long[] a, long[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      long x = a[i];
      out[5 * i] = Long.numberOfTrailingZeros(x);
      out[5 * i + 1] = Long.bitCount(x);
      out[5 * i + 2] = Long.numberOfLeadingZeros(x);
      out[5 * i + 3] = Long.rotateLeft(x, (int) x);
      out[5 * i + 4] = Long.reverseBytes(x);
    }
  }

  public static void floatBits(float[] a, int[] raw, int[] canonical, float[] negated) {
    for (@Parallel int i = 0; i < a.length; i++) {
      raw[i] = Float.floatToRawIntBits(a[i]);
      canonical[i] = Float.floatToIntBits(a[i]);
      negated[i] = Float.intBitsToFloat(raw[i] ^ 0x80000000);
    }
  }

  /** The Math functions whose results Java defines exactly. */
  public static void exactMath(float[] a, float[] b, float[] out, int[] rounded) {
    for (@Parallel int i = 0; i < a.length; i++) {
      float x = a[i], y = b[i];
      out[8 * i] = Math.abs(x);
      out[8 * i + 1] = Math.min(x, y);
      out[8 * i + 2] = Math.max(x, y);
      out[8 * i + 3] = (float) Math.sqrt(x);
      out[8 * i + 4] = (float) Math.floor(x) + (float) Math.ceil(y);
      out[8 * i + 5] = (float) Math.rint(x);
      out[8 * i + 6] = Math.signum(x);
      out[8 * i + 7] = Math.copySign(x, y);
      rounded[i] = Math.round(x);
    }
  }

  /** The transcendental Math functions on double. */
  public static void transcendentalMath(double[] a, double[] b, double[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      double x = a[i], y = b[i];
      out[8 * i] = Math.exp(x);
      out[8 * i + 1] = Math.log(y);
      out[8 * i + 2] = Math.pow(y, x);
      out[8 * i + 3] = Math.sin(x);
      out[8 * i + 4] = Math.cos(x);
      out[8 * i + 5] = Math.tanh(x);
      out[8 * i + 6] = Math.hypot(x, y);
      out[8 * i + 7] = Math.cbrt(x);
    }
  }

  /** Math.fma: fused, one rounding, in float and in double. */
  public static void fma(float[] a, float[] b, float[] c, float[] out, double[] dout) {
    for (@Parallel int i = 0; i < a.length; i++) {
      out[i] = Math.fma(a[i], b[i], c[i]);
      dout[i] = Math.fma((double) a[i], b[i], c[i] * 0.1);
    }
  }

  /** Math.clamp with constant bounds (so that its min > max check can never throw). */
  public static void clamp(long[] l, float[] f, double[] d, int[] oi, long[] ol, float[] of, double[] od) {
    for (@Parallel int i = 0; i < l.length; i++) {
      oi[i] = Math.clamp(l[i], -1000, 1000);
      ol[i] = Math.clamp(l[i], -5L, Long.MAX_VALUE);
      of[i] = Math.clamp(f[i], -1f, 1f);
      od[i] = Math.clamp(d[i], 0.0, 1e300);
    }
  }

  private static double smooth(double v) {
    return Math.exp(v) + Math.pow(v, 2) + (2 + Math.sin(v));   // positive terms: no cancellation to magnify an ulp
  }

  /** Math functions PTX has no exact instruction for, returned from a helper (the PTX path once refused them there). */
  public static void mathReturnedByHelper(double[] a, double[] out) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = smooth(a[i]);
  }
}
