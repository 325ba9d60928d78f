// bfloat16 (the top 16 bits of a float) to and from float, as TornadoVM's BFloat16: host code that kernels inline.
package dev.loopjit.types;

/**
 * Conversions of bfloat16 values, held as the {@code short} of their bits (a float's sign, 8
 * exponent bits and its 7 highest mantissa bits). Plain Java on ints and floats, so a kernel that
 * calls them computes the same bits on every device.
 */
public final class BFloat16 {
  private BFloat16() {}

  /** The largest finite bfloat16 (bits 0x7F7F). */
  public static final float BF16_MAX = 3.3895314e38f;

  /** The float of bfloat16 {@code bits}: exactly, as {@code Float.intBitsToFloat(bits << 16)}. */
  public static float bf16ToFloat(short bits) {
    return Float.intBitsToFloat(bits << 16);
  }

  /**
   * The bfloat16 nearest {@code value}, ties to the even one (past the largest finite, infinity);
   * NaN gives 0x7FC0, and both zeros give 0x0000 (as TornadoVM's does; a tiny negative value that
   * rounds to zero keeps its sign).
   */
  public static short bf16FromFloat(float value) {
    if (value != value) return (short) 0x7FC0;
    if (value == 0f) return 0;
    int bits = Float.floatToRawIntBits(value);
    return (short) ((bits + 0x7FFF + ((bits >>> 16) & 1)) >>> 16);
  }
}
