// 2 doubles as one value, as TornadoVM's Double2: usable inside kernels as a value (read it, compute with it, store it).
package dev.loopjit.types;

/**
 * A vector of 2 doubles. On the host it is a small mutable object, as in TornadoVM. Inside a kernel
 * it is a value the JIT keeps in 2 registers: kernels may create one (its constructors), read it
 * (getX()…, getS0()…getS1(), {@code get(k)} with a constant {@code k}), combine it with the
 * static methods below, keep it in locals, and read and write it through {@link VectorDouble2}. Its
 * setters are refused in kernels (a value has no identity there): write {@code v = new Double2(…)} instead.
 * The static methods compute as their Java code reads, element by element, on every device.
 */
public final class Double2 {
  private final double[] s = new double[2];

  /** Every element 0. */
  public Double2() {}

  public Double2(double s0, double s1) {
    s[0] = s0;
    s[1] = s1;
  }

  public double getX() { return s[0]; }
  public double getY() { return s[1]; }
  public void setX(double v) { s[0] = v; }
  public void setY(double v) { s[1] = v; }
  public double getS0() { return s[0]; }
  public double getS1() { return s[1]; }
  public void setS0(double v) { s[0] = v; }
  public void setS1(double v) { s[1] = v; }

  /** Element {@code k} (0 to 1). */
  public double get(int k) {
    return s[java.util.Objects.checkIndex(k, 2)];
  }

  /** Sets element {@code k} (0 to 1). */
  public void set(int k, double v) {
    s[java.util.Objects.checkIndex(k, 2)] = v;
  }

  /** Copies {@code other}'s elements. */
  public void set(Double2 other) {
    System.arraycopy(other.s, 0, s, 0, 2);
  }

  /** 2. */
  public int size() {
    return 2;
  }

  public static Double2 add(Double2 a, Double2 b) { return new Double2(a.s[0] + b.s[0], a.s[1] + b.s[1]); }
  public static Double2 sub(Double2 a, Double2 b) { return new Double2(a.s[0] - b.s[0], a.s[1] - b.s[1]); }
  public static Double2 mult(Double2 a, Double2 b) { return new Double2(a.s[0] * b.s[0], a.s[1] * b.s[1]); }
  public static Double2 div(Double2 a, Double2 b) { return new Double2(a.s[0] / b.s[0], a.s[1] / b.s[1]); }
  public static Double2 add(Double2 a, double b) { return new Double2(a.s[0] + b, a.s[1] + b); }
  public static Double2 sub(Double2 a, double b) { return new Double2(a.s[0] - b, a.s[1] - b); }
  public static Double2 mult(Double2 a, double b) { return new Double2(a.s[0] * b, a.s[1] * b); }
  public static Double2 div(Double2 a, double b) { return new Double2(a.s[0] / b, a.s[1] / b); }

  /** {@code add(a, b)}. */
  public static Double2 inc(Double2 a, double b) { return add(a, b); }
  /** {@code sub(a, b)}. */
  public static Double2 dec(Double2 a, double b) { return sub(a, b); }
  /** {@code mult(a, b)}. */
  public static Double2 scale(Double2 a, double b) { return mult(a, b); }
  /** {@code mult(a, 1d / b)}. */
  public static Double2 scaleByInverse(Double2 a, double b) { return mult(a, 1d / b); }

  /** Element-wise {@code Math.min}. */
  public static Double2 min(Double2 a, Double2 b) { return new Double2(Math.min(a.s[0], b.s[0]), Math.min(a.s[1], b.s[1])); }
  /** Element-wise {@code Math.max}. */
  public static Double2 max(Double2 a, Double2 b) { return new Double2(Math.max(a.s[0], b.s[0]), Math.max(a.s[1], b.s[1])); }
  /** The smallest element: {@code Math.min(s0, Math.min(s1, …))}. */
  public static double min(Double2 a) { return Math.min(a.s[0], a.s[1]); }
  /** The largest element: {@code Math.max(s0, Math.max(s1, …))}. */
  public static double max(Double2 a) { return Math.max(a.s[0], a.s[1]); }

  /** The elements added from the first: {@code ((s0 + s1) + s2) + …}. */
  public static double sum(Double2 a) { return a.s[0] + a.s[1]; }
  /** {@code sum(mult(a, b))}. */
  public static double dot(Double2 a, Double2 b) { return sum(mult(a, b)); }

  /** Each element {@code Math.min(Math.max(x, min), max)}. */
  public static Double2 clamp(Double2 a, double min, double max) { return new Double2(Math.min(Math.max(a.s[0], min), max), Math.min(Math.max(a.s[1], min), max)); }

  /** Each element's {@code Math.sqrt}. */
  public static Double2 sqrt(Double2 a) { return new Double2(Math.sqrt(a.s[0]), Math.sqrt(a.s[1])); }
  /** Each element's {@code Math.floor}. */
  public static Double2 floor(Double2 a) { return new Double2(Math.floor(a.s[0]), Math.floor(a.s[1])); }
  /** Each element less its floor: {@code x - Math.floor(x)}. */
  public static Double2 fract(Double2 a) { return new Double2(a.s[0] - Math.floor(a.s[0]), a.s[1] - Math.floor(a.s[1])); }
  /** {@code Math.sqrt(dot(a, a))}. */
  public static double length(Double2 a) { return Math.sqrt(dot(a, a)); }
  /** {@code mult(a, 1d / length(a))}. */
  public static Double2 normalise(Double2 a) { return mult(a, 1d / length(a)); }

  /** Whether every element of {@code a} equals that of {@code b} ({@code ==}); on the host only. */
  public static boolean isEqual(Double2 a, Double2 b) {
    for (int k = 0; k < 2; k++) if (a.s[k] != b.s[k]) return false;
    return true;
  }

  /** A copy. */
  public Double2 duplicate() {
    Double2 c = new Double2();
    c.set(this);
    return c;
  }

  /** A copy of the elements. */
  public double[] toArray() {
    return s.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Double2 v && java.util.Arrays.equals(v.s, s);
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
