// 3 doubles as one value, as TornadoVM's Double3: usable inside kernels as a value (read it, compute with it, store it).
package dev.loopjit.types;

/**
 * A vector of 3 doubles. On the host it is a small mutable object, as in TornadoVM. Inside a kernel
 * it is a value the JIT keeps in 3 registers: kernels may create one (its constructors), read it
 * (getX()…, getS0()…getS2(), {@code get(k)} with a constant {@code k}), combine it with the
 * static methods below, keep it in locals, and read and write it through {@link VectorDouble3}. Its
 * setters are refused in kernels (a value has no identity there): write {@code v = new Double3(…)} instead.
 * The static methods compute as their Java code reads, element by element, on every device.
 */
public final class Double3 {
  private final double[] s = new double[3];

  /** Every element 0. */
  public Double3() {}

  public Double3(double s0, double s1, double s2) {
    s[0] = s0;
    s[1] = s1;
    s[2] = s2;
  }

  public double getX() { return s[0]; }
  public double getY() { return s[1]; }
  public double getZ() { return s[2]; }
  public void setX(double v) { s[0] = v; }
  public void setY(double v) { s[1] = v; }
  public void setZ(double v) { s[2] = v; }
  public double getS0() { return s[0]; }
  public double getS1() { return s[1]; }
  public double getS2() { return s[2]; }
  public void setS0(double v) { s[0] = v; }
  public void setS1(double v) { s[1] = v; }
  public void setS2(double v) { s[2] = v; }

  /** Element {@code k} (0 to 2). */
  public double get(int k) {
    return s[java.util.Objects.checkIndex(k, 3)];
  }

  /** Sets element {@code k} (0 to 2). */
  public void set(int k, double v) {
    s[java.util.Objects.checkIndex(k, 3)] = v;
  }

  /** Copies {@code other}'s elements. */
  public void set(Double3 other) {
    System.arraycopy(other.s, 0, s, 0, 3);
  }

  /** 3. */
  public int size() {
    return 3;
  }

  public static Double3 add(Double3 a, Double3 b) { return new Double3(a.s[0] + b.s[0], a.s[1] + b.s[1], a.s[2] + b.s[2]); }
  public static Double3 sub(Double3 a, Double3 b) { return new Double3(a.s[0] - b.s[0], a.s[1] - b.s[1], a.s[2] - b.s[2]); }
  public static Double3 mult(Double3 a, Double3 b) { return new Double3(a.s[0] * b.s[0], a.s[1] * b.s[1], a.s[2] * b.s[2]); }
  public static Double3 div(Double3 a, Double3 b) { return new Double3(a.s[0] / b.s[0], a.s[1] / b.s[1], a.s[2] / b.s[2]); }
  public static Double3 add(Double3 a, double b) { return new Double3(a.s[0] + b, a.s[1] + b, a.s[2] + b); }
  public static Double3 sub(Double3 a, double b) { return new Double3(a.s[0] - b, a.s[1] - b, a.s[2] - b); }
  public static Double3 mult(Double3 a, double b) { return new Double3(a.s[0] * b, a.s[1] * b, a.s[2] * b); }
  public static Double3 div(Double3 a, double b) { return new Double3(a.s[0] / b, a.s[1] / b, a.s[2] / b); }

  /** {@code add(a, b)}. */
  public static Double3 inc(Double3 a, double b) { return add(a, b); }
  /** {@code sub(a, b)}. */
  public static Double3 dec(Double3 a, double b) { return sub(a, b); }
  /** {@code mult(a, b)}. */
  public static Double3 scale(Double3 a, double b) { return mult(a, b); }
  /** {@code mult(a, 1d / b)}. */
  public static Double3 scaleByInverse(Double3 a, double b) { return mult(a, 1d / b); }

  /** Element-wise {@code Math.min}. */
  public static Double3 min(Double3 a, Double3 b) { return new Double3(Math.min(a.s[0], b.s[0]), Math.min(a.s[1], b.s[1]), Math.min(a.s[2], b.s[2])); }
  /** Element-wise {@code Math.max}. */
  public static Double3 max(Double3 a, Double3 b) { return new Double3(Math.max(a.s[0], b.s[0]), Math.max(a.s[1], b.s[1]), Math.max(a.s[2], b.s[2])); }
  /** The smallest element: {@code Math.min(s0, Math.min(s1, …))}. */
  public static double min(Double3 a) { return Math.min(a.s[0], Math.min(a.s[1], a.s[2])); }
  /** The largest element: {@code Math.max(s0, Math.max(s1, …))}. */
  public static double max(Double3 a) { return Math.max(a.s[0], Math.max(a.s[1], a.s[2])); }

  /** The elements added from the first: {@code ((s0 + s1) + s2) + …}. */
  public static double sum(Double3 a) { return a.s[0] + a.s[1] + a.s[2]; }
  /** {@code sum(mult(a, b))}. */
  public static double dot(Double3 a, Double3 b) { return sum(mult(a, b)); }

  /** Each element {@code Math.min(Math.max(x, min), max)}. */
  public static Double3 clamp(Double3 a, double min, double max) { return new Double3(Math.min(Math.max(a.s[0], min), max), Math.min(Math.max(a.s[1], min), max), Math.min(Math.max(a.s[2], min), max)); }
  /** The cross product {@code (y·bz − z·by, z·bx − x·bz, x·by − y·bx)}. */
  public static Double3 cross(Double3 a, Double3 b) {
    return new Double3(a.s[1] * b.s[2] - a.s[2] * b.s[1], a.s[2] * b.s[0] - a.s[0] * b.s[2], a.s[0] * b.s[1] - a.s[1] * b.s[0]);
  }

  /** Each element's {@code Math.sqrt}. */
  public static Double3 sqrt(Double3 a) { return new Double3(Math.sqrt(a.s[0]), Math.sqrt(a.s[1]), Math.sqrt(a.s[2])); }
  /** Each element's {@code Math.floor}. */
  public static Double3 floor(Double3 a) { return new Double3(Math.floor(a.s[0]), Math.floor(a.s[1]), Math.floor(a.s[2])); }
  /** Each element less its floor: {@code x - Math.floor(x)}. */
  public static Double3 fract(Double3 a) { return new Double3(a.s[0] - Math.floor(a.s[0]), a.s[1] - Math.floor(a.s[1]), a.s[2] - Math.floor(a.s[2])); }
  /** {@code Math.sqrt(dot(a, a))}. */
  public static double length(Double3 a) { return Math.sqrt(dot(a, a)); }
  /** {@code mult(a, 1d / length(a))}. */
  public static Double3 normalise(Double3 a) { return mult(a, 1d / length(a)); }

  /** Whether every element of {@code a} equals that of {@code b} ({@code ==}); on the host only. */
  public static boolean isEqual(Double3 a, Double3 b) {
    for (int k = 0; k < 3; k++) if (a.s[k] != b.s[k]) return false;
    return true;
  }

  /** A new Double2 of elements 0 to 1. */
  public Double2 asDouble2() {
    return new Double2(get(0), get(1));
  }

  /** A copy. */
  public Double3 duplicate() {
    Double3 c = new Double3();
    c.set(this);
    return c;
  }

  /** A copy of the elements. */
  public double[] toArray() {
    return s.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Double3 v && java.util.Arrays.equals(v.s, s);
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
