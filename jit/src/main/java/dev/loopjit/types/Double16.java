// 16 doubles as one value, as TornadoVM's Double16: usable inside kernels as a value (read it, compute with it, store it).
package dev.loopjit.types;

/**
 * A vector of 16 doubles. On the host it is a small mutable object, as in TornadoVM. Inside a kernel
 * it is a value the JIT keeps in 16 registers: kernels may create one (its constructors), read it
 * (getS0()…getS15(), {@code get(k)} with a constant {@code k}), combine it with the
 * static methods below, keep it in locals, and read and write it through {@link VectorDouble16}. Its
 * setters are refused in kernels (a value has no identity there): write {@code v = new Double16(…)} instead.
 * The static methods compute as their Java code reads, element by element, on every device.
 */
public final class Double16 {
  private final double[] s = new double[16];

  /** Every element 0. */
  public Double16() {}

  public Double16(double s0, double s1, double s2, double s3, double s4, double s5, double s6, double s7, double s8, double s9, double s10, double s11, double s12, double s13, double s14, double s15) {
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

  public double getS0() { return s[0]; }
  public double getS1() { return s[1]; }
  public double getS2() { return s[2]; }
  public double getS3() { return s[3]; }
  public double getS4() { return s[4]; }
  public double getS5() { return s[5]; }
  public double getS6() { return s[6]; }
  public double getS7() { return s[7]; }
  public double getS8() { return s[8]; }
  public double getS9() { return s[9]; }
  public double getS10() { return s[10]; }
  public double getS11() { return s[11]; }
  public double getS12() { return s[12]; }
  public double getS13() { return s[13]; }
  public double getS14() { return s[14]; }
  public double getS15() { return s[15]; }
  public void setS0(double v) { s[0] = v; }
  public void setS1(double v) { s[1] = v; }
  public void setS2(double v) { s[2] = v; }
  public void setS3(double v) { s[3] = v; }
  public void setS4(double v) { s[4] = v; }
  public void setS5(double v) { s[5] = v; }
  public void setS6(double v) { s[6] = v; }
  public void setS7(double v) { s[7] = v; }
  public void setS8(double v) { s[8] = v; }
  public void setS9(double v) { s[9] = v; }
  public void setS10(double v) { s[10] = v; }
  public void setS11(double v) { s[11] = v; }
  public void setS12(double v) { s[12] = v; }
  public void setS13(double v) { s[13] = v; }
  public void setS14(double v) { s[14] = v; }
  public void setS15(double v) { s[15] = v; }

  /** Element {@code k} (0 to 15). */
  public double get(int k) {
    return s[java.util.Objects.checkIndex(k, 16)];
  }

  /** Sets element {@code k} (0 to 15). */
  public void set(int k, double v) {
    s[java.util.Objects.checkIndex(k, 16)] = v;
  }

  /** Copies {@code other}'s elements. */
  public void set(Double16 other) {
    System.arraycopy(other.s, 0, s, 0, 16);
  }

  /** 16. */
  public int size() {
    return 16;
  }

  public static Double16 add(Double16 a, Double16 b) { return new Double16(a.s[0] + b.s[0], a.s[1] + b.s[1], a.s[2] + b.s[2], a.s[3] + b.s[3], a.s[4] + b.s[4], a.s[5] + b.s[5], a.s[6] + b.s[6], a.s[7] + b.s[7], a.s[8] + b.s[8], a.s[9] + b.s[9], a.s[10] + b.s[10], a.s[11] + b.s[11], a.s[12] + b.s[12], a.s[13] + b.s[13], a.s[14] + b.s[14], a.s[15] + b.s[15]); }
  public static Double16 sub(Double16 a, Double16 b) { return new Double16(a.s[0] - b.s[0], a.s[1] - b.s[1], a.s[2] - b.s[2], a.s[3] - b.s[3], a.s[4] - b.s[4], a.s[5] - b.s[5], a.s[6] - b.s[6], a.s[7] - b.s[7], a.s[8] - b.s[8], a.s[9] - b.s[9], a.s[10] - b.s[10], a.s[11] - b.s[11], a.s[12] - b.s[12], a.s[13] - b.s[13], a.s[14] - b.s[14], a.s[15] - b.s[15]); }
  public static Double16 mult(Double16 a, Double16 b) { return new Double16(a.s[0] * b.s[0], a.s[1] * b.s[1], a.s[2] * b.s[2], a.s[3] * b.s[3], a.s[4] * b.s[4], a.s[5] * b.s[5], a.s[6] * b.s[6], a.s[7] * b.s[7], a.s[8] * b.s[8], a.s[9] * b.s[9], a.s[10] * b.s[10], a.s[11] * b.s[11], a.s[12] * b.s[12], a.s[13] * b.s[13], a.s[14] * b.s[14], a.s[15] * b.s[15]); }
  public static Double16 div(Double16 a, Double16 b) { return new Double16(a.s[0] / b.s[0], a.s[1] / b.s[1], a.s[2] / b.s[2], a.s[3] / b.s[3], a.s[4] / b.s[4], a.s[5] / b.s[5], a.s[6] / b.s[6], a.s[7] / b.s[7], a.s[8] / b.s[8], a.s[9] / b.s[9], a.s[10] / b.s[10], a.s[11] / b.s[11], a.s[12] / b.s[12], a.s[13] / b.s[13], a.s[14] / b.s[14], a.s[15] / b.s[15]); }
  public static Double16 add(Double16 a, double b) { return new Double16(a.s[0] + b, a.s[1] + b, a.s[2] + b, a.s[3] + b, a.s[4] + b, a.s[5] + b, a.s[6] + b, a.s[7] + b, a.s[8] + b, a.s[9] + b, a.s[10] + b, a.s[11] + b, a.s[12] + b, a.s[13] + b, a.s[14] + b, a.s[15] + b); }
  public static Double16 sub(Double16 a, double b) { return new Double16(a.s[0] - b, a.s[1] - b, a.s[2] - b, a.s[3] - b, a.s[4] - b, a.s[5] - b, a.s[6] - b, a.s[7] - b, a.s[8] - b, a.s[9] - b, a.s[10] - b, a.s[11] - b, a.s[12] - b, a.s[13] - b, a.s[14] - b, a.s[15] - b); }
  public static Double16 mult(Double16 a, double b) { return new Double16(a.s[0] * b, a.s[1] * b, a.s[2] * b, a.s[3] * b, a.s[4] * b, a.s[5] * b, a.s[6] * b, a.s[7] * b, a.s[8] * b, a.s[9] * b, a.s[10] * b, a.s[11] * b, a.s[12] * b, a.s[13] * b, a.s[14] * b, a.s[15] * b); }
  public static Double16 div(Double16 a, double b) { return new Double16(a.s[0] / b, a.s[1] / b, a.s[2] / b, a.s[3] / b, a.s[4] / b, a.s[5] / b, a.s[6] / b, a.s[7] / b, a.s[8] / b, a.s[9] / b, a.s[10] / b, a.s[11] / b, a.s[12] / b, a.s[13] / b, a.s[14] / b, a.s[15] / b); }

  /** {@code add(a, b)}. */
  public static Double16 inc(Double16 a, double b) { return add(a, b); }
  /** {@code sub(a, b)}. */
  public static Double16 dec(Double16 a, double b) { return sub(a, b); }
  /** {@code mult(a, b)}. */
  public static Double16 scale(Double16 a, double b) { return mult(a, b); }
  /** {@code mult(a, 1d / b)}. */
  public static Double16 scaleByInverse(Double16 a, double b) { return mult(a, 1d / b); }

  /** Element-wise {@code Math.min}. */
  public static Double16 min(Double16 a, Double16 b) { return new Double16(Math.min(a.s[0], b.s[0]), Math.min(a.s[1], b.s[1]), Math.min(a.s[2], b.s[2]), Math.min(a.s[3], b.s[3]), Math.min(a.s[4], b.s[4]), Math.min(a.s[5], b.s[5]), Math.min(a.s[6], b.s[6]), Math.min(a.s[7], b.s[7]), Math.min(a.s[8], b.s[8]), Math.min(a.s[9], b.s[9]), Math.min(a.s[10], b.s[10]), Math.min(a.s[11], b.s[11]), Math.min(a.s[12], b.s[12]), Math.min(a.s[13], b.s[13]), Math.min(a.s[14], b.s[14]), Math.min(a.s[15], b.s[15])); }
  /** Element-wise {@code Math.max}. */
  public static Double16 max(Double16 a, Double16 b) { return new Double16(Math.max(a.s[0], b.s[0]), Math.max(a.s[1], b.s[1]), Math.max(a.s[2], b.s[2]), Math.max(a.s[3], b.s[3]), Math.max(a.s[4], b.s[4]), Math.max(a.s[5], b.s[5]), Math.max(a.s[6], b.s[6]), Math.max(a.s[7], b.s[7]), Math.max(a.s[8], b.s[8]), Math.max(a.s[9], b.s[9]), Math.max(a.s[10], b.s[10]), Math.max(a.s[11], b.s[11]), Math.max(a.s[12], b.s[12]), Math.max(a.s[13], b.s[13]), Math.max(a.s[14], b.s[14]), Math.max(a.s[15], b.s[15])); }
  /** The smallest element: {@code Math.min(s0, Math.min(s1, …))}. */
  public static double min(Double16 a) { return Math.min(a.s[0], Math.min(a.s[1], Math.min(a.s[2], Math.min(a.s[3], Math.min(a.s[4], Math.min(a.s[5], Math.min(a.s[6], Math.min(a.s[7], Math.min(a.s[8], Math.min(a.s[9], Math.min(a.s[10], Math.min(a.s[11], Math.min(a.s[12], Math.min(a.s[13], Math.min(a.s[14], a.s[15]))))))))))))))); }
  /** The largest element: {@code Math.max(s0, Math.max(s1, …))}. */
  public static double max(Double16 a) { return Math.max(a.s[0], Math.max(a.s[1], Math.max(a.s[2], Math.max(a.s[3], Math.max(a.s[4], Math.max(a.s[5], Math.max(a.s[6], Math.max(a.s[7], Math.max(a.s[8], Math.max(a.s[9], Math.max(a.s[10], Math.max(a.s[11], Math.max(a.s[12], Math.max(a.s[13], Math.max(a.s[14], a.s[15]))))))))))))))); }

  /** The elements added from the first: {@code ((s0 + s1) + s2) + …}. */
  public static double sum(Double16 a) { return a.s[0] + a.s[1] + a.s[2] + a.s[3] + a.s[4] + a.s[5] + a.s[6] + a.s[7] + a.s[8] + a.s[9] + a.s[10] + a.s[11] + a.s[12] + a.s[13] + a.s[14] + a.s[15]; }
  /** {@code sum(mult(a, b))}. */
  public static double dot(Double16 a, Double16 b) { return sum(mult(a, b)); }

  /** Each element {@code Math.min(Math.max(x, min), max)}. */
  public static Double16 clamp(Double16 a, double min, double max) { return new Double16(Math.min(Math.max(a.s[0], min), max), Math.min(Math.max(a.s[1], min), max), Math.min(Math.max(a.s[2], min), max), Math.min(Math.max(a.s[3], min), max), Math.min(Math.max(a.s[4], min), max), Math.min(Math.max(a.s[5], min), max), Math.min(Math.max(a.s[6], min), max), Math.min(Math.max(a.s[7], min), max), Math.min(Math.max(a.s[8], min), max), Math.min(Math.max(a.s[9], min), max), Math.min(Math.max(a.s[10], min), max), Math.min(Math.max(a.s[11], min), max), Math.min(Math.max(a.s[12], min), max), Math.min(Math.max(a.s[13], min), max), Math.min(Math.max(a.s[14], min), max), Math.min(Math.max(a.s[15], min), max)); }

  /** Each element's {@code Math.sqrt}. */
  public static Double16 sqrt(Double16 a) { return new Double16(Math.sqrt(a.s[0]), Math.sqrt(a.s[1]), Math.sqrt(a.s[2]), Math.sqrt(a.s[3]), Math.sqrt(a.s[4]), Math.sqrt(a.s[5]), Math.sqrt(a.s[6]), Math.sqrt(a.s[7]), Math.sqrt(a.s[8]), Math.sqrt(a.s[9]), Math.sqrt(a.s[10]), Math.sqrt(a.s[11]), Math.sqrt(a.s[12]), Math.sqrt(a.s[13]), Math.sqrt(a.s[14]), Math.sqrt(a.s[15])); }
  /** Each element's {@code Math.floor}. */
  public static Double16 floor(Double16 a) { return new Double16(Math.floor(a.s[0]), Math.floor(a.s[1]), Math.floor(a.s[2]), Math.floor(a.s[3]), Math.floor(a.s[4]), Math.floor(a.s[5]), Math.floor(a.s[6]), Math.floor(a.s[7]), Math.floor(a.s[8]), Math.floor(a.s[9]), Math.floor(a.s[10]), Math.floor(a.s[11]), Math.floor(a.s[12]), Math.floor(a.s[13]), Math.floor(a.s[14]), Math.floor(a.s[15])); }
  /** Each element less its floor: {@code x - Math.floor(x)}. */
  public static Double16 fract(Double16 a) { return new Double16(a.s[0] - Math.floor(a.s[0]), a.s[1] - Math.floor(a.s[1]), a.s[2] - Math.floor(a.s[2]), a.s[3] - Math.floor(a.s[3]), a.s[4] - Math.floor(a.s[4]), a.s[5] - Math.floor(a.s[5]), a.s[6] - Math.floor(a.s[6]), a.s[7] - Math.floor(a.s[7]), a.s[8] - Math.floor(a.s[8]), a.s[9] - Math.floor(a.s[9]), a.s[10] - Math.floor(a.s[10]), a.s[11] - Math.floor(a.s[11]), a.s[12] - Math.floor(a.s[12]), a.s[13] - Math.floor(a.s[13]), a.s[14] - Math.floor(a.s[14]), a.s[15] - Math.floor(a.s[15])); }
  /** {@code Math.sqrt(dot(a, a))}. */
  public static double length(Double16 a) { return Math.sqrt(dot(a, a)); }
  /** {@code mult(a, 1d / length(a))}. */
  public static Double16 normalise(Double16 a) { return mult(a, 1d / length(a)); }

  /** Whether every element of {@code a} equals that of {@code b} ({@code ==}); on the host only. */
  public static boolean isEqual(Double16 a, Double16 b) {
    for (int k = 0; k < 16; k++) if (a.s[k] != b.s[k]) return false;
    return true;
  }

  /** A new Double8 of elements 0 to 7. */
  public Double8 getLow() {
    return new Double8(get(0), get(1), get(2), get(3), get(4), get(5), get(6), get(7));
  }

  /** A new Double8 of elements 8 to 15. */
  public Double8 getHigh() {
    return new Double8(get(8), get(9), get(10), get(11), get(12), get(13), get(14), get(15));
  }

  /** A copy. */
  public Double16 duplicate() {
    Double16 c = new Double16();
    c.set(this);
    return c;
  }

  /** A copy of the elements. */
  public double[] toArray() {
    return s.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Double16 v && java.util.Arrays.equals(v.s, s);
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
