// Conformance kernels over int: wrapping arithmetic, division, bit operations, loops that carry int state.
package dev.loopjit.conformance;

import dev.loopjit.api.Parallel;
import dev.loopjit.types.IntArray;

/** int kernels, checked against the jvm by {@link IntKernelsTest}. */
public final class IntKernels {
  private IntKernels() {}

  /** Wrapping +, -, * by constants. */
  public static void arithmetic(int[] a, int[] b, int[] out) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = a[i] * 31 + b[i] - (a[i] ^ b[i]) * 7;
  }

  /** Truncating / and % by nonzero divisors of every sign. */
  public static void divRem(int[] a, int[] b, int[] q, int[] r) {
    for (@Parallel int i = 0; i < a.length; i++) {
      q[i] = a[i] / b[i];
      r[i] = a[i] % b[i];
    }
  }

  public static void bitwise(IntArray a, IntArray b, IntArray out) {
    for (@Parallel int i = 0; i < out.getSize(); i++) {
      int x = a.get(i), y = b.get(i);
      out.set(i, (x & y) | (~x ^ (y >>> 3)) & 0x0F0F0F0F);
    }
  }

  /** Shift distances from data: any int, masked to 0..31. */
  public static void variableShifts(int[] a, int[] s, int[] out) {
    for (@Parallel int i = 0; i < a.length; i++) out[i] = (a[i] << s[i]) ^ (a[i] >> s[i]) + (a[i] >>> s[i]);
  }

  public static void compareSelect(int[] a, int[] b, int[] out) {
    for (@Parallel int i = 0; i < a.length; i++) out[i] = a[i] < b[i] ? a[i] - b[i] : a[i] == b[i] ? 17 : a[i] > 0 ? b[i] : ~a[i];
  }

  /** murmur3's finaliser: multiplications that overflow on purpose. */
  public static void fmix32(int[] a, int[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      int h = a[i];
      h ^= h >>> 16;
      h *= 0x85ebca6b;
      h ^= h >>> 13;
      h *= 0xc2b2ae35;
      h ^= h >>> 16;
      out[i] = h;
    }
  }

  /** A data-dependent while loop per work-item. */
  public static void collatzSteps(int[] start, int[] steps) {
    for (@Parallel int i = 0; i < start.length; i++) {
      int x = start[i], k = 0;
      while (x != 1 && k < 500) {
        x = (x & 1) == 0 ? x >> 1 : 3 * x + 1;
        k++;
      }
      steps[i] = k;
    }
  }

  /** Euclid with % on values of every sign (Math.abs(MIN_VALUE) stays negative). */
  public static void gcd(int[] a, int[] b, int[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      int x = Math.abs(a[i]), y = Math.abs(b[i]);
      while (y != 0) {
        int t = x % y;
        x = y;
        y = t;
      }
      out[i] = x;
    }
  }

  /** One work-item per row, a sequential scan along it. */
  public static void rowPrefixSums(int[] a, int[] out, int cols) {
    for (@Parallel int r = 0; r < a.length / cols; r++) {
      int acc = 0;
      for (int c = 0; c < cols; c++) {
        acc += a[r * cols + c];
        out[r * cols + c] = acc;
      }
    }
  }

  /** Indices computed from data: a gather and a scatter through a permutation. */
  public static void gatherScatter(int[] perm, int[] src, int[] gathered, int[] scattered) {
    for (@Parallel int i = 0; i < perm.length; i++) {
      gathered[i] = src[perm[i]];
      scattered[perm[i]] = src[i] * 3;
    }
  }
}
