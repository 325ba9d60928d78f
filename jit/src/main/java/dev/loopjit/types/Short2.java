// 2 shorts as one value, as TornadoVM's Short2 (a voxel of a VolumeShort2): usable inside kernels as a value.
package dev.loopjit.types;

/**
 * A vector of 2 shorts. On the host a small mutable object, as in TornadoVM; inside a kernel a value
 * the JIT keeps in 2 registers: kernels may create one, read it (getX()…, {@code get(k)} with a
 * constant {@code k}), combine it with the static methods below and read and write it through
 * {@link VolumeShort2}. The arithmetic is Java's: on ints, each result narrowed to a short as
 * {@code (short) (a + b)} narrows it, on every device.
 */
public final class Short2 {
  private final short[] s = new short[2];

  /** Every element 0. */
  public Short2() {}

  public Short2(short x, short y) {
    s[0] = x;
    s[1] = y;
  }

  public short getX() { return s[0]; }
  public short getY() { return s[1]; }
  public void setX(short v) { s[0] = v; }
  public void setY(short v) { s[1] = v; }

  /** Element {@code k} (0 to 1). */
  public short get(int k) {
    return s[java.util.Objects.checkIndex(k, 2)];
  }

  /** Sets element {@code k} (0 to 1). */
  public void set(int k, short v) {
    s[java.util.Objects.checkIndex(k, 2)] = v;
  }

  /** Copies {@code other}'s elements. */
  public void set(Short2 other) {
    System.arraycopy(other.s, 0, s, 0, 2);
  }

  /** 2. */
  public int size() {
    return 2;
  }

  public static Short2 add(Short2 a, Short2 b) { return new Short2((short) (a.s[0] + b.s[0]), (short) (a.s[1] + b.s[1])); }
  public static Short2 sub(Short2 a, Short2 b) { return new Short2((short) (a.s[0] - b.s[0]), (short) (a.s[1] - b.s[1])); }
  public static Short2 mult(Short2 a, Short2 b) { return new Short2((short) (a.s[0] * b.s[0]), (short) (a.s[1] * b.s[1])); }
  public static Short2 div(Short2 a, Short2 b) { return new Short2((short) (a.s[0] / b.s[0]), (short) (a.s[1] / b.s[1])); }
  public static Short2 add(Short2 a, short b) { return new Short2((short) (a.s[0] + b), (short) (a.s[1] + b)); }
  public static Short2 sub(Short2 a, short b) { return new Short2((short) (a.s[0] - b), (short) (a.s[1] - b)); }
  public static Short2 mult(Short2 a, short b) { return new Short2((short) (a.s[0] * b), (short) (a.s[1] * b)); }
  public static Short2 div(Short2 a, short b) { return new Short2((short) (a.s[0] / b), (short) (a.s[1] / b)); }

  /** {@code add(a, b)}. */
  public static Short2 inc(Short2 a, short b) { return add(a, b); }
  /** {@code sub(a, b)}. */
  public static Short2 dec(Short2 a, short b) { return sub(a, b); }
  /** {@code mult(a, b)}. */
  public static Short2 scale(Short2 a, short b) { return mult(a, b); }

  /** Element-wise {@code Math.min}. */
  public static Short2 min(Short2 a, Short2 b) { return new Short2((short) Math.min(a.s[0], b.s[0]), (short) Math.min(a.s[1], b.s[1])); }
  /** Element-wise {@code Math.max}. */
  public static Short2 max(Short2 a, Short2 b) { return new Short2((short) Math.max(a.s[0], b.s[0]), (short) Math.max(a.s[1], b.s[1])); }
  /** The smallest element: {@code Math.min(s0, Math.min(s1, …))}. */
  public static short min(Short2 a) { return (short) Math.min(a.s[0], a.s[1]); }
  /** The largest element: {@code Math.max(s0, Math.max(s1, …))}. */
  public static short max(Short2 a) { return (short) Math.max(a.s[0], a.s[1]); }

  /** Each element {@code Math.min(Math.max(x, min), max)}. */
  public static Short2 clamp(Short2 a, short min, short max) {
    return new Short2((short) Math.min(Math.max(a.s[0], min), max), (short) Math.min(Math.max(a.s[1], min), max));
  }

  /** Whether every element of {@code a} equals that of {@code b}; on the host only. */
  public static boolean isEqual(Short2 a, Short2 b) {
    return java.util.Arrays.equals(a.s, b.s);
  }

  /** A copy. */
  public Short2 duplicate() {
    Short2 c = new Short2();
    c.set(this);
    return c;
  }

  /** A copy of the elements. */
  public short[] toArray() {
    return s.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Short2 v && java.util.Arrays.equals(v.s, s);
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
