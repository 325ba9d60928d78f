// An IEEE 754 half-precision value as an object, usable inside kernels: arithmetic in float, rounded to half as Java rounds.
package dev.loopjit.types;

/**
 * A half-precision (binary16) number, immutable. Arithmetic widens both operands to {@code float},
 * computes in {@code float} and rounds the result to the nearest half (ties to even), exactly as
 * {@link Float#floatToFloat16} does; so {@code add(a, b)} equals
 * {@code new HalfFloat(a.getFloat32() + b.getFloat32())} bit for bit, on the JVM and on every device.
 *
 * <p>Inside a kernel a {@code HalfFloat} is a value, not an object: the JIT keeps its float value in
 * a register, reads and writes it through {@link HalfFloatArray#getHalfFloat}/{@link HalfFloatArray#set(int, HalfFloat)}
 * and {@code KernelContext.allocateHalfFloatLocalArray}, and lets kernels pass it to and return it
 * from their own static methods. It has no identity there: comparing two with {@code ==} is refused.
 *
 * <pre>{@code
 * HalfFloat a = new HalfFloat(0.1f);                 // 0.099975586f, the nearest half
 * HalfFloat s = HalfFloat.add(a, new HalfFloat(2f));
 * float f = s.getFloat32();
 * }</pre>
 */
public final class HalfFloat {
  private final short bits;

  /** The half nearest to {@code value} (ties to even). */
  public HalfFloat(float value) {
    this.bits = Float.floatToFloat16(value);
  }

  /** The half whose binary16 bits are {@code bits}. */
  public HalfFloat(short bits) {
    this.bits = bits;
  }

  /** {@code a + b}, computed in float and rounded to half. */
  public static HalfFloat add(HalfFloat a, HalfFloat b) {
    return new HalfFloat(a.getFloat32() + b.getFloat32());
  }

  /** {@code a - b}, computed in float and rounded to half. */
  public static HalfFloat sub(HalfFloat a, HalfFloat b) {
    return new HalfFloat(a.getFloat32() - b.getFloat32());
  }

  /** {@code a * b}, computed in float and rounded to half. */
  public static HalfFloat mult(HalfFloat a, HalfFloat b) {
    return new HalfFloat(a.getFloat32() * b.getFloat32());
  }

  /** {@code a / b}, computed in float and rounded to half. */
  public static HalfFloat div(HalfFloat a, HalfFloat b) {
    return new HalfFloat(a.getFloat32() / b.getFloat32());
  }

  /** The binary16 bits. */
  public short getHalfFloatValue() {
    return bits;
  }

  /** The value as a float (exact: every half is a float). */
  public float getFloat32() {
    return Float.float16ToFloat(bits);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof HalfFloat h && h.bits == bits;
  }

  @Override
  public int hashCode() {
    return bits;
  }

  @Override
  public String toString() {
    return "HalfFloat(" + getFloat32() + ")";
  }
}
