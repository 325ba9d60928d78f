// 4 ints as one value, as TornadoVM's Int4: usable inside kernels as a value (read it, compute with it, store it).
package dev.loopjit.types;

/**
 * A vector of 4 ints. On the host it is a small mutable object, as in TornadoVM. Inside a kernel
 * it is a value the JIT keeps in 4 registers: kernels may create one (its constructors), read it
 * (getX()…, getS0()…getS3(), {@code get(k)} with a constant {@code k}), combine it with the
 * static methods below, keep it in locals, and read and write it through {@link VectorInt4}. Its
 * setters are refused in kernels (a value has no identity there): write {@code v = new Int4(…)} instead.
 * The static methods compute as their Java code reads, element by element, on every device.
 */
public final class Int4 {
  private final int[] s = new int[4];

  /** Every element 0. */
  public Int4() {}

  public Int4(int s0, int s1, int s2, int s3) {
    s[0] = s0;
    s[1] = s1;
    s[2] = s2;
    s[3] = s3;
  }

  public int getX() { return s[0]; }
  public int getY() { return s[1]; }
  public int getZ() { return s[2]; }
  public int getW() { return s[3]; }
  public void setX(int v) { s[0] = v; }
  public void setY(int v) { s[1] = v; }
  public void setZ(int v) { s[2] = v; }
  public void setW(int v) { s[3] = v; }
  public int getS0() { return s[0]; }
  public int getS1() { return s[1]; }
  public int getS2() { return s[2]; }
  public int getS3() { return s[3]; }
  public void setS0(int v) { s[0] = v; }
  public void setS1(int v) { s[1] = v; }
  public void setS2(int v) { s[2] = v; }
  public void setS3(int v) { s[3] = v; }

  /** Element {@code k} (0 to 3). */
  public int get(int k) {
    return s[java.util.Objects.checkIndex(k, 4)];
  }

  /** Sets element {@code k} (0 to 3). */
  public void set(int k, int v) {
    s[java.util.Objects.checkIndex(k, 4)] = v;
  }

  /** Copies {@code other}'s elements. */
  public void set(Int4 other) {
    System.arraycopy(other.s, 0, s, 0, 4);
  }

  /** 4. */
  public int size() {
    return 4;
  }

  public static Int4 add(Int4 a, Int4 b) { return new Int4(a.s[0] + b.s[0], a.s[1] + b.s[1], a.s[2] + b.s[2], a.s[3] + b.s[3]); }
  public static Int4 sub(Int4 a, Int4 b) { return new Int4(a.s[0] - b.s[0], a.s[1] - b.s[1], a.s[2] - b.s[2], a.s[3] - b.s[3]); }
  public static Int4 mult(Int4 a, Int4 b) { return new Int4(a.s[0] * b.s[0], a.s[1] * b.s[1], a.s[2] * b.s[2], a.s[3] * b.s[3]); }
  public static Int4 div(Int4 a, Int4 b) { return new Int4(a.s[0] / b.s[0], a.s[1] / b.s[1], a.s[2] / b.s[2], a.s[3] / b.s[3]); }
  public static Int4 add(Int4 a, int b) { return new Int4(a.s[0] + b, a.s[1] + b, a.s[2] + b, a.s[3] + b); }
  public static Int4 sub(Int4 a, int b) { return new Int4(a.s[0] - b, a.s[1] - b, a.s[2] - b, a.s[3] - b); }
  public static Int4 mult(Int4 a, int b) { return new Int4(a.s[0] * b, a.s[1] * b, a.s[2] * b, a.s[3] * b); }
  public static Int4 div(Int4 a, int b) { return new Int4(a.s[0] / b, a.s[1] / b, a.s[2] / b, a.s[3] / b); }

  /** {@code add(a, b)}. */
  public static Int4 inc(Int4 a, int b) { return add(a, b); }
  /** {@code sub(a, b)}. */
  public static Int4 dec(Int4 a, int b) { return sub(a, b); }
  /** {@code mult(a, b)}. */
  public static Int4 scale(Int4 a, int b) { return mult(a, b); }

  /** Element-wise {@code Math.min}. */
  public static Int4 min(Int4 a, Int4 b) { return new Int4(Math.min(a.s[0], b.s[0]), Math.min(a.s[1], b.s[1]), Math.min(a.s[2], b.s[2]), Math.min(a.s[3], b.s[3])); }
  /** Element-wise {@code Math.max}. */
  public static Int4 max(Int4 a, Int4 b) { return new Int4(Math.max(a.s[0], b.s[0]), Math.max(a.s[1], b.s[1]), Math.max(a.s[2], b.s[2]), Math.max(a.s[3], b.s[3])); }
  /** The smallest element: {@code Math.min(s0, Math.min(s1, …))}. */
  public static int min(Int4 a) { return Math.min(a.s[0], Math.min(a.s[1], Math.min(a.s[2], a.s[3]))); }
  /** The largest element: {@code Math.max(s0, Math.max(s1, …))}. */
  public static int max(Int4 a) { return Math.max(a.s[0], Math.max(a.s[1], Math.max(a.s[2], a.s[3]))); }

  /** The elements added from the first: {@code ((s0 + s1) + s2) + …}. */
  public static int sum(Int4 a) { return a.s[0] + a.s[1] + a.s[2] + a.s[3]; }
  /** {@code sum(mult(a, b))}. */
  public static int dot(Int4 a, Int4 b) { return sum(mult(a, b)); }

  /** Each element {@code Math.min(Math.max(x, min), max)}. */
  public static Int4 clamp(Int4 a, int min, int max) { return new Int4(Math.min(Math.max(a.s[0], min), max), Math.min(Math.max(a.s[1], min), max), Math.min(Math.max(a.s[2], min), max), Math.min(Math.max(a.s[3], min), max)); }

  /** Whether every element of {@code a} equals that of {@code b} ({@code ==}); on the host only. */
  public static boolean isEqual(Int4 a, Int4 b) {
    for (int k = 0; k < 4; k++) if (a.s[k] != b.s[k]) return false;
    return true;
  }

  /** A new Int2 of elements 0 to 1. */
  public Int2 asInt2() {
    return new Int2(get(0), get(1));
  }

  /** A new Int3 of elements 0 to 2. */
  public Int3 asInt3() {
    return new Int3(get(0), get(1), get(2));
  }

  /** A new Int2 of elements 0 to 1. */
  public Int2 getLow() {
    return new Int2(get(0), get(1));
  }

  /** A new Int2 of elements 2 to 3. */
  public Int2 getHigh() {
    return new Int2(get(2), get(3));
  }

  /** A copy. */
  public Int4 duplicate() {
    Int4 c = new Int4();
    c.set(this);
    return c;
  }

  /** A copy of the elements. */
  public int[] toArray() {
    return s.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Int4 v && java.util.Arrays.equals(v.s, s);
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
