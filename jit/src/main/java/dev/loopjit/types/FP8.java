// 8-bit floats to and from float, as TornadoVM's FP8: E4M3 (saturating, no infinity) and E5M2 (with infinities); host code that kernels inline.
package dev.loopjit.types;

/**
 * Conversions of the two 8-bit float formats, held as a {@code byte} of bits. E4M3: a sign, 4
 * exponent bits (bias 7), 3 mantissa bits, largest finite 448, no infinity (0x7F and 0xFF are NaN),
 * encoding saturates at ±448. E5M2: a sign, 5 exponent bits (bias 15), 2 mantissa bits, largest
 * finite 57344, infinities 0x7C and 0xFC. Encoding rounds to the nearest, ties to even; NaN gives
 * 0x7F; both zeros give 0x00 (as TornadoVM's does). Plain Java on ints and floats, so kernels that
 * call them compute the same bits on every device.
 */
public final class FP8 {
  private FP8() {}

  public static final float E4M3_MAX = 448.0f;
  public static final float E5M2_MAX = 57344.0f;

  /** The float of E4M3 {@code bits}. */
  public static float e4m3ToFloat(byte bits) {
    return decode(bits, 3, 7, false);
  }

  /** The E4M3 nearest {@code value}, saturating at ±448. */
  public static byte e4m3FromFloat(float value) {
    return encode(value, 3, 7, 0x7E, false);
  }

  /** The float of E5M2 {@code bits}. */
  public static float e5m2ToFloat(byte bits) {
    return decode(bits, 2, 15, true);
  }

  /** The E5M2 nearest {@code value}; past 57344 by half a step or more, infinity. */
  public static byte e5m2FromFloat(float value) {
    return encode(value, 2, 15, 0x7B, true);
  }

  /** {@code mantissa} bits, exponent {@code bias}; {@code infinities}: the top exponent is infinity (mantissa 0) or NaN, else only all ones is NaN. */
  private static float decode(byte bits, int mantissa, int bias, boolean infinities) {
    int b = bits & 0xFF, sign = b >>> 7, exponent = (b & 0x7F) >>> mantissa, m = b & ((1 << mantissa) - 1);
    int top = (1 << (7 - mantissa)) - 1;
    float magnitude;
    if (infinities && exponent == top) magnitude = m == 0 ? Float.POSITIVE_INFINITY : Float.NaN;
    else if (!infinities && exponent == top && m == (1 << mantissa) - 1) magnitude = Float.NaN;
    else if (exponent == 0) magnitude = m * Float.intBitsToFloat((127 + 1 - bias - mantissa) << 23);   // m · 2^(1 - bias - mantissa), exact
    else magnitude = Float.intBitsToFloat((exponent - bias + 127) << 23 | m << (23 - mantissa));
    return sign == 1 ? -magnitude : magnitude;
  }

  /** Rounds to nearest even; {@code largest}: the largest finite code's magnitude; beyond it saturate, or infinity when {@code infinities}. */
  private static byte encode(float value, int mantissa, int bias, int largest, boolean infinities) {
    if (value != value) return (byte) 0x7F;
    if (value == 0f) return 0;
    int sign = value < 0f ? 0x80 : 0;
    int bits = Float.floatToRawIntBits(value) & 0x7FFFFFFF;
    int code;
    if (bits >= 0x7F800000) code = infinities ? largest + 1 : largest;   // ±infinity
    else {
      int e = (bits >>> 23) - 127 + bias;   // the biased exponent in the 8-bit format
      int m = bits & 0x7FFFFF | (bits >>> 23 == 0 ? 0 : 0x800000);   // 24 bits with the leading one
      int shift = 23 - mantissa + (e >= 1 ? 0 : 1 - e);   // subnormal in the 8-bit format: shift further
      if (shift > 25) code = 0;   // below half the smallest subnormal
      else {
        int q = m >>> shift, rest = m & ((1 << shift) - 1), half = 1 << (shift - 1);
        if (rest > half || rest == half && (q & 1) == 1) q++;
        // a normal's q carries the leading one: its exponent field is e, plus one when rounding carried past the mantissa
        code = e >= 1 ? ((e << mantissa) + q - (1 << mantissa)) : q;
      }
      if (code > largest) code = infinities ? largest + 1 : largest;
    }
    return (byte) (sign | code);
  }
}
