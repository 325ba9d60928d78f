// 3 bytes as one value, as TornadoVM's Byte3 (a pixel of an ImageByte3): usable inside kernels as a value.
package dev.loopjit.types;

/**
 * A vector of 3 bytes. On the host a small mutable object, as in TornadoVM; inside a kernel a value
 * the JIT keeps in 3 registers: kernels may create one, read it (getX()…, {@code get(k)} with a
 * constant {@code k}), combine it with the static methods below and read and write it through
 * {@link ImageByte3}. The arithmetic is Java's: on ints, each result narrowed to a byte as
 * {@code (byte) (a + b)} narrows it, on every device.
 */
public final class Byte3 {
  private final byte[] s = new byte[3];

  /** Every element 0. */
  public Byte3() {}

  public Byte3(byte x, byte y, byte z) {
    s[0] = x;
    s[1] = y;
    s[2] = z;
  }

  public byte getX() { return s[0]; }
  public byte getY() { return s[1]; }
  public byte getZ() { return s[2]; }
  public void setX(byte v) { s[0] = v; }
  public void setY(byte v) { s[1] = v; }
  public void setZ(byte v) { s[2] = v; }

  /** Element {@code k} (0 to 2). */
  public byte get(int k) {
    return s[java.util.Objects.checkIndex(k, 3)];
  }

  /** Sets element {@code k} (0 to 2). */
  public void set(int k, byte v) {
    s[java.util.Objects.checkIndex(k, 3)] = v;
  }

  /** Copies {@code other}'s elements. */
  public void set(Byte3 other) {
    System.arraycopy(other.s, 0, s, 0, 3);
  }

  /** 3. */
  public int size() {
    return 3;
  }

  public static Byte3 add(Byte3 a, Byte3 b) { return new Byte3((byte) (a.s[0] + b.s[0]), (byte) (a.s[1] + b.s[1]), (byte) (a.s[2] + b.s[2])); }
  public static Byte3 sub(Byte3 a, Byte3 b) { return new Byte3((byte) (a.s[0] - b.s[0]), (byte) (a.s[1] - b.s[1]), (byte) (a.s[2] - b.s[2])); }
  public static Byte3 mult(Byte3 a, Byte3 b) { return new Byte3((byte) (a.s[0] * b.s[0]), (byte) (a.s[1] * b.s[1]), (byte) (a.s[2] * b.s[2])); }
  public static Byte3 div(Byte3 a, Byte3 b) { return new Byte3((byte) (a.s[0] / b.s[0]), (byte) (a.s[1] / b.s[1]), (byte) (a.s[2] / b.s[2])); }
  public static Byte3 add(Byte3 a, byte b) { return new Byte3((byte) (a.s[0] + b), (byte) (a.s[1] + b), (byte) (a.s[2] + b)); }
  public static Byte3 sub(Byte3 a, byte b) { return new Byte3((byte) (a.s[0] - b), (byte) (a.s[1] - b), (byte) (a.s[2] - b)); }
  public static Byte3 mult(Byte3 a, byte b) { return new Byte3((byte) (a.s[0] * b), (byte) (a.s[1] * b), (byte) (a.s[2] * b)); }
  public static Byte3 div(Byte3 a, byte b) { return new Byte3((byte) (a.s[0] / b), (byte) (a.s[1] / b), (byte) (a.s[2] / b)); }

  /** {@code add(a, b)}. */
  public static Byte3 inc(Byte3 a, byte b) { return add(a, b); }
  /** {@code sub(a, b)}. */
  public static Byte3 dec(Byte3 a, byte b) { return sub(a, b); }
  /** {@code mult(a, b)}. */
  public static Byte3 scale(Byte3 a, byte b) { return mult(a, b); }

  /** Element-wise {@code Math.min}. */
  public static Byte3 min(Byte3 a, Byte3 b) { return new Byte3((byte) Math.min(a.s[0], b.s[0]), (byte) Math.min(a.s[1], b.s[1]), (byte) Math.min(a.s[2], b.s[2])); }
  /** Element-wise {@code Math.max}. */
  public static Byte3 max(Byte3 a, Byte3 b) { return new Byte3((byte) Math.max(a.s[0], b.s[0]), (byte) Math.max(a.s[1], b.s[1]), (byte) Math.max(a.s[2], b.s[2])); }
  /** The smallest element: {@code Math.min(s0, Math.min(s1, …))}. */
  public static byte min(Byte3 a) { return (byte) Math.min(a.s[0], Math.min(a.s[1], a.s[2])); }
  /** The largest element: {@code Math.max(s0, Math.max(s1, …))}. */
  public static byte max(Byte3 a) { return (byte) Math.max(a.s[0], Math.max(a.s[1], a.s[2])); }

  /** Each element {@code Math.min(Math.max(x, min), max)}. */
  public static Byte3 clamp(Byte3 a, byte min, byte max) {
    return new Byte3((byte) Math.min(Math.max(a.s[0], min), max), (byte) Math.min(Math.max(a.s[1], min), max), (byte) Math.min(Math.max(a.s[2], min), max));
  }

  /** Whether every element of {@code a} equals that of {@code b}; on the host only. */
  public static boolean isEqual(Byte3 a, Byte3 b) {
    return java.util.Arrays.equals(a.s, b.s);
  }

  /** A copy. */
  public Byte3 duplicate() {
    Byte3 c = new Byte3();
    c.set(this);
    return c;
  }

  /** A copy of the elements. */
  public byte[] toArray() {
    return s.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Byte3 v && java.util.Arrays.equals(v.s, s);
  }

  @Override
  public int hashCode() {
    return java.util.Arrays.hashCode(s);
  }

  @Override
  public String toString() {
    return java.util.Arrays.toString(s);
  }
}
