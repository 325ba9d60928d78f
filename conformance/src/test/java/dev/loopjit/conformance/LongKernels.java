// Conformance kernels over long: 64-bit wrapping arithmetic, division, shifts and mixing functions.
package dev.loopjit.conformance;

import dev.loopjit.api.Parallel;
import dev.loopjit.types.LongArray;

/** long kernels, checked against the jvm by {@link LongKernelsTest}. */
public final class LongKernels {
  private LongKernels() {}

  public static void arithmetic(long[] a, long[] b, long[] out) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = a[i] * 0x9E3779B97F4A7C15L + b[i] - (a[i] ^ b[i]) * 3;
  }

  public static void divRem(long[] a, long[] b, long[] q, long[] r) {
    for (@Parallel int i = 0; i < a.length; i++) {
      q[i] = a[i] / b[i];
      r[i] = a[i] % b[i];
    }
  }

  /** int shift distances on longs, masked to 0..63. */
  public static void variableShifts(long[] a, int[] s, long[] out) {
    for (@Parallel int i = 0; i < a.length; i++) out[i] = (a[i] << s[i]) ^ (a[i] >> s[i]) + (a[i] >>> s[i]);
  }

  public static void bitwise(LongArray a, LongArray b, LongArray out) {
    for (@Parallel int i = 0; i < out.getSize(); i++) {
      long x = a.get(i), y = b.get(i);
      out.set(i, (x | ~y) ^ (x & 0xFFFF0000FFFF0000L) ^ (y >>> 17));
    }
  }

  /** splitmix64's output function. */
  public static void splitMix(long[] seed, long[] out) {
    for (@Parallel int i = 0; i < seed.length; i++) {
      long z = seed[i] + 0x9E3779B97F4A7C15L;
      z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
      z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
      out[i] = z ^ (z >>> 31);
    }
  }

  /** A loop carrying a long through {@code steps} xorshift rounds. */
  public static void xorShiftRounds(long[] seed, long[] out, int steps) {
    for (@Parallel int i = 0; i < seed.length; i++) {
      long x = seed[i] | 1;
      for (int k = 0; k < steps; k++) {
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
      }
      out[i] = x;
    }
  }

  /** Signed and unsigned comparisons giving int. */
  public static void compare(long[] a, long[] b, int[] out) {
    for (@Parallel int i = 0; i < a.length; i++)
      out[i] = Long.compare(a[i], b[i]) * 9 + Long.compareUnsigned(a[i], b[i]) * 3 + (a[i] <= b[i] ? 1 : 0);
  }

  /** Widening before the multiply versus an int product that overflows first. */
  public static void widenBeforeMultiply(int[] a, long[] out) {
    for (@Parallel int i = 0; i < a.length; i++) out[i] = (long) a[i] * a[i] - a[i] * a[i];
  }
}
