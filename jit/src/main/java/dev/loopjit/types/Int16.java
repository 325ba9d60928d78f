// 16 ints as one value, as TornadoVM's Int16: usable inside kernels as a value (read it, compute with it, store it).
package dev.loopjit.types;

/**
 * A vector of 16 ints. On the host it is a small mutable object, as in TornadoVM. Inside a kernel
 * it is a value the JIT keeps in 16 registers: kernels may create one (its constructors), read it
 * (getS0()…getS15(), {@code get(k)} with a constant {@code k}), combine it with the
 * static methods below, keep it in locals, and read and write it through {@link VectorInt16}. Its
 * setters are refused in kernels (a value has no identity there): write {@code v = new Int16(…)} instead.
 * The static methods compute as their Java code reads, element by element, on every device.
 */
public final class Int16 {
  private final int[] s = new int[16];

  /** Every element 0. */
  public Int16() {}

  public Int16(int s0, int s1, int s2, int s3, int s4, int s5, int s6, int s7, int s8, int s9, int s10, int s11, int s12, int s13, int s14, int s15) {
    s[0] = s0;
    s[1] = s1;
    s[2] = s2;
    s[3] = s3;
    s[4] = s4;
    s[5] = s5;
    s[6] = s6;
    s[7] = s7;
    s[8] = s8;
    s[9] = s9;
    s[10] = s10;
    s[11] = s11;
    s[12] = s12;
    s[13] = s13;
    s[14] = s14;
    s[15] = s15;
  }

  public int getS0() { return s[0]; }
  public int getS1() { return s[1]; }
  public int getS2() { return s[2]; }
  public int getS3() { return s[3]; }
  public int getS4() { return s[4]; }
  public int getS5() { return s[5]; }
  public int getS6() { return s[6]; }
  public int getS7() { return s[7]; }
  public int getS8() { return s[8]; }
  public int getS9() { return s[9]; }
  public int getS10() { return s[10]; }
  public int getS11() { return s[11]; }
  public int getS12() { return s[12]; }
  public int getS13() { return s[13]; }
  public int getS14() { return s[14]; }
  public int getS15() { return s[15]; }
  public void setS0(int v) { s[0] = v; }
  public void setS1(int v) { s[1] = v; }
  public void setS2(int v) { s[2] = v; }
  public void setS3(int v) { s[3] = v; }
  public void setS4(int v) { s[4] = v; }
  public void setS5(int v) { s[5] = v; }
  public void setS6(int v) { s[6] = v; }
  public void setS7(int v) { s[7] = v; }
  public void setS8(int v) { s[8] = v; }
  public void setS9(int v) { s[9] = v; }
  public void setS10(int v) { s[10] = v; }
  public void setS11(int v) { s[11] = v; }
  public void setS12(int v) { s[12] = v; }
  public void setS13(int v) { s[13] = v; }
  public void setS14(int v) { s[14] = v; }
  public void setS15(int v) { s[15] = v; }

  /** Element {@code k} (0 to 15). */
  public int get(int k) {
    return s[java.util.Objects.checkIndex(k, 16)];
  }

  /** Sets element {@code k} (0 to 15). */
  public void set(int k, int v) {
    s[java.util.Objects.checkIndex(k, 16)] = v;
  }

  /** Copies {@code other}'s elements. */
  public void set(Int16 other) {
    System.arraycopy(other.s, 0, s, 0, 16);
  }

  /** 16. */
  public int size() {
    return 16;
  }

  public static Int16 add(Int16 a, Int16 b) { return new Int16(a.s[0] + b.s[0], a.s[1] + b.s[1], a.s[2] + b.s[2], a.s[3] + b.s[3], a.s[4] + b.s[4], a.s[5] + b.s[5], a.s[6] + b.s[6], a.s[7] + b.s[7], a.s[8] + b.s[8], a.s[9] + b.s[9], a.s[10] + b.s[10], a.s[11] + b.s[11], a.s[12] + b.s[12], a.s[13] + b.s[13], a.s[14] + b.s[14], a.s[15] + b.s[15]); }
  public static Int16 sub(Int16 a, Int16 b) { return new Int16(a.s[0] - b.s[0], a.s[1] - b.s[1], a.s[2] - b.s[2], a.s[3] - b.s[3], a.s[4] - b.s[4], a.s[5] - b.s[5], a.s[6] - b.s[6], a.s[7] - b.s[7], a.s[8] - b.s[8], a.s[9] - b.s[9], a.s[10] - b.s[10], a.s[11] - b.s[11], a.s[12] - b.s[12], a.s[13] - b.s[13], a.s[14] - b.s[14], a.s[15] - b.s[15]); }
  public static Int16 mult(Int16 a, Int16 b) { return new Int16(a.s[0] * b.s[0], a.s[1] * b.s[1], a.s[2] * b.s[2], a.s[3] * b.s[3], a.s[4] * b.s[4], a.s[5] * b.s[5], a.s[6] * b.s[6], a.s[7] * b.s[7], a.s[8] * b.s[8], a.s[9] * b.s[9], a.s[10] * b.s[10], a.s[11] * b.s[11], a.s[12] * b.s[12], a.s[13] * b.s[13], a.s[14] * b.s[14], a.s[15] * b.s[15]); }
  public static Int16 div(Int16 a, Int16 b) { return new Int16(a.s[0] / b.s[0], a.s[1] / b.s[1], a.s[2] / b.s[2], a.s[3] / b.s[3], a.s[4] / b.s[4], a.s[5] / b.s[5], a.s[6] / b.s[6], a.s[7] / b.s[7], a.s[8] / b.s[8], a.s[9] / b.s[9], a.s[10] / b.s[10], a.s[11] / b.s[11], a.s[12] / b.s[12], a.s[13] / b.s[13], a.s[14] / b.s[14], a.s[15] / b.s[15]); }
  public static Int16 add(Int16 a, int b) { return new Int16(a.s[0] + b, a.s[1] + b, a.s[2] + b, a.s[3] + b, a.s[4] + b, a.s[5] + b, a.s[6] + b, a.s[7] + b, a.s[8] + b, a.s[9] + b, a.s[10] + b, a.s[11] + b, a.s[12] + b, a.s[13] + b, a.s[14] + b, a.s[15] + b); }
  public static Int16 sub(Int16 a, int b) { return new Int16(a.s[0] - b, a.s[1] - b, a.s[2] - b, a.s[3] - b, a.s[4] - b, a.s[5] - b, a.s[6] - b, a.s[7] - b, a.s[8] - b, a.s[9] - b, a.s[10] - b, a.s[11] - b, a.s[12] - b, a.s[13] - b, a.s[14] - b, a.s[15] - b); }
  public static Int16 mult(Int16 a, int b) { return new Int16(a.s[0] * b, a.s[1] * b, a.s[2] * b, a.s[3] * b, a.s[4] * b, a.s[5] * b, a.s[6] * b, a.s[7] * b, a.s[8] * b, a.s[9] * b, a.s[10] * b, a.s[11] * b, a.s[12] * b, a.s[13] * b, a.s[14] * b, a.s[15] * b); }
  public static Int16 div(Int16 a, int b) { return new Int16(a.s[0] / b, a.s[1] / b, a.s[2] / b, a.s[3] / b, a.s[4] / b, a.s[5] / b, a.s[6] / b, a.s[7] / b, a.s[8] / b, a.s[9] / b, a.s[10] / b, a.s[11] / b, a.s[12] / b, a.s[13] / b, a.s[14] / b, a.s[15] / b); }

  /** {@code add(a, b)}. */
  public static Int16 inc(Int16 a, int b) { return add(a, b); }
  /** {@code sub(a, b)}. */
  public static Int16 dec(Int16 a, int b) { return sub(a, b); }
  /** {@code mult(a, b)}. */
  public static Int16 scale(Int16 a, int b) { return mult(a, b); }

  /** Element-wise {@code Math.min}. */
  public static Int16 min(Int16 a, Int16 b) { return new Int16(Math.min(a.s[0], b.s[0]), Math.min(a.s[1], b.s[1]), Math.min(a.s[2], b.s[2]), Math.min(a.s[3], b.s[3]), Math.min(a.s[4], b.s[4]), Math.min(a.s[5], b.s[5]), Math.min(a.s[6], b.s[6]), Math.min(a.s[7], b.s[7]), Math.min(a.s[8], b.s[8]), Math.min(a.s[9], b.s[9]), Math.min(a.s[10], b.s[10]), Math.min(a.s[11], b.s[11]), Math.min(a.s[12], b.s[12]), Math.min(a.s[13], b.s[13]), Math.min(a.s[14], b.s[14]), Math.min(a.s[15], b.s[15])); }
  /** Element-wise {@code Math.max}. */
  public static Int16 max(Int16 a, Int16 b) { return new Int16(Math.max(a.s[0], b.s[0]), Math.max(a.s[1], b.s[1]), Math.max(a.s[2], b.s[2]), Math.max(a.s[3], b.s[3]), Math.max(a.s[4], b.s[4]), Math.max(a.s[5], b.s[5]), Math.max(a.s[6], b.s[6]), Math.max(a.s[7], b.s[7]), Math.max(a.s[8], b.s[8]), Math.max(a.s[9], b.s[9]), Math.max(a.s[10], b.s[10]), Math.max(a.s[11], b.s[11]), Math.max(a.s[12], b.s[12]), Math.max(a.s[13], b.s[13]), Math.max(a.s[14], b.s[14]), Math.max(a.s[15], b.s[15])); }
  /** The smallest element: {@code Math.min(s0, Math.min(s1, …))}. */
  public static int min(Int16 a) { return Math.min(a.s[0], Math.min(a.s[1], Math.min(a.s[2], Math.min(a.s[3], Math.min(a.s[4], Math.min(a.s[5], Math.min(a.s[6], Math.min(a.s[7], Math.min(a.s[8], Math.min(a.s[9], Math.min(a.s[10], Math.min(a.s[11], Math.min(a.s[12], Math.min(a.s[13], Math.min(a.s[14], a.s[15]))))))))))))))); }
  /** The largest element: {@code Math.max(s0, Math.max(s1, …))}. */
  public static int max(Int16 a) { return Math.max(a.s[0], Math.max(a.s[1], Math.max(a.s[2], Math.max(a.s[3], Math.max(a.s[4], Math.max(a.s[5], Math.max(a.s[6], Math.max(a.s[7], Math.max(a.s[8], Math.max(a.s[9], Math.max(a.s[10], Math.max(a.s[11], Math.max(a.s[12], Math.max(a.s[13], Math.max(a.s[14], a.s[15]))))))))))))))); }

  /** The elements added from the first: {@code ((s0 + s1) + s2) + …}. */
  public static int sum(Int16 a) { return a.s[0] + a.s[1] + a.s[2] + a.s[3] + a.s[4] + a.s[5] + a.s[6] + a.s[7] + a.s[8] + a.s[9] + a.s[10] + a.s[11] + a.s[12] + a.s[13] + a.s[14] + a.s[15]; }
  /** {@code sum(mult(a, b))}. */
  public static int dot(Int16 a, Int16 b) { return sum(mult(a, b)); }

  /** Each element {@code Math.min(Math.max(x, min), max)}. */
  public static Int16 clamp(Int16 a, int min, int max) { return new Int16(Math.min(Math.max(a.s[0], min), max), Math.min(Math.max(a.s[1], min), max), Math.min(Math.max(a.s[2], min), max), Math.min(Math.max(a.s[3], min), max), Math.min(Math.max(a.s[4], min), max), Math.min(Math.max(a.s[5], min), max), Math.min(Math.max(a.s[6], min), max), Math.min(Math.max(a.s[7], min), max), Math.min(Math.max(a.s[8], min), max), Math.min(Math.max(a.s[9], min), max), Math.min(Math.max(a.s[10], min), max), Math.min(Math.max(a.s[11], min), max), Math.min(Math.max(a.s[12], min), max), Math.min(Math.max(a.s[13], min), max), Math.min(Math.max(a.s[14], min), max), Math.min(Math.max(a.s[15], min), max)); }

  /** Whether every element of {@code a} equals that of {@code b} ({@code ==}); on the host only. */
  public static boolean isEqual(Int16 a, Int16 b) {
    for (int k = 0; k < 16; k++) if (a.s[k] != b.s[k]) return false;
    return true;
  }

  /** A new Int8 of elements 0 to 7. */
  public Int8 getLow() {
    return new Int8(get(0), get(1), get(2), get(3), get(4), get(5), get(6), get(7));
  }

  /** A new Int8 of elements 8 to 15. */
  public Int8 getHigh() {
    return new Int8(get(8), get(9), get(10), get(11), get(12), get(13), get(14), get(15));
  }

  /** A copy. */
  public Int16 duplicate() {
    Int16 c = new Int16();
    c.set(this);
    return c;
  }

  /** A copy of the elements. */
  public int[] toArray() {
    return s.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Int16 v && java.util.Arrays.equals(v.s, s);
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
