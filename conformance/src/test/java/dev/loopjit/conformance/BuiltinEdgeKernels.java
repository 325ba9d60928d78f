// Conformance kernels for built-ins at their edges: narrow arguments, abs at MIN_VALUE, math of NaN, infinities and huge values.
package dev.loopjit.conformance;

import dev.loopjit.api.Parallel;

/**
 * Built-ins where a device's own function differs from Java's, checked against the jvm by
 * {@link BuiltinEdgeKernelsTest}. Each was wrong on some device once (issue 12): byte, short and
 * char arguments reached OpenCL's overloaded built-ins unwidened; OpenCL's {@code abs} is undefined
 * at {@code MIN_VALUE}; PoCL 3.1 breaks {@code rint}, {@code floor}, {@code ceil}, {@code exp} and
 * {@code expm1} of a NaN, infinite or huge argument it knows (docs/DRIVER-WORKAROUNDS.md).
 */
public final class BuiltinEdgeKernels {
  private BuiltinEdgeKernels() {}

  /** Integer and Long bit counts of bytes, shorts and chars loaded from arrays (Java widens them to int first). */
  public static void narrowBitCounts(byte[] b, short[] s, char[] c, int[] o) {
    for (@Parallel int i = 0; i < b.length; i++) {
      o[6 * i] = Integer.bitCount(b[i]);
      o[6 * i + 1] = Integer.numberOfLeadingZeros(s[i]);
      o[6 * i + 2] = Integer.numberOfLeadingZeros(c[i]);
      o[6 * i + 3] = Integer.numberOfTrailingZeros(b[i]);
      o[6 * i + 4] = Long.bitCount(s[i]) + 100 * Long.numberOfLeadingZeros(c[i]);
      o[6 * i + 5] = Integer.bitCount((byte) (c[i] + s[i])) + 100 * Integer.bitCount(i % 2 == 0 ? b[i] : b[0]);
    }
  }

  /** Math.abs, min and max of shorts and chars, and a byte's bits as a float. */
  public static void narrowMath(byte[] b, short[] s, char[] c, int[] o, float[] f) {
    for (@Parallel int i = 0; i < b.length; i++) {
      o[4 * i] = Math.abs(s[i]);
      o[4 * i + 1] = Math.min(s[i], c[i]);
      o[4 * i + 2] = Math.max(b[i], c[i]) - Math.abs(b[i]);
      o[4 * i + 3] = Math.abs(c[i]);
      f[i] = Float.intBitsToFloat(b[i] & 0x7f) + Float.intBitsToFloat(0x3f800000 | s[i] & 0x7fff);
    }
  }

  /** The kernel's own byte, short and char parameters as built-in arguments. */
  public static void narrowParameters(byte b, short s, char c, int[] o) {
    for (@Parallel int i = 0; i < o.length; i++)
      o[i] = Integer.bitCount(b) + 100 * Integer.numberOfLeadingZeros(s) + 10_000 * Math.min(s, c) + i;
  }

  /** Math.abs of int and long: MIN_VALUE stays MIN_VALUE, so the result can be negative. */
  public static void absAtMinValue(int[] a, long[] l, int[] o, long[] p) {
    for (@Parallel int i = 0; i < a.length; i++) {
      o[2 * i] = Math.abs(a[i]) >= 0 ? 1 : 0;
      o[2 * i + 1] = Math.abs(a[i]);
      p[2 * i] = Math.abs(l[i]) < 0 ? -1 : 1;
      p[2 * i + 1] = Math.abs(l[i]);
    }
  }

  /** Math.abs of MIN_VALUE as a constant, and through a local the device compiler sees is constant. */
  public static void absOfConstants(int[] o, long[] p) {
    for (@Parallel int i = 0; i < o.length; i++) {
      int m = Integer.MIN_VALUE;
      long n = Long.MIN_VALUE;
      o[i] = Math.abs(Integer.MIN_VALUE) + (Math.abs(m) < 0 ? i : -i);
      p[i] = Math.abs(Long.MIN_VALUE) + (Math.abs(n) < 0 ? i : -i);
    }
  }

  /** The kernel: Math.rint of a huge constant broke the whole kernel on PoCL 3.1 (neither store happened). */
  public static void rintOfHugeConstant(int[] m, double[] o) {
    for (@Parallel int i = 0; i < o.length; i++) {
      m[i] = 1;
      o[i] = Math.rint(1e300);
    }
  }

  /** rint, floor, ceil, exp and expm1 of NaN, infinite and huge constants, written directly (folded by LoopJIT). */
  public static void mathOfConstants(int[] m, double[] o) {
    for (@Parallel int i = 0; i < m.length; i++) {
      m[i] = 1;
      o[8 * i] = Math.rint(Double.NaN) + Math.rint(-1e300);
      o[8 * i + 1] = Math.rint(Double.POSITIVE_INFINITY);
      o[8 * i + 2] = Math.floor(Double.NaN) + Math.ceil(Double.NaN);
      o[8 * i + 3] = Math.floor(-1e19) + Math.ceil(1e300);
      o[8 * i + 4] = Math.exp(Double.NaN) + Math.expm1(Double.NaN);
      o[8 * i + 5] = Math.sqrt(-1.0) + Math.log(-1.0);
      o[8 * i + 6] = Math.sin(Double.POSITIVE_INFINITY);
      o[8 * i + 7] = Math.pow(2, 0.5) * Math.rint(2.5) + Math.floor(-0.5);
    }
  }

  /**
   * The same values in locals: LoopJIT does not fold these, the device compiler does, so the
   * built-ins themselves must cope ({@code jrint_d} and friends keep them from PoCL's code).
   */
  public static void mathOfConstantLocals(int[] m, double[] o, float[] f) {
    for (@Parallel int i = 0; i < m.length; i++) {
      double nan = 0.0 / 0.0, huge = 1e300, inf = Double.POSITIVE_INFINITY, big = -1e19;
      float fnan = Float.NaN, fhuge = 3e38f;
      m[i] = 1;
      o[6 * i] = Math.rint(huge) + Math.rint(big);
      o[6 * i + 1] = Math.rint(nan);
      o[6 * i + 2] = Math.rint(inf) - Math.floor(-inf);
      o[6 * i + 3] = Math.floor(nan) + Math.ceil(nan);
      o[6 * i + 4] = Math.exp(nan);
      o[6 * i + 5] = Math.expm1(nan);
      f[i] = (float) Math.rint(fhuge) + (float) Math.floor(fnan);
    }
  }

  /** A constant only on one path: the device compiler may fold the built-in there, and must not assume that path away. */
  public static void mathOfConstantOnOnePath(double[] a, double[] o) {
    for (@Parallel int i = 0; i < a.length; i++) {
      double x = a[i] > 0 ? 1e300 : a[i];
      o[i] = Math.rint(x) + Math.floor(x > 1 ? Double.NaN : x);
    }
  }

  /** rint, floor, ceil, exp and expm1 of every edge value, read from memory. */
  public static void roundingOfEdgeValues(double[] a, float[] f, double[] o, float[] g) {
    for (@Parallel int i = 0; i < a.length; i++) {
      o[3 * i] = Math.rint(a[i]);
      o[3 * i + 1] = Math.floor(a[i]);
      o[3 * i + 2] = Math.ceil(a[i]);
      g[3 * i] = (float) Math.rint(f[i]);
      g[3 * i + 1] = (float) Math.floor(f[i]);
      g[3 * i + 2] = (float) Math.ceil(f[i]);
    }
  }

  /** exp and expm1 of every edge value, read from memory (within the OpenCL built-ins' ulps). */
  public static void expOfEdgeValues(double[] a, double[] o) {
    for (@Parallel int i = 0; i < a.length; i++) {
      o[2 * i] = Math.exp(a[i]);
      o[2 * i + 1] = Math.expm1(a[i]);
    }
  }
}
