// 2 ints as one value, as TornadoVM's Int2: usable inside kernels as a value (read it, compute with it, store it).
package dev.loopjit.types;

/**
 * A vector of 2 ints. On the host it is a small mutable object, as in TornadoVM. Inside a kernel
 * it is a value the JIT keeps in 2 registers: kernels may create one (its constructors), read it
 * (getX()…, getS0()…getS1(), {@code get(k)} with a constant {@code k}), combine it with the
 * static methods below, keep it in locals, and read and write it through {@link VectorInt2}. Its
 * setters are refused in kernels (a value has no identity there): write {@code v = new Int2(…)} instead.
 * The static methods compute as their Java code reads, element by element, on every device.
 */
public final class Int2 {
  private final int[] s = new int[2];

  /** Every element 0. */
  public Int2() {}

  public Int2(int s0, int s1) {
    s[0] = s0;
    s[1] = s1;
  }

  public int getX() { return s[0]; }
  public int getY() { return s[1]; }
  public void setX(int v) { s[0] = v; }
  public void setY(int v) { s[1] = v; }
  public int getS0() { return s[0]; }
  public int getS1() { return s[1]; }
  public void setS0(int v) { s[0] = v; }
  public void setS1(int v) { s[1] = v; }

  /** Element {@code k} (0 to 1). */
  public int get(int k) {
    return s[java.util.Objects.checkIndex(k, 2)];
  }

  /** Sets element {@code k} (0 to 1). */
  public void set(int k, int v) {
    s[java.util.Objects.checkIndex(k, 2)] = v;
  }

  /** Copies {@code other}'s elements. */
  public void set(Int2 other) {
    System.arraycopy(other.s, 0, s, 0, 2);
  }

  /** 2. */
  public int size() {
    return 2;
  }

  public static Int2 add(Int2 a, Int2 b) { return new Int2(a.s[0] + b.s[0], a.s[1] + b.s[1]); }
  public static Int2 sub(Int2 a, Int2 b) { return new Int2(a.s[0] - b.s[0], a.s[1] - b.s[1]); }
  public static Int2 mult(Int2 a, Int2 b) { return new Int2(a.s[0] * b.s[0], a.s[1] * b.s[1]); }
  public static Int2 div(Int2 a, Int2 b) { return new Int2(a.s[0] / b.s[0], a.s[1] / b.s[1]); }
  public static Int2 add(Int2 a, int b) { return new Int2(a.s[0] + b, a.s[1] + b); }
  public static Int2 sub(Int2 a, int b) { return new Int2(a.s[0] - b, a.s[1] - b); }
  public static Int2 mult(Int2 a, int b) { return new Int2(a.s[0] * b, a.s[1] * b); }
  public static Int2 div(Int2 a, int b) { return new Int2(a.s[0] / b, a.s[1] / b); }

  /** {@code add(a, b)}. */
  public static Int2 inc(Int2 a, int b) { return add(a, b); }
  /** {@code sub(a, b)}. */
  public static Int2 dec(Int2 a, int b) { return sub(a, b); }
  /** {@code mult(a, b)}. */
  public static Int2 scale(Int2 a, int b) { return mult(a, b); }

  /** Element-wise {@code Math.min}. */
  public static Int2 min(Int2 a, Int2 b) { return new Int2(Math.min(a.s[0], b.s[0]), Math.min(a.s[1], b.s[1])); }
  /** Element-wise {@code Math.max}. */
  public static Int2 max(Int2 a, Int2 b) { return new Int2(Math.max(a.s[0], b.s[0]), Math.max(a.s[1], b.s[1])); }
  /** The smallest element: {@code Math.min(s0, Math.min(s1, …))}. */
  public static int min(Int2 a) { return Math.min(a.s[0], a.s[1]); }
  /** The largest element: {@code Math.max(s0, Math.max(s1, …))}. */
  public static int max(Int2 a) { return Math.max(a.s[0], a.s[1]); }

  /** The elements added from the first: {@code ((s0 + s1) + s2) + …}. */
  public static int sum(Int2 a) { return a.s[0] + a.s[1]; }
  /** {@code sum(mult(a, b))}. */
  public static int dot(Int2 a, Int2 b) { return sum(mult(a, b)); }

  /** Each element {@code Math.min(Math.max(x, min), max)}. */
  public static Int2 clamp(Int2 a, int min, int max) { return new Int2(Math.min(Math.max(a.s[0], min), max), Math.min(Math.max(a.s[1], min), max)); }

  /** Whether every element of {@code a} equals that of {@code b} ({@code ==}); on the host only. */
  public static boolean isEqual(Int2 a, Int2 b) {
    for (int k = 0; k < 2; k++) if (a.s[k] != b.s[k]) return false;
    return true;
  }

  /** A copy. */
  public Int2 duplicate() {
    Int2 c = new Int2();
    c.set(this);
    return c;
  }

  /** A copy of the elements. */
  public int[] toArray() {
    return s.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Int2 v && java.util.Arrays.equals(v.s, s);
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
