// 8 ints as one value, as TornadoVM's Int8: usable inside kernels as a value (read it, compute with it, store it).
package dev.loopjit.types;

/**
 * A vector of 8 ints. On the host it is a small mutable object, as in TornadoVM. Inside a kernel
 * it is a value the JIT keeps in 8 registers: kernels may create one (its constructors), read it
 * (getS0()…getS7(), {@code get(k)} with a constant {@code k}), combine it with the
 * static methods below, keep it in locals, and read and write it through {@link VectorInt8}. Its
 * setters are refused in kernels (a value has no identity there): write {@code v = new Int8(…)} instead.
 * The static methods compute as their Java code reads, element by element, on every device.
 */
public final class Int8 {
  private final int[] s = new int[8];

  /** Every element 0. */
  public Int8() {}

  public Int8(int s0, int s1, int s2, int s3, int s4, int s5, int s6, int s7) {
    s[0] = s0;
    s[1] = s1;
    s[2] = s2;
    s[3] = s3;
    s[4] = s4;
    s[5] = s5;
    s[6] = s6;
    s[7] = s7;
  }

  public int getS0() { return s[0]; }
  public int getS1() { return s[1]; }
  public int getS2() { return s[2]; }
  public int getS3() { return s[3]; }
  public int getS4() { return s[4]; }
  public int getS5() { return s[5]; }
  public int getS6() { return s[6]; }
  public int getS7() { return s[7]; }
  public void setS0(int v) { s[0] = v; }
  public void setS1(int v) { s[1] = v; }
  public void setS2(int v) { s[2] = v; }
  public void setS3(int v) { s[3] = v; }
  public void setS4(int v) { s[4] = v; }
  public void setS5(int v) { s[5] = v; }
  public void setS6(int v) { s[6] = v; }
  public void setS7(int v) { s[7] = v; }

  /** Element {@code k} (0 to 7). */
  public int get(int k) {
    return s[java.util.Objects.checkIndex(k, 8)];
  }

  /** Sets element {@code k} (0 to 7). */
  public void set(int k, int v) {
    s[java.util.Objects.checkIndex(k, 8)] = v;
  }

  /** Copies {@code other}'s elements. */
  public void set(Int8 other) {
    System.arraycopy(other.s, 0, s, 0, 8);
  }

  /** 8. */
  public int size() {
    return 8;
  }

  public static Int8 add(Int8 a, Int8 b) { return new Int8(a.s[0] + b.s[0], a.s[1] + b.s[1], a.s[2] + b.s[2], a.s[3] + b.s[3], a.s[4] + b.s[4], a.s[5] + b.s[5], a.s[6] + b.s[6], a.s[7] + b.s[7]); }
  public static Int8 sub(Int8 a, Int8 b) { return new Int8(a.s[0] - b.s[0], a.s[1] - b.s[1], a.s[2] - b.s[2], a.s[3] - b.s[3], a.s[4] - b.s[4], a.s[5] - b.s[5], a.s[6] - b.s[6], a.s[7] - b.s[7]); }
  public static Int8 mult(Int8 a, Int8 b) { return new Int8(a.s[0] * b.s[0], a.s[1] * b.s[1], a.s[2] * b.s[2], a.s[3] * b.s[3], a.s[4] * b.s[4], a.s[5] * b.s[5], a.s[6] * b.s[6], a.s[7] * b.s[7]); }
  public static Int8 div(Int8 a, Int8 b) { return new Int8(a.s[0] / b.s[0], a.s[1] / b.s[1], a.s[2] / b.s[2], a.s[3] / b.s[3], a.s[4] / b.s[4], a.s[5] / b.s[5], a.s[6] / b.s[6], a.s[7] / b.s[7]); }
  public static Int8 add(Int8 a, int b) { return new Int8(a.s[0] + b, a.s[1] + b, a.s[2] + b, a.s[3] + b, a.s[4] + b, a.s[5] + b, a.s[6] + b, a.s[7] + b); }
  public static Int8 sub(Int8 a, int b) { return new Int8(a.s[0] - b, a.s[1] - b, a.s[2] - b, a.s[3] - b, a.s[4] - b, a.s[5] - b, a.s[6] - b, a.s[7] - b); }
  public static Int8 mult(Int8 a, int b) { return new Int8(a.s[0] * b, a.s[1] * b, a.s[2] * b, a.s[3] * b, a.s[4] * b, a.s[5] * b, a.s[6] * b, a.s[7] * b); }
  public static Int8 div(Int8 a, int b) { return new Int8(a.s[0] / b, a.s[1] / b, a.s[2] / b, a.s[3] / b, a.s[4] / b, a.s[5] / b, a.s[6] / b, a.s[7] / b); }

  /** {@code add(a, b)}. */
  public static Int8 inc(Int8 a, int b) { return add(a, b); }
  /** {@code sub(a, b)}. */
  public static Int8 dec(Int8 a, int b) { return sub(a, b); }
  /** {@code mult(a, b)}. */
  public static Int8 scale(Int8 a, int b) { return mult(a, b); }

  /** Element-wise {@code Math.min}. */
  public static Int8 min(Int8 a, Int8 b) { return new Int8(Math.min(a.s[0], b.s[0]), Math.min(a.s[1], b.s[1]), Math.min(a.s[2], b.s[2]), Math.min(a.s[3], b.s[3]), Math.min(a.s[4], b.s[4]), Math.min(a.s[5], b.s[5]), Math.min(a.s[6], b.s[6]), Math.min(a.s[7], b.s[7])); }
  /** Element-wise {@code Math.max}. */
  public static Int8 max(Int8 a, Int8 b) { return new Int8(Math.max(a.s[0], b.s[0]), Math.max(a.s[1], b.s[1]), Math.max(a.s[2], b.s[2]), Math.max(a.s[3], b.s[3]), Math.max(a.s[4], b.s[4]), Math.max(a.s[5], b.s[5]), Math.max(a.s[6], b.s[6]), Math.max(a.s[7], b.s[7])); }
  /** The smallest element: {@code Math.min(s0, Math.min(s1, …))}. */
  public static int min(Int8 a) { return Math.min(a.s[0], Math.min(a.s[1], Math.min(a.s[2], Math.min(a.s[3], Math.min(a.s[4], Math.min(a.s[5], Math.min(a.s[6], a.s[7]))))))); }
  /** The largest element: {@code Math.max(s0, Math.max(s1, …))}. */
  public static int max(Int8 a) { return Math.max(a.s[0], Math.max(a.s[1], Math.max(a.s[2], Math.max(a.s[3], Math.max(a.s[4], Math.max(a.s[5], Math.max(a.s[6], a.s[7]))))))); }

  /** The elements added from the first: {@code ((s0 + s1) + s2) + …}. */
  public static int sum(Int8 a) { return a.s[0] + a.s[1] + a.s[2] + a.s[3] + a.s[4] + a.s[5] + a.s[6] + a.s[7]; }
  /** {@code sum(mult(a, b))}. */
  public static int dot(Int8 a, Int8 b) { return sum(mult(a, b)); }

  /** Each element {@code Math.min(Math.max(x, min), max)}. */
  public static Int8 clamp(Int8 a, int min, int max) { return new Int8(Math.min(Math.max(a.s[0], min), max), Math.min(Math.max(a.s[1], min), max), Math.min(Math.max(a.s[2], min), max), Math.min(Math.max(a.s[3], min), max), Math.min(Math.max(a.s[4], min), max), Math.min(Math.max(a.s[5], min), max), Math.min(Math.max(a.s[6], min), max), Math.min(Math.max(a.s[7], min), max)); }

  /** Whether every element of {@code a} equals that of {@code b} ({@code ==}); on the host only. */
  public static boolean isEqual(Int8 a, Int8 b) {
    for (int k = 0; k < 8; k++) if (a.s[k] != b.s[k]) return false;
    return true;
  }

  /** A new Int4 of elements 0 to 3. */
  public Int4 getLow() {
    return new Int4(get(0), get(1), get(2), get(3));
  }

  /** A new Int4 of elements 4 to 7. */
  public Int4 getHigh() {
    return new Int4(get(4), get(5), get(6), get(7));
  }

  /** A copy. */
  public Int8 duplicate() {
    Int8 c = new Int8();
    c.set(this);
    return c;
  }

  /** A copy of the elements. */
  public int[] toArray() {
    return s.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Int8 v && java.util.Arrays.equals(v.s, s);
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
