// 8 doubles as one value, as TornadoVM's Double8: usable inside kernels as a value (read it, compute with it, store it).
package dev.loopjit.types;

/**
 * A vector of 8 doubles. On the host it is a small mutable object, as in TornadoVM. Inside a kernel
 * it is a value the JIT keeps in 8 registers: kernels may create one (its constructors), read it
 * (getS0()…getS7(), {@code get(k)} with a constant {@code k}), combine it with the
 * static methods below, keep it in locals, and read and write it through {@link VectorDouble8}. Its
 * setters are refused in kernels (a value has no identity there): write {@code v = new Double8(…)} instead.
 * The static methods compute as their Java code reads, element by element, on every device.
 */
public final class Double8 {
  private final double[] s = new double[8];

  /** Every element 0. */
  public Double8() {}

  public Double8(double s0, double s1, double s2, double s3, double s4, double s5, double s6, double s7) {
    s[0] = s0;
    s[1] = s1;
    s[2] = s2;
    s[3] = s3;
    s[4] = s4;
    s[5] = s5;
    s[6] = s6;
    s[7] = s7;
  }

  public double getS0() { return s[0]; }
  public double getS1() { return s[1]; }
  public double getS2() { return s[2]; }
  public double getS3() { return s[3]; }
  public double getS4() { return s[4]; }
  public double getS5() { return s[5]; }
  public double getS6() { return s[6]; }
  public double getS7() { return s[7]; }
  public void setS0(double v) { s[0] = v; }
  public void setS1(double v) { s[1] = v; }
  public void setS2(double v) { s[2] = v; }
  public void setS3(double v) { s[3] = v; }
  public void setS4(double v) { s[4] = v; }
  public void setS5(double v) { s[5] = v; }
  public void setS6(double v) { s[6] = v; }
  public void setS7(double v) { s[7] = v; }

  /** Element {@code k} (0 to 7). */
  public double get(int k) {
    return s[java.util.Objects.checkIndex(k, 8)];
  }

  /** Sets element {@code k} (0 to 7). */
  public void set(int k, double v) {
    s[java.util.Objects.checkIndex(k, 8)] = v;
  }

  /** Copies {@code other}'s elements. */
  public void set(Double8 other) {
    System.arraycopy(other.s, 0, s, 0, 8);
  }

  /** 8. */
  public int size() {
    return 8;
  }

  public static Double8 add(Double8 a, Double8 b) { return new Double8(a.s[0] + b.s[0], a.s[1] + b.s[1], a.s[2] + b.s[2], a.s[3] + b.s[3], a.s[4] + b.s[4], a.s[5] + b.s[5], a.s[6] + b.s[6], a.s[7] + b.s[7]); }
  public static Double8 sub(Double8 a, Double8 b) { return new Double8(a.s[0] - b.s[0], a.s[1] - b.s[1], a.s[2] - b.s[2], a.s[3] - b.s[3], a.s[4] - b.s[4], a.s[5] - b.s[5], a.s[6] - b.s[6], a.s[7] - b.s[7]); }
  public static Double8 mult(Double8 a, Double8 b) { return new Double8(a.s[0] * b.s[0], a.s[1] * b.s[1], a.s[2] * b.s[2], a.s[3] * b.s[3], a.s[4] * b.s[4], a.s[5] * b.s[5], a.s[6] * b.s[6], a.s[7] * b.s[7]); }
  public static Double8 div(Double8 a, Double8 b) { return new Double8(a.s[0] / b.s[0], a.s[1] / b.s[1], a.s[2] / b.s[2], a.s[3] / b.s[3], a.s[4] / b.s[4], a.s[5] / b.s[5], a.s[6] / b.s[6], a.s[7] / b.s[7]); }
  public static Double8 add(Double8 a, double b) { return new Double8(a.s[0] + b, a.s[1] + b, a.s[2] + b, a.s[3] + b, a.s[4] + b, a.s[5] + b, a.s[6] + b, a.s[7] + b); }
  public static Double8 sub(Double8 a, double b) { return new Double8(a.s[0] - b, a.s[1] - b, a.s[2] - b, a.s[3] - b, a.s[4] - b, a.s[5] - b, a.s[6] - b, a.s[7] - b); }
  public static Double8 mult(Double8 a, double b) { return new Double8(a.s[0] * b, a.s[1] * b, a.s[2] * b, a.s[3] * b, a.s[4] * b, a.s[5] * b, a.s[6] * b, a.s[7] * b); }
  public static Double8 div(Double8 a, double b) { return new Double8(a.s[0] / b, a.s[1] / b, a.s[2] / b, a.s[3] / b, a.s[4] / b, a.s[5] / b, a.s[6] / b, a.s[7] / b); }

  /** {@code add(a, b)}. */
  public static Double8 inc(Double8 a, double b) { return add(a, b); }
  /** {@code sub(a, b)}. */
  public static Double8 dec(Double8 a, double b) { return sub(a, b); }
  /** {@code mult(a, b)}. */
  public static Double8 scale(Double8 a, double b) { return mult(a, b); }
  /** {@code mult(a, 1d / b)}. */
  public static Double8 scaleByInverse(Double8 a, double b) { return mult(a, 1d / b); }

  /** Element-wise {@code Math.min}. */
  public static Double8 min(Double8 a, Double8 b) { return new Double8(Math.min(a.s[0], b.s[0]), Math.min(a.s[1], b.s[1]), Math.min(a.s[2], b.s[2]), Math.min(a.s[3], b.s[3]), Math.min(a.s[4], b.s[4]), Math.min(a.s[5], b.s[5]), Math.min(a.s[6], b.s[6]), Math.min(a.s[7], b.s[7])); }
  /** Element-wise {@code Math.max}. */
  public static Double8 max(Double8 a, Double8 b) { return new Double8(Math.max(a.s[0], b.s[0]), Math.max(a.s[1], b.s[1]), Math.max(a.s[2], b.s[2]), Math.max(a.s[3], b.s[3]), Math.max(a.s[4], b.s[4]), Math.max(a.s[5], b.s[5]), Math.max(a.s[6], b.s[6]), Math.max(a.s[7], b.s[7])); }
  /** The smallest element: {@code Math.min(s0, Math.min(s1, …))}. */
  public static double min(Double8 a) { return Math.min(a.s[0], Math.min(a.s[1], Math.min(a.s[2], Math.min(a.s[3], Math.min(a.s[4], Math.min(a.s[5], Math.min(a.s[6], a.s[7]))))))); }
  /** The largest element: {@code Math.max(s0, Math.max(s1, …))}. */
  public static double max(Double8 a) { return Math.max(a.s[0], Math.max(a.s[1], Math.max(a.s[2], Math.max(a.s[3], Math.max(a.s[4], Math.max(a.s[5], Math.max(a.s[6], a.s[7]))))))); }

  /** The elements added from the first: {@code ((s0 + s1) + s2) + …}. */
  public static double sum(Double8 a) { return a.s[0] + a.s[1] + a.s[2] + a.s[3] + a.s[4] + a.s[5] + a.s[6] + a.s[7]; }
  /** {@code sum(mult(a, b))}. */
  public static double dot(Double8 a, Double8 b) { return sum(mult(a, b)); }

  /** Each element {@code Math.min(Math.max(x, min), max)}. */
  public static Double8 clamp(Double8 a, double min, double max) { return new Double8(Math.min(Math.max(a.s[0], min), max), Math.min(Math.max(a.s[1], min), max), Math.min(Math.max(a.s[2], min), max), Math.min(Math.max(a.s[3], min), max), Math.min(Math.max(a.s[4], min), max), Math.min(Math.max(a.s[5], min), max), Math.min(Math.max(a.s[6], min), max), Math.min(Math.max(a.s[7], min), max)); }

  /** Each element's {@code Math.sqrt}. */
  public static Double8 sqrt(Double8 a) { return new Double8(Math.sqrt(a.s[0]), Math.sqrt(a.s[1]), Math.sqrt(a.s[2]), Math.sqrt(a.s[3]), Math.sqrt(a.s[4]), Math.sqrt(a.s[5]), Math.sqrt(a.s[6]), Math.sqrt(a.s[7])); }
  /** Each element's {@code Math.floor}. */
  public static Double8 floor(Double8 a) { return new Double8(Math.floor(a.s[0]), Math.floor(a.s[1]), Math.floor(a.s[2]), Math.floor(a.s[3]), Math.floor(a.s[4]), Math.floor(a.s[5]), Math.floor(a.s[6]), Math.floor(a.s[7])); }
  /** Each element less its floor: {@code x - Math.floor(x)}. */
  public static Double8 fract(Double8 a) { return new Double8(a.s[0] - Math.floor(a.s[0]), a.s[1] - Math.floor(a.s[1]), a.s[2] - Math.floor(a.s[2]), a.s[3] - Math.floor(a.s[3]), a.s[4] - Math.floor(a.s[4]), a.s[5] - Math.floor(a.s[5]), a.s[6] - Math.floor(a.s[6]), a.s[7] - Math.floor(a.s[7])); }
  /** {@code Math.sqrt(dot(a, a))}. */
  public static double length(Double8 a) { return Math.sqrt(dot(a, a)); }
  /** {@code mult(a, 1d / length(a))}. */
  public static Double8 normalise(Double8 a) { return mult(a, 1d / length(a)); }

  /** Whether every element of {@code a} equals that of {@code b} ({@code ==}); on the host only. */
  public static boolean isEqual(Double8 a, Double8 b) {
    for (int k = 0; k < 8; k++) if (a.s[k] != b.s[k]) return false;
    return true;
  }

  /** A new Double4 of elements 0 to 3. */
  public Double4 getLow() {
    return new Double4(get(0), get(1), get(2), get(3));
  }

  /** A new Double4 of elements 4 to 7. */
  public Double4 getHigh() {
    return new Double4(get(4), get(5), get(6), get(7));
  }

  /** A copy. */
  public Double8 duplicate() {
    Double8 c = new Double8();
    c.set(this);
    return c;
  }

  /** A copy of the elements. */
  public double[] toArray() {
    return s.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Double8 v && java.util.Arrays.equals(v.s, s);
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
