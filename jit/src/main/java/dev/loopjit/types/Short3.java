// 3 shorts as one value, as TornadoVM's Short3: usable inside kernels as a value.
package dev.loopjit.types;

/**
 * A vector of 3 shorts. On the host a small mutable object, as in TornadoVM; inside a kernel a value
 * the JIT keeps in 3 registers: kernels may create one, read it (getX()…, {@code get(k)} with a
 * constant {@code k}) and combine it with the static methods below. The arithmetic is Java's: on ints, each result narrowed to a short as
 * {@code (short) (a + b)} narrows it, on every device.
 */
public final class Short3 {
  private final short[] s = new short[3];

  /** Every element 0. */
  public Short3() {}

  public Short3(short x, short y, short z) {
    s[0] = x;
    s[1] = y;
    s[2] = z;
  }

  public short getX() { return s[0]; }
  public short getY() { return s[1]; }
  public short getZ() { return s[2]; }
  public void setX(short v) { s[0] = v; }
  public void setY(short v) { s[1] = v; }
  public void setZ(short v) { s[2] = v; }

  /** Element {@code k} (0 to 2). */
  public short get(int k) {
    return s[java.util.Objects.checkIndex(k, 3)];
  }

  /** Sets element {@code k} (0 to 2). */
  public void set(int k, short v) {
    s[java.util.Objects.checkIndex(k, 3)] = v;
  }

  /** Copies {@code other}'s elements. */
  public void set(Short3 other) {
    System.arraycopy(other.s, 0, s, 0, 3);
  }

  /** 3. */
  public int size() {
    return 3;
  }

  public static Short3 add(Short3 a, Short3 b) { return new Short3((short) (a.s[0] + b.s[0]), (short) (a.s[1] + b.s[1]), (short) (a.s[2] + b.s[2])); }
  public static Short3 sub(Short3 a, Short3 b) { return new Short3((short) (a.s[0] - b.s[0]), (short) (a.s[1] - b.s[1]), (short) (a.s[2] - b.s[2])); }
  public static Short3 mult(Short3 a, Short3 b) { return new Short3((short) (a.s[0] * b.s[0]), (short) (a.s[1] * b.s[1]), (short) (a.s[2] * b.s[2])); }
  public static Short3 div(Short3 a, Short3 b) { return new Short3((short) (a.s[0] / b.s[0]), (short) (a.s[1] / b.s[1]), (short) (a.s[2] / b.s[2])); }
  public static Short3 add(Short3 a, short b) { return new Short3((short) (a.s[0] + b), (short) (a.s[1] + b), (short) (a.s[2] + b)); }
  public static Short3 sub(Short3 a, short b) { return new Short3((short) (a.s[0] - b), (short) (a.s[1] - b), (short) (a.s[2] - b)); }
  public static Short3 mult(Short3 a, short b) { return new Short3((short) (a.s[0] * b), (short) (a.s[1] * b), (short) (a.s[2] * b)); }
  public static Short3 div(Short3 a, short b) { return new Short3((short) (a.s[0] / b), (short) (a.s[1] / b), (short) (a.s[2] / b)); }

  /** {@code add(a, b)}. */
  public static Short3 inc(Short3 a, short b) { return add(a, b); }
  /** {@code sub(a, b)}. */
  public static Short3 dec(Short3 a, short b) { return sub(a, b); }
  /** {@code mult(a, b)}. */
  public static Short3 scale(Short3 a, short b) { return mult(a, b); }

  /** Element-wise {@code Math.min}. */
  public static Short3 min(Short3 a, Short3 b) { return new Short3((short) Math.min(a.s[0], b.s[0]), (short) Math.min(a.s[1], b.s[1]), (short) Math.min(a.s[2], b.s[2])); }
  /** Element-wise {@code Math.max}. */
  public static Short3 max(Short3 a, Short3 b) { return new Short3((short) Math.max(a.s[0], b.s[0]), (short) Math.max(a.s[1], b.s[1]), (short) Math.max(a.s[2], b.s[2])); }
  /** The smallest element: {@code Math.min(s0, Math.min(s1, …))}. */
  public static short min(Short3 a) { return (short) Math.min(a.s[0], Math.min(a.s[1], a.s[2])); }
  /** The largest element: {@code Math.max(s0, Math.max(s1, …))}. */
  public static short max(Short3 a) { return (short) Math.max(a.s[0], Math.max(a.s[1], a.s[2])); }

  /** Each element {@code Math.min(Math.max(x, min), max)}. */
  public static Short3 clamp(Short3 a, short min, short max) {
    return new Short3((short) Math.min(Math.max(a.s[0], min), max), (short) Math.min(Math.max(a.s[1], min), max), (short) Math.min(Math.max(a.s[2], min), max));
  }

  /** Whether every element of {@code a} equals that of {@code b}; on the host only. */
  public static boolean isEqual(Short3 a, Short3 b) {
    return java.util.Arrays.equals(a.s, b.s);
  }

  /** A copy. */
  public Short3 duplicate() {
    Short3 c = new Short3();
    c.set(this);
    return c;
  }

  /** A copy of the elements. */
  public short[] toArray() {
    return s.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Short3 v && java.util.Arrays.equals(v.s, s);
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
