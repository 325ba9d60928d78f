// 4 doubles as one value, as TornadoVM's Double4: usable inside kernels as a value (read it, compute with it, store it).
package dev.loopjit.types;

/**
 * A vector of 4 doubles. On the host it is a small mutable object, as in TornadoVM. Inside a kernel
 * it is a value the JIT keeps in 4 registers: kernels may create one (its constructors), read it
 * (getX()…, getS0()…getS3(), {@code get(k)} with a constant {@code k}), combine it with the
 * static methods below, keep it in locals, and read and write it through {@link VectorDouble4}. Its
 * setters are refused in kernels (a value has no identity there): write {@code v = new Double4(…)} instead.
 * The static methods compute as their Java code reads, element by element, on every device.
 */
public final class Double4 {
  private final double[] s = new double[4];

  /** Every element 0. */
  public Double4() {}

  public Double4(double s0, double s1, double s2, double s3) {
    s[0] = s0;
    s[1] = s1;
    s[2] = s2;
    s[3] = s3;
  }

  public double getX() { return s[0]; }
  public double getY() { return s[1]; }
  public double getZ() { return s[2]; }
  public double getW() { return s[3]; }
  public void setX(double v) { s[0] = v; }
  public void setY(double v) { s[1] = v; }
  public void setZ(double v) { s[2] = v; }
  public void setW(double v) { s[3] = v; }
  public double getS0() { return s[0]; }
  public double getS1() { return s[1]; }
  public double getS2() { return s[2]; }
  public double getS3() { return s[3]; }
  public void setS0(double v) { s[0] = v; }
  public void setS1(double v) { s[1] = v; }
  public void setS2(double v) { s[2] = v; }
  public void setS3(double v) { s[3] = v; }

  /** Element {@code k} (0 to 3). */
  public double get(int k) {
    return s[java.util.Objects.checkIndex(k, 4)];
  }

  /** Sets element {@code k} (0 to 3). */
  public void set(int k, double v) {
    s[java.util.Objects.checkIndex(k, 4)] = v;
  }

  /** Copies {@code other}'s elements. */
  public void set(Double4 other) {
    System.arraycopy(other.s, 0, s, 0, 4);
  }

  /** 4. */
  public int size() {
    return 4;
  }

  public static Double4 add(Double4 a, Double4 b) { return new Double4(a.s[0] + b.s[0], a.s[1] + b.s[1], a.s[2] + b.s[2], a.s[3] + b.s[3]); }
  public static Double4 sub(Double4 a, Double4 b) { return new Double4(a.s[0] - b.s[0], a.s[1] - b.s[1], a.s[2] - b.s[2], a.s[3] - b.s[3]); }
  public static Double4 mult(Double4 a, Double4 b) { return new Double4(a.s[0] * b.s[0], a.s[1] * b.s[1], a.s[2] * b.s[2], a.s[3] * b.s[3]); }
  public static Double4 div(Double4 a, Double4 b) { return new Double4(a.s[0] / b.s[0], a.s[1] / b.s[1], a.s[2] / b.s[2], a.s[3] / b.s[3]); }
  public static Double4 add(Double4 a, double b) { return new Double4(a.s[0] + b, a.s[1] + b, a.s[2] + b, a.s[3] + b); }
  public static Double4 sub(Double4 a, double b) { return new Double4(a.s[0] - b, a.s[1] - b, a.s[2] - b, a.s[3] - b); }
  public static Double4 mult(Double4 a, double b) { return new Double4(a.s[0] * b, a.s[1] * b, a.s[2] * b, a.s[3] * b); }
  public static Double4 div(Double4 a, double b) { return new Double4(a.s[0] / b, a.s[1] / b, a.s[2] / b, a.s[3] / b); }

  /** {@code add(a, b)}. */
  public static Double4 inc(Double4 a, double b) { return add(a, b); }
  /** {@code sub(a, b)}. */
  public static Double4 dec(Double4 a, double b) { return sub(a, b); }
  /** {@code mult(a, b)}. */
  public static Double4 scale(Double4 a, double b) { return mult(a, b); }
  /** {@code mult(a, 1d / b)}. */
  public static Double4 scaleByInverse(Double4 a, double b) { return mult(a, 1d / b); }

  /** Element-wise {@code Math.min}. */
  public static Double4 min(Double4 a, Double4 b) { return new Double4(Math.min(a.s[0], b.s[0]), Math.min(a.s[1], b.s[1]), Math.min(a.s[2], b.s[2]), Math.min(a.s[3], b.s[3])); }
  /** Element-wise {@code Math.max}. */
  public static Double4 max(Double4 a, Double4 b) { return new Double4(Math.max(a.s[0], b.s[0]), Math.max(a.s[1], b.s[1]), Math.max(a.s[2], b.s[2]), Math.max(a.s[3], b.s[3])); }
  /** The smallest element: {@code Math.min(s0, Math.min(s1, …))}. */
  public static double min(Double4 a) { return Math.min(a.s[0], Math.min(a.s[1], Math.min(a.s[2], a.s[3]))); }
  /** The largest element: {@code Math.max(s0, Math.max(s1, …))}. */
  public static double max(Double4 a) { return Math.max(a.s[0], Math.max(a.s[1], Math.max(a.s[2], a.s[3]))); }

  /** The elements added from the first: {@code ((s0 + s1) + s2) + …}. */
  public static double sum(Double4 a) { return a.s[0] + a.s[1] + a.s[2] + a.s[3]; }
  /** {@code sum(mult(a, b))}. */
  public static double dot(Double4 a, Double4 b) { return sum(mult(a, b)); }

  /** Each element {@code Math.min(Math.max(x, min), max)}. */
  public static Double4 clamp(Double4 a, double min, double max) { return new Double4(Math.min(Math.max(a.s[0], min), max), Math.min(Math.max(a.s[1], min), max), Math.min(Math.max(a.s[2], min), max), Math.min(Math.max(a.s[3], min), max)); }

  /** Each element's {@code Math.sqrt}. */
  public static Double4 sqrt(Double4 a) { return new Double4(Math.sqrt(a.s[0]), Math.sqrt(a.s[1]), Math.sqrt(a.s[2]), Math.sqrt(a.s[3])); }
  /** Each element's {@code Math.floor}. */
  public static Double4 floor(Double4 a) { return new Double4(Math.floor(a.s[0]), Math.floor(a.s[1]), Math.floor(a.s[2]), Math.floor(a.s[3])); }
  /** Each element less its floor: {@code x - Math.floor(x)}. */
  public static Double4 fract(Double4 a) { return new Double4(a.s[0] - Math.floor(a.s[0]), a.s[1] - Math.floor(a.s[1]), a.s[2] - Math.floor(a.s[2]), a.s[3] - Math.floor(a.s[3])); }
  /** {@code Math.sqrt(dot(a, a))}. */
  public static double length(Double4 a) { return Math.sqrt(dot(a, a)); }
  /** {@code mult(a, 1d / length(a))}. */
  public static Double4 normalise(Double4 a) { return mult(a, 1d / length(a)); }

  /** Whether every element of {@code a} equals that of {@code b} ({@code ==}); on the host only. */
  public static boolean isEqual(Double4 a, Double4 b) {
    for (int k = 0; k < 4; k++) if (a.s[k] != b.s[k]) return false;
    return true;
  }

  /** A new Double2 of elements 0 to 1. */
  public Double2 asDouble2() {
    return new Double2(get(0), get(1));
  }

  /** A new Double3 of elements 0 to 2. */
  public Double3 asDouble3() {
    return new Double3(get(0), get(1), get(2));
  }

  /** A new Double2 of elements 0 to 1. */
  public Double2 getLow() {
    return new Double2(get(0), get(1));
  }

  /** A new Double2 of elements 2 to 3. */
  public Double2 getHigh() {
    return new Double2(get(2), get(3));
  }

  /** A copy. */
  public Double4 duplicate() {
    Double4 c = new Double4();
    c.set(this);
    return c;
  }

  /** A copy of the elements. */
  public double[] toArray() {
    return s.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Double4 v && java.util.Arrays.equals(v.s, s);
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
