// Int8 dot products and dequantisation for quantised kernels, as TornadoVM's QuantizationUtils: plain Java that kernels inline.
package dev.loopjit.api;

import dev.loopjit.types.Int8Array;

/**
 * The 4-element int8 dot product a quantised matrix-vector kernel accumulates ({@code dp4a}, as the
 * GPU instruction of that name computes it: products of signed bytes summed into an int), and the
 * scaling back to float. Each compiles in kernels and gives the same int on every device; an offset
 * past an array's end throws as its {@code get} throws (TornadoVM's checks first and throws
 * IllegalArgumentException).
 */
public final class QuantizationUtils {
  private QuantizationUtils() {}

  /** {@code c + a[offsetA]·b[offsetB] + … + a[offsetA + 3]·b[offsetB + 3]}. */
  public static int dp4a(Int8Array a, long offsetA, Int8Array b, long offsetB, int c) {
    int i = (int) offsetA, j = (int) offsetB;
    return c + (a.get(i) * b.get(j) + a.get(i + 1) * b.get(j + 1) + a.get(i + 2) * b.get(j + 2) + a.get(i + 3) * b.get(j + 3));
  }

  /** {@link #dp4a(Int8Array, long, Int8Array, long, int)} with the second operand in a {@code byte[]} (a kernel's local array). */
  public static int dp4a(Int8Array a, long offsetA, byte[] b, long offsetB, int c) {
    int i = (int) offsetA, j = (int) offsetB;
    return c + (a.get(i) * b[j] + a.get(i + 1) * b[j + 1] + a.get(i + 2) * b[j + 2] + a.get(i + 3) * b[j + 3]);
  }

  /** {@code c} plus the dot product of the four signed bytes of {@code a} and of {@code b} (lowest byte first). */
  public static int dp4a_packed(int a, int b, int c) {
    return c + ((byte) a * (byte) b + (byte) (a >> 8) * (byte) (b >> 8) + (byte) (a >> 16) * (byte) (b >> 16) + (byte) (a >> 24) * (byte) (b >> 24));
  }

  /** An int8 dot product scaled back: {@code (float) dot * wScale * xScale}. */
  public static float dequantizeFusedResult(int dot, float wScale, float xScale) {
    return (float) dot * wScale * xScale;
  }
}
