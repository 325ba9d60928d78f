// 3 ints as one value, as TornadoVM's Int3: usable inside kernels as a value (read it, compute with it, store it).
package dev.loopjit.types;

/**
 * A vector of 3 ints. On the host it is a small mutable object, as in TornadoVM. Inside a kernel
 * it is a value the JIT keeps in 3 registers: kernels may create one (its constructors), read it
 * (getX()…, getS0()…getS2(), {@code get(k)} with a constant {@code k}), combine it with the
 * static methods below, keep it in locals, and read and write it through {@link VectorInt3}. Its
 * setters are refused in kernels (a value has no identity there): write {@code v = new Int3(…)} instead.
 * The static methods compute as their Java code reads, element by element, on every device.
 */
public final class Int3 {
  private final int[] s = new int[3];

  /** Every element 0. */
  public Int3() {}

  public Int3(int s0, int s1, int s2) {
    s[0] = s0;
    s[1] = s1;
    s[2] = s2;
  }

  public int getX() { return s[0]; }
  public int getY() { return s[1]; }
  public int getZ() { return s[2]; }
  public void setX(int v) { s[0] = v; }
  public void setY(int v) { s[1] = v; }
  public void setZ(int v) { s[2] = v; }
  public int getS0() { return s[0]; }
  public int getS1() { return s[1]; }
  public int getS2() { return s[2]; }
  public void setS0(int v) { s[0] = v; }
  public void setS1(int v) { s[1] = v; }
  public void setS2(int v) { s[2] = v; }

  /** Element {@code k} (0 to 2). */
  public int get(int k) {
    return s[java.util.Objects.checkIndex(k, 3)];
  }

  /** Sets element {@code k} (0 to 2). */
  public void set(int k, int v) {
    s[java.util.Objects.checkIndex(k, 3)] = v;
  }

  /** Copies {@code other}'s elements. */
  public void set(Int3 other) {
    System.arraycopy(other.s, 0, s, 0, 3);
  }

  /** 3. */
  public int size() {
    return 3;
  }

  public static Int3 add(Int3 a, Int3 b) { return new Int3(a.s[0] + b.s[0], a.s[1] + b.s[1], a.s[2] + b.s[2]); }
  public static Int3 sub(Int3 a, Int3 b) { return new Int3(a.s[0] - b.s[0], a.s[1] - b.s[1], a.s[2] - b.s[2]); }
  public static Int3 mult(Int3 a, Int3 b) { return new Int3(a.s[0] * b.s[0], a.s[1] * b.s[1], a.s[2] * b.s[2]); }
  public static Int3 div(Int3 a, Int3 b) { return new Int3(a.s[0] / b.s[0], a.s[1] / b.s[1], a.s[2] / b.s[2]); }
  public static Int3 add(Int3 a, int b) { return new Int3(a.s[0] + b, a.s[1] + b, a.s[2] + b); }
  public static Int3 sub(Int3 a, int b) { return new Int3(a.s[0] - b, a.s[1] - b, a.s[2] - b); }
  public static Int3 mult(Int3 a, int b) { return new Int3(a.s[0] * b, a.s[1] * b, a.s[2] * b); }
  public static Int3 div(Int3 a, int b) { return new Int3(a.s[0] / b, a.s[1] / b, a.s[2] / b); }

  /** {@code add(a, b)}. */
  public static Int3 inc(Int3 a, int b) { return add(a, b); }
  /** {@code sub(a, b)}. */
  public static Int3 dec(Int3 a, int b) { return sub(a, b); }
  /** {@code mult(a, b)}. */
  public static Int3 scale(Int3 a, int b) { return mult(a, b); }

  /** Element-wise {@code Math.min}. */
  public static Int3 min(Int3 a, Int3 b) { return new Int3(Math.min(a.s[0], b.s[0]), Math.min(a.s[1], b.s[1]), Math.min(a.s[2], b.s[2])); }
  /** Element-wise {@code Math.max}. */
  public static Int3 max(Int3 a, Int3 b) { return new Int3(Math.max(a.s[0], b.s[0]), Math.max(a.s[1], b.s[1]), Math.max(a.s[2], b.s[2])); }
  /** The smallest element: {@code Math.min(s0, Math.min(s1, …))}. */
  public static int min(Int3 a) { return Math.min(a.s[0], Math.min(a.s[1], a.s[2])); }
  /** The largest element: {@code Math.max(s0, Math.max(s1, …))}. */
  public static int max(Int3 a) { return Math.max(a.s[0], Math.max(a.s[1], a.s[2])); }

  /** The elements added from the first: {@code ((s0 + s1) + s2) + …}. */
  public static int sum(Int3 a) { return a.s[0] + a.s[1] + a.s[2]; }
  /** {@code sum(mult(a, b))}. */
  public static int dot(Int3 a, Int3 b) { return sum(mult(a, b)); }

  /** Each element {@code Math.min(Math.max(x, min), max)}. */
  public static Int3 clamp(Int3 a, int min, int max) { return new Int3(Math.min(Math.max(a.s[0], min), max), Math.min(Math.max(a.s[1], min), max), Math.min(Math.max(a.s[2], min), max)); }
  /** The cross product {@code (y·bz − z·by, z·bx − x·bz, x·by − y·bx)}. */
  public static Int3 cross(Int3 a, Int3 b) {
    return new Int3(a.s[1] * b.s[2] - a.s[2] * b.s[1], a.s[2] * b.s[0] - a.s[0] * b.s[2], a.s[0] * b.s[1] - a.s[1] * b.s[0]);
  }

  /** Whether every element of {@code a} equals that of {@code b} ({@code ==}); on the host only. */
  public static boolean isEqual(Int3 a, Int3 b) {
    for (int k = 0; k < 3; k++) if (a.s[k] != b.s[k]) return false;
    return true;
  }

  /** A new Int2 of elements 0 to 1. */
  public Int2 asInt2() {
    return new Int2(get(0), get(1));
  }

  /** A copy. */
  public Int3 duplicate() {
    Int3 c = new Int3();
    c.set(this);
    return c;
  }

  /** A copy of the elements. */
  public int[] toArray() {
    return s.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Int3 v && java.util.Arrays.equals(v.s, s);
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
