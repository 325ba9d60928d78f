// 4 bytes as one value, as TornadoVM's Byte4 (a pixel of an ImageByte4): usable inside kernels as a value.
package dev.loopjit.types;

/**
 * A vector of 4 bytes. On the host a small mutable object, as in TornadoVM; inside a kernel a value
 * the JIT keeps in 4 registers: kernels may create one, read it (getX()…, {@code get(k)} with a
 * constant {@code k}), combine it with the static methods below and read and write it through
 * {@link ImageByte4}. The arithmetic is Java's: on ints, each result narrowed to a byte as
 * {@code (byte) (a + b)} narrows it, on every device.
 */
public final class Byte4 {
  private final byte[] s = new byte[4];

  /** Every element 0. */
  public Byte4() {}

  public Byte4(byte x, byte y, byte z, byte w) {
    s[0] = x;
    s[1] = y;
    s[2] = z;
    s[3] = w;
  }

  public byte getX() { return s[0]; }
  public byte getY() { return s[1]; }
  public byte getZ() { return s[2]; }
  public byte getW() { return s[3]; }
  public void setX(byte v) { s[0] = v; }
  public void setY(byte v) { s[1] = v; }
  public void setZ(byte v) { s[2] = v; }
  public void setW(byte v) { s[3] = v; }

  /** Element {@code k} (0 to 3). */
  public byte get(int k) {
    return s[java.util.Objects.checkIndex(k, 4)];
  }

  /** Sets element {@code k} (0 to 3). */
  public void set(int k, byte v) {
    s[java.util.Objects.checkIndex(k, 4)] = v;
  }

  /** Copies {@code other}'s elements. */
  public void set(Byte4 other) {
    System.arraycopy(other.s, 0, s, 0, 4);
  }

  /** 4. */
  public int size() {
    return 4;
  }

  public static Byte4 add(Byte4 a, Byte4 b) { return new Byte4((byte) (a.s[0] + b.s[0]), (byte) (a.s[1] + b.s[1]), (byte) (a.s[2] + b.s[2]), (byte) (a.s[3] + b.s[3])); }
  public static Byte4 sub(Byte4 a, Byte4 b) { return new Byte4((byte) (a.s[0] - b.s[0]), (byte) (a.s[1] - b.s[1]), (byte) (a.s[2] - b.s[2]), (byte) (a.s[3] - b.s[3])); }
  public static Byte4 mult(Byte4 a, Byte4 b) { return new Byte4((byte) (a.s[0] * b.s[0]), (byte) (a.s[1] * b.s[1]), (byte) (a.s[2] * b.s[2]), (byte) (a.s[3] * b.s[3])); }
  public static Byte4 div(Byte4 a, Byte4 b) { return new Byte4((byte) (a.s[0] / b.s[0]), (byte) (a.s[1] / b.s[1]), (byte) (a.s[2] / b.s[2]), (byte) (a.s[3] / b.s[3])); }
  public static Byte4 add(Byte4 a, byte b) { return new Byte4((byte) (a.s[0] + b), (byte) (a.s[1] + b), (byte) (a.s[2] + b), (byte) (a.s[3] + b)); }
  public static Byte4 sub(Byte4 a, byte b) { return new Byte4((byte) (a.s[0] - b), (byte) (a.s[1] - b), (byte) (a.s[2] - b), (byte) (a.s[3] - b)); }
  public static Byte4 mult(Byte4 a, byte b) { return new Byte4((byte) (a.s[0] * b), (byte) (a.s[1] * b), (byte) (a.s[2] * b), (byte) (a.s[3] * b)); }
  public static Byte4 div(Byte4 a, byte b) { return new Byte4((byte) (a.s[0] / b), (byte) (a.s[1] / b), (byte) (a.s[2] / b), (byte) (a.s[3] / b)); }

  /** {@code add(a, b)}. */
  public static Byte4 inc(Byte4 a, byte b) { return add(a, b); }
  /** {@code sub(a, b)}. */
  public static Byte4 dec(Byte4 a, byte b) { return sub(a, b); }
  /** {@code mult(a, b)}. */
  public static Byte4 scale(Byte4 a, byte b) { return mult(a, b); }

  /** Element-wise {@code Math.min}. */
  public static Byte4 min(Byte4 a, Byte4 b) { return new Byte4((byte) Math.min(a.s[0], b.s[0]), (byte) Math.min(a.s[1], b.s[1]), (byte) Math.min(a.s[2], b.s[2]), (byte) Math.min(a.s[3], b.s[3])); }
  /** Element-wise {@code Math.max}. */
  public static Byte4 max(Byte4 a, Byte4 b) { return new Byte4((byte) Math.max(a.s[0], b.s[0]), (byte) Math.max(a.s[1], b.s[1]), (byte) Math.max(a.s[2], b.s[2]), (byte) Math.max(a.s[3], b.s[3])); }
  /** The smallest element: {@code Math.min(s0, Math.min(s1, …))}. */
  public static byte min(Byte4 a) { return (byte) Math.min(a.s[0], Math.min(a.s[1], Math.min(a.s[2], a.s[3]))); }
  /** The largest element: {@code Math.max(s0, Math.max(s1, …))}. */
  public static byte max(Byte4 a) { return (byte) Math.max(a.s[0], Math.max(a.s[1], Math.max(a.s[2], a.s[3]))); }

  /** Each element {@code Math.min(Math.max(x, min), max)}. */
  public static Byte4 clamp(Byte4 a, byte min, byte max) {
    return new Byte4((byte) Math.min(Math.max(a.s[0], min), max), (byte) Math.min(Math.max(a.s[1], min), max), (byte) Math.min(Math.max(a.s[2], min), max), (byte) Math.min(Math.max(a.s[3], min), max));
  }

  /** Whether every element of {@code a} equals that of {@code b}; on the host only. */
  public static boolean isEqual(Byte4 a, Byte4 b) {
    return java.util.Arrays.equals(a.s, b.s);
  }

  /** A copy. */
  public Byte4 duplicate() {
    Byte4 c = new Byte4();
    c.set(this);
    return c;
  }

  /** A copy of the elements. */
  public byte[] toArray() {
    return s.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Byte4 v && java.util.Arrays.equals(v.s, s);
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
