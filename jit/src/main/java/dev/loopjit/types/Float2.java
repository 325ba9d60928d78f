// 2 floats as one value, as TornadoVM's Float2: usable inside kernels as a value (read it, compute with it, store it).
package dev.loopjit.types;

/**
 * A vector of 2 floats. On the host it is a small mutable object, as in TornadoVM. Inside a kernel
 * it is a value the JIT keeps in 2 registers: kernels may create one (its constructors), read it
 * (getX()…, getS0()…getS1(), {@code get(k)} with a constant {@code k}), combine it with the
 * static methods below, keep it in locals, and read and write it through {@link VectorFloat2}. Its
 * setters are refused in kernels (a value has no identity there): write {@code v = new Float2(…)} instead.
 * The static methods compute as their Java code reads, element by element, on every device.
 */
public final class Float2 {
  private final float[] s = new float[2];

  /** Every element 0. */
  public Float2() {}

  public Float2(float s0, float s1) {
    s[0] = s0;
    s[1] = s1;
  }

  public float getX() { return s[0]; }
  public float getY() { return s[1]; }
  public void setX(float v) { s[0] = v; }
  public void setY(float v) { s[1] = v; }
  public float getS0() { return s[0]; }
  public float getS1() { return s[1]; }
  public void setS0(float v) { s[0] = v; }
  public void setS1(float v) { s[1] = v; }

  /** Element {@code k} (0 to 1). */
  public float get(int k) {
    return s[java.util.Objects.checkIndex(k, 2)];
  }

  /** Sets element {@code k} (0 to 1). */
  public void set(int k, float v) {
    s[java.util.Objects.checkIndex(k, 2)] = v;
  }

  /** Copies {@code other}'s elements. */
  public void set(Float2 other) {
    System.arraycopy(other.s, 0, s, 0, 2);
  }

  /** 2. */
  public int size() {
    return 2;
  }

  public static Float2 add(Float2 a, Float2 b) { return new Float2(a.s[0] + b.s[0], a.s[1] + b.s[1]); }
  public static Float2 sub(Float2 a, Float2 b) { return new Float2(a.s[0] - b.s[0], a.s[1] - b.s[1]); }
  public static Float2 mult(Float2 a, Float2 b) { return new Float2(a.s[0] * b.s[0], a.s[1] * b.s[1]); }
  public static Float2 div(Float2 a, Float2 b) { return new Float2(a.s[0] / b.s[0], a.s[1] / b.s[1]); }
  public static Float2 add(Float2 a, float b) { return new Float2(a.s[0] + b, a.s[1] + b); }
  public static Float2 sub(Float2 a, float b) { return new Float2(a.s[0] - b, a.s[1] - b); }
  public static Float2 mult(Float2 a, float b) { return new Float2(a.s[0] * b, a.s[1] * b); }
  public static Float2 div(Float2 a, float b) { return new Float2(a.s[0] / b, a.s[1] / b); }

  /** Each element times the {@code Int2}'s, as Java multiplies a float by an int. */
  public static Float2 mult(Float2 a, Int2 b) { return new Float2(a.s[0] * b.get(0), a.s[1] * b.get(1)); }

  /** {@code add(a, b)}. */
  public static Float2 inc(Float2 a, float b) { return add(a, b); }
  /** {@code sub(a, b)}. */
  public static Float2 dec(Float2 a, float b) { return sub(a, b); }
  /** {@code mult(a, b)}. */
  public static Float2 scale(Float2 a, float b) { return mult(a, b); }
  /** {@code mult(a, 1f / b)}. */
  public static Float2 scaleByInverse(Float2 a, float b) { return mult(a, 1f / b); }

  /** Element-wise {@code Math.min}. */
  public static Float2 min(Float2 a, Float2 b) { return new Float2(Math.min(a.s[0], b.s[0]), Math.min(a.s[1], b.s[1])); }
  /** Element-wise {@code Math.max}. */
  public static Float2 max(Float2 a, Float2 b) { return new Float2(Math.max(a.s[0], b.s[0]), Math.max(a.s[1], b.s[1])); }
  /** The smallest element: {@code Math.min(s0, Math.min(s1, …))}. */
  public static float min(Float2 a) { return Math.min(a.s[0], a.s[1]); }
  /** The largest element: {@code Math.max(s0, Math.max(s1, …))}. */
  public static float max(Float2 a) { return Math.max(a.s[0], a.s[1]); }

  /** The elements added from the first: {@code ((s0 + s1) + s2) + …}. */
  public static float sum(Float2 a) { return a.s[0] + a.s[1]; }
  /** {@code sum(mult(a, b))}. */
  public static float dot(Float2 a, Float2 b) { return sum(mult(a, b)); }

  /** Each element {@code Math.min(Math.max(x, min), max)}. */
  public static Float2 clamp(Float2 a, float min, float max) { return new Float2(Math.min(Math.max(a.s[0], min), max), Math.min(Math.max(a.s[1], min), max)); }

  /** Each element's {@code (float) Math.sqrt}. */
  public static Float2 sqrt(Float2 a) { return new Float2((float) Math.sqrt(a.s[0]), (float) Math.sqrt(a.s[1])); }
  /** Each element's {@code (float) Math.floor}. */
  public static Float2 floor(Float2 a) { return new Float2((float) Math.floor(a.s[0]), (float) Math.floor(a.s[1])); }
  /** Each element less its floor: {@code x - (float) Math.floor(x)}. */
  public static Float2 fract(Float2 a) { return new Float2(a.s[0] - (float) Math.floor(a.s[0]), a.s[1] - (float) Math.floor(a.s[1])); }
  /** {@code (float) Math.sqrt(dot(a, a))}. */
  public static float length(Float2 a) { return (float) Math.sqrt(dot(a, a)); }
  /** {@code mult(a, 1f / length(a))}. */
  public static Float2 normalise(Float2 a) { return mult(a, 1f / length(a)); }

  /** Whether every element of {@code a} equals that of {@code b} ({@code ==}); on the host only. */
  public static boolean isEqual(Float2 a, Float2 b) {
    for (int k = 0; k < 2; k++) if (a.s[k] != b.s[k]) return false;
    return true;
  }

  /** A copy. */
  public Float2 duplicate() {
    Float2 c = new Float2();
    c.set(this);
    return c;
  }

  /** A copy of the elements. */
  public float[] toArray() {
    return s.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Float2 v && java.util.Arrays.equals(v.s, s);
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
