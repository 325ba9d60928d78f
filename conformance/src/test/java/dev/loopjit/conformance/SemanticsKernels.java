// Conformance kernels for Java's semantic corners: wrapping, shift masking, truncating division, saturating casts,
// NaN and signed zero, no FMA contraction, narrowing, switch forms, labelled jumps, short circuits, compound assignment.
// Not here: division by zero, which throws on the jvm (see DivisionByZeroTest).
package dev.loopjit.conformance;

import dev.loopjit.api.Parallel;

/** Java-semantics kernels, checked against the jvm by {@link SemanticsKernelsTest}: all must match exactly. */
public final class SemanticsKernels {
  private SemanticsKernels() {}

  public static void intOverflowWraps(int[] a, int[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      out[4 * i] = a[i] + Integer.MAX_VALUE;
      out[4 * i + 1] = a[i] * a[i];
      out[4 * i + 2] = -a[i];
      out[4 * i + 3] = a[i] - Integer.MIN_VALUE;
    }
  }

  public static void longOverflowWraps(long[] a, long[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      out[4 * i] = a[i] + Long.MAX_VALUE;
      out[4 * i + 1] = a[i] * a[i];
      out[4 * i + 2] = -a[i];
      out[4 * i + 3] = a[i] - Long.MIN_VALUE;
    }
  }

  /** Shift distances outside 0..31 (int) or 0..63 (long) are masked, even when they are constants. */
  public static void constantShiftDistances(int[] a, long[] b, int[] out, long[] lout) {
    for (@Parallel int i = 0; i < a.length; i++) {
      int x = a[i];
      long y = b[i];
      out[4 * i] = x << 33;
      out[4 * i + 1] = x >>> -1;
      out[4 * i + 2] = x >> 32;
      out[4 * i + 3] = x << -31;
      lout[4 * i] = y << 65;
      lout[4 * i + 1] = y >>> -1;
      lout[4 * i + 2] = y >> 64;
      lout[4 * i + 3] = y << 127;
    }
  }

  /** / and % truncate toward zero; MIN_VALUE / -1 == MIN_VALUE and MIN_VALUE % -1 == 0. Divisors are never 0. */
  public static void divisionCorners(int[] a, int[] b, long[] la, long[] lb, int[] out, long[] lout) {
    for (@Parallel int i = 0; i < a.length; i++) {
      out[2 * i] = a[i] / b[i];
      out[2 * i + 1] = a[i] % b[i];
      lout[2 * i] = la[i] / lb[i];
      lout[2 * i + 1] = la[i] % lb[i];
    }
  }

  /** Constant divisors, which compilers turn into shifts and multiplications: negative dividends must still truncate. */
  public static void divisionByConstants(int[] a, long[] l, int[] out, long[] lout) {
    for (@Parallel int i = 0; i < a.length; i++) {
      int x = a[i];
      out[8 * i] = x / 7;
      out[8 * i + 1] = x % 7;
      out[8 * i + 2] = x / -3;
      out[8 * i + 3] = x / 8;
      out[8 * i + 4] = x % 8;
      out[8 * i + 5] = x / 2;
      out[8 * i + 6] = x / -1;
      out[8 * i + 7] = x % -1;
      lout[3 * i] = l[i] / 10;
      lout[3 * i + 1] = l[i] % 16;
      lout[3 * i + 2] = l[i] / -1;
    }
  }

  /** float to int and long saturate at the type's bounds, and NaN gives 0. */
  public static void floatToIntSaturates(float[] a, int[] i32, long[] i64) {
    for (@Parallel int i = 0; i < a.length; i++) {
      i32[i] = (int) a[i];
      i64[i] = (long) a[i];
    }
  }

  public static void doubleToIntSaturates(double[] a, int[] i32, long[] i64) {
    for (@Parallel int i = 0; i < a.length; i++) {
      i32[i] = (int) a[i];
      i64[i] = (long) a[i];
    }
  }

  /** Math.min/max give NaN when either operand is NaN, and order -0.0 below 0.0. */
  public static void minMaxNaNAndSignedZero(float[] a, float[] b, float[] out, double[] dout) {
    for (@Parallel int i = 0; i < a.length; i++) {
      out[2 * i] = Math.min(a[i], b[i]);
      out[2 * i + 1] = Math.max(a[i], b[i]);
      dout[2 * i] = Math.min((double) a[i], b[i]);
      dout[2 * i + 1] = Math.max((double) a[i], b[i]);
    }
  }

  /** Each comparison with NaN is false except !=, so a negated condition is not the opposite comparison. */
  public static void comparisonsWithNaN(float[] a, float[] b, double[] c, double[] d, int[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      float x = a[i], y = b[i];
      int m = 0;
      if (x < y) m |= 1;
      if (x <= y) m |= 2;
      if (x == y) m |= 4;
      if (x != y) m |= 8;
      if (x > y) m |= 16;
      if (x >= y) m |= 32;
      if (!(x < y)) m |= 64;
      m |= x > y ? 128 : 0;
      m |= !(x >= y) ? 256 : 0;
      boolean less = x < y;
      if (!less && x != y) m |= 512;
      double p = c[i], q = d[i];
      if (p < q) m |= 1024;
      if (!(p >= q)) m |= 2048;
      if (p != q) m |= 4096;
      m |= p <= q ? 8192 : 0;
      out[i] = m;
    }
  }

  /** Loop conditions that meet NaN: the while never starts, the do-while runs to its cap, the for stops at once. */
  public static void nanInLoopConditions(float[] a, int[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      float x = a[i];
      int k = 0;
      while (x < 100f && k < 40) {
        x = x * 2f + 1f;
        k++;
      }
      float y = a[i];
      int k2 = 0;
      do {
        y = y * 0.5f;
        k2++;
      } while (!(y < 1f) && k2 < 10);
      int k3 = 0;
      for (float f = a[i]; f <= 8f && k3 < 20; f += 1f) k3++;
      out[3 * i] = k;
      out[3 * i + 1] = k2;
      out[3 * i + 2] = k3;
    }
  }

  /** a * b + c with two roundings: a device must not fuse it into an fma. */
  public static void noFmaContractionFloat(float[] a, float[] b, float[] c, float[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      out[4 * i] = a[i] * b[i] + c[i];
      out[4 * i + 1] = a[i] * b[i] - c[i];
      out[4 * i + 2] = c[i] - a[i] * b[i];
      out[4 * i + 3] = a[i] * b[i] + c[i] * a[i];
    }
  }

  public static void noFmaContractionDouble(double[] a, double[] b, double[] c, double[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      out[3 * i] = a[i] * b[i] + c[i];
      out[3 * i + 1] = c[i] - a[i] * b[i];
      out[3 * i + 2] = a[i] * b[i] + c[i] * a[i];
    }
  }

  /** char arithmetic happens in int; storing back to a char wraps at 2^16. */
  public static void charWraps(char[] a, char[] out, int[] asInt) {
    for (@Parallel int i = 0; i < a.length; i++) {
      char c = a[i];
      c++;
      c += 0x8000;
      out[i] = c;
      asInt[2 * i] = a[i] - 'a';
      asInt[2 * i + 1] = (char) (a[i] * 2) + a[i];
    }
  }

  /** long narrowed to int, short, byte and char keeps the low bits. */
  public static void longNarrowing(long[] a, int[] i32, short[] i16, byte[] i8, char[] u16) {
    for (@Parallel int i = 0; i < a.length; i++) {
      i32[i] = (int) a[i];
      i16[i] = (short) a[i];
      i8[i] = (byte) a[i];
      u16[i] = (char) a[i];
    }
  }

  /** int and long to float round to nearest even: 2^24 + 1 becomes 2^24, 2^24 + 3 becomes 2^24 + 4. */
  public static void integerToFloatRounding(int[] a, long[] l, float[] f, float[] lf, double[] ld) {
    for (@Parallel int i = 0; i < a.length; i++) {
      f[i] = a[i];
      lf[i] = l[i];
      ld[i] = l[i];
    }
  }

  /** double to float: ties to even, overflow to infinity, underflow to subnormals and to zero. */
  public static void doubleToFloatRounding(double[] a, float[] out) {
    for (@Parallel int i = 0; i < a.length; i++) out[i] = (float) a[i];
  }

  /** A dense switch (tableswitch) in colon form, with fall-through and default. */
  @SuppressWarnings("fallthrough") // the fall-through is what is tested
  public static void denseSwitch(int[] a, int[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      int r = 0;
      switch (a[i]) {
        case 0:
          r += 1;
        case 1:
          r += 10;
          break;
        case 2:
          r = 100;
        case 3:
        case 4:
          r += 1000;
          break;
        case 6:
          r = -6;
          break;
        default:
          r = a[i] * 2;
      }
      out[i] = r;
    }
  }

  /** A sparse switch (lookupswitch) in arrow form. */
  public static void sparseSwitch(int[] a, int[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      int r;
      switch (a[i]) {
        case -1000000 -> r = 1;
        case -5 -> r = 2;
        case 10, 100 -> r = 3;
        case 1000 -> {
          int t = a[i] + 4;
          r = t * 2;
        }
        case Integer.MAX_VALUE -> r = 5;
        default -> r = -a[i];
      }
      out[i] = r;
    }
  }

  /** A switch expression with several labels per case and yield from blocks. */
  public static void switchExpression(int[] a, int[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      int x = a[i] % 7;
      out[i] = switch (x) {
        case -6, -5 -> 1;
        case 0 -> {
          int t = a[i] * 3;
          yield t + 1;
        }
        case 3 -> a[i];
        default -> {
          if (x < 0) yield -100;
          yield 100 + x;
        }
      };
    }
  }

  /** break and continue to a label, out of two nested sequential loops. */
  public static void labelledBreakContinue(int[] m, int[] out, int cols) {
    for (@Parallel int r = 0; r < out.length; r++) {
      int rows = m.length / cols, count = 0;
      outer:
      for (int s = 0; s < rows; s++) {
        for (int c = 0; c < cols; c++) {
          int v = m[((r + s) % rows) * cols + c];
          if (v == 0) continue outer;
          if (v < 0) break outer;
          count += v;
        }
        count *= 3;
      }
      out[r] = count;
    }
  }

  /** A do-while that runs once even for 0, and a while that may not run at all. */
  public static void whileAndDoWhile(int[] a, int[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      int x = a[i], digits = 0;
      do {
        digits++;
        x /= 10;
      } while (x != 0);
      int y = Math.abs(a[i] % 1000), steps = 0;
      while (y > 0) {
        y -= steps + 1;
        steps++;
      }
      out[2 * i] = digits;
      out[2 * i + 1] = steps * 1000 + y;
    }
  }

  public static void nestedConditionals(float[] a, int[] b, float[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      float x = a[i];
      int k = b[i];
      out[i] = x > 0 ? (k > 0 ? x * k : k < -5 ? -x : 0.5f) : x < -1 ? (k == 0 ? 1f : x / k) : k % 2 == 0 ? x : -x;
    }
  }

  /** && and || whose later operands would index out of bounds if they were evaluated. */
  public static void shortCircuitGuards(int[] a, int[] idx, int[] out) {
    for (@Parallel int i = 0; i < idx.length; i++) {
      int j = idx[i], r = 0;
      if (j >= 0 && j < a.length && a[j] > 0) r |= 1;
      if (j < 0 || j >= a.length || a[j] == 0) r |= 2;
      boolean inside = j >= 0 && j < a.length;
      r |= inside && a[j] % 2 == 0 ? 4 : 0;
      out[i] = r;
    }
  }

  public static void booleanLocals(float[] a, int[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      float x = a[i];
      boolean positive = x > 0, big = Math.abs(x) > 100f, nan = x != x;
      boolean mixed = positive ^ big, either = positive || nan, both = positive & !big;
      int r = 0;
      if (mixed) r |= 1;
      if (either) r |= 2;
      if (both) r |= 4;
      if (!nan && !positive) r |= 8;
      if (nan | big) r |= 16;
      out[i] = r;
    }
  }

  /** Compound assignments to array elements and to locals, with the narrowing they imply ({@code x += 3.7} is {@code x = (int) (x + 3.7)}). */
  @SuppressWarnings("lossy-conversions") // the implicit narrowing is what is tested
  public static void compoundAssignments(int[] a, float[] f, long[] l, int[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      a[i] += 3;
      a[i] *= 2;
      a[i] >>= 1;
      a[i] ^= 0x55;
      f[i] /= 3f;
      f[i] -= 1.5f;
      l[i] <<= 3;
      l[i] %= 1000;
      int x = a[i];
      x += 3.7;
      x *= 1.5f;
      short s = (short) x;
      s += 70000;
      out[i] = x + s;
    }
  }

  /** Post-increments as indices in sequential inner loops; {@code out[m] += src[m++]} reads m before incrementing it. */
  public static void postIncrementIndices(int[] src, int[] out, int cols) {
    for (@Parallel int r = 0; r < src.length / cols; r++) {
      int k = r * cols, j = r * cols + cols - 1;
      for (int c = 0; c < cols; c++) out[k++] = src[j--];
      int m = r * cols;
      while (m < r * cols + cols) out[m] += src[m++] & 1;
    }
  }

  /** Math.min/max against constants (the compiler turns the safe ones into a compare and select): NaN, ±0.0, ±Inf inputs. */
  public static void minMaxWithConstants(float[] x, float[] out, double[] d, double[] outD) {
    for (@Parallel int i = 0; i < x.length; i++) {
      float v = x[i];
      out[i * 5] = Math.max(0f, v);
      out[i * 5 + 1] = Math.min(-0f, v);
      out[i * 5 + 2] = Math.max(v, 2.5f);
      out[i * 5 + 3] = Math.max(-0f, v);
      out[i * 5 + 4] = Math.min(0f, v);
      outD[i * 2] = Math.min(d[i], -1e300);
      outD[i * 2 + 1] = Math.max(0.0, d[i]);
    }
  }
}
