// Conformance kernels for Java's primitive conversions: widening, narrowing, int/float rounding and saturation.
package dev.loopjit.conformance;

import dev.loopjit.api.Parallel;

/** Conversion kernels, checked against the jvm by {@link ConversionKernelsTest}; see also {@link SemanticsKernels}. */
public final class ConversionKernels {
  private ConversionKernels() {}

  /** int to float rounds to nearest even above 2^24; int to double is exact. */
  public static void intToFloating(int[] a, float[] f, double[] d) {
    for (@Parallel int i = 0; i < a.length; i++) {
      f[i] = a[i];
      d[i] = a[i];
    }
  }

  public static void longToFloating(long[] a, float[] f, double[] d) {
    for (@Parallel int i = 0; i < a.length; i++) {
      f[i] = a[i];
      d[i] = a[i];
    }
  }

  /** float to every integer type: to int or long saturating (NaN to 0), to byte/short/char through int. */
  public static void floatToIntegers(float[] a, int[] i32, long[] i64, short[] i16, byte[] i8, char[] u16) {
    for (@Parallel int i = 0; i < a.length; i++) {
      i32[i] = (int) a[i];
      i64[i] = (long) a[i];
      i16[i] = (short) a[i];
      i8[i] = (byte) a[i];
      u16[i] = (char) a[i];
    }
  }

  public static void doubleToIntegers(double[] a, int[] i32, long[] i64, char[] u16) {
    for (@Parallel int i = 0; i < a.length; i++) {
      i32[i] = (int) a[i];
      i64[i] = (long) a[i];
      u16[i] = (char) a[i];
    }
  }

  /** double to float rounds to nearest even, overflows to infinity, underflows to subnormals and zero. */
  public static void doubleToFloat(double[] a, float[] out) {
    for (@Parallel int i = 0; i < a.length; i++) out[i] = (float) a[i];
  }

  public static void floatToDouble(float[] a, double[] out) {
    for (@Parallel int i = 0; i < a.length; i++) out[i] = a[i];
  }

  /** int narrowed to byte, short and char, then widened back and summed. */
  public static void intNarrowAndBack(int[] a, byte[] b, short[] s, char[] c, int[] sum) {
    for (@Parallel int i = 0; i < a.length; i++) {
      b[i] = (byte) a[i];
      s[i] = (short) a[i];
      c[i] = (char) a[i];
      sum[i] = b[i] + s[i] + c[i];
    }
  }

  /** byte widened to char sign-extends then drops the top: (char) (byte) -1 == 0xFFFF. */
  public static void byteWidening(byte[] a, char[] c, int[] viaChar, long[] l, double[] d) {
    for (@Parallel int i = 0; i < a.length; i++) {
      c[i] = (char) a[i];
      viaChar[i] = (char) a[i];
      l[i] = a[i];
      d[i] = a[i];
    }
  }

  /** Raw bits of doubles, NaN payloads included, and their halves. */
  public static void doubleBits(double[] a, long[] bits, int[] high, double[] back) {
    for (@Parallel int i = 0; i < a.length; i++) {
      long b = Double.doubleToRawLongBits(a[i]);
      bits[i] = b;
      high[i] = (int) (b >>> 32);
      back[i] = Double.longBitsToDouble(b ^ (1L << 63));
    }
  }
}
