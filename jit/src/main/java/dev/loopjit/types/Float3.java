// 3 floats as one value, as TornadoVM's Float3: usable inside kernels as a value (read it, compute with it, store it).
package dev.loopjit.types;

/**
 * A vector of 3 floats. On the host it is a small mutable object, as in TornadoVM. Inside a kernel
 * it is a value the JIT keeps in 3 registers: kernels may create one (its constructors), read it
 * (getX()…, getS0()…getS2(), {@code get(k)} with a constant {@code k}), combine it with the
 * static methods below, keep it in locals, and read and write it through {@link VectorFloat3}. Its
 * setters are refused in kernels (a value has no identity there): write {@code v = new Float3(…)} instead.
 * The static methods compute as their Java code reads, element by element, on every device.
 */
public final class Float3 {
  private final float[] s = new float[3];

  /** Every element 0. */
  public Float3() {}

  public Float3(float s0, float s1, float s2) {
    s[0] = s0;
    s[1] = s1;
    s[2] = s2;
  }

  public float getX() { return s[0]; }
  public float getY() { return s[1]; }
  public float getZ() { return s[2]; }
  public void setX(float v) { s[0] = v; }
  public void setY(float v) { s[1] = v; }
  public void setZ(float v) { s[2] = v; }
  public float getS0() { return s[0]; }
  public float getS1() { return s[1]; }
  public float getS2() { return s[2]; }
  public void setS0(float v) { s[0] = v; }
  public void setS1(float v) { s[1] = v; }
  public void setS2(float v) { s[2] = v; }

  /** Element {@code k} (0 to 2). */
  public float get(int k) {
    return s[java.util.Objects.checkIndex(k, 3)];
  }

  /** Sets element {@code k} (0 to 2). */
  public void set(int k, float v) {
    s[java.util.Objects.checkIndex(k, 3)] = v;
  }

  /** Copies {@code other}'s elements. */
  public void set(Float3 other) {
    System.arraycopy(other.s, 0, s, 0, 3);
  }

  /** 3. */
  public int size() {
    return 3;
  }

  public static Float3 add(Float3 a, Float3 b) { return new Float3(a.s[0] + b.s[0], a.s[1] + b.s[1], a.s[2] + b.s[2]); }
  public static Float3 sub(Float3 a, Float3 b) { return new Float3(a.s[0] - b.s[0], a.s[1] - b.s[1], a.s[2] - b.s[2]); }
  public static Float3 mult(Float3 a, Float3 b) { return new Float3(a.s[0] * b.s[0], a.s[1] * b.s[1], a.s[2] * b.s[2]); }
  public static Float3 div(Float3 a, Float3 b) { return new Float3(a.s[0] / b.s[0], a.s[1] / b.s[1], a.s[2] / b.s[2]); }
  public static Float3 add(Float3 a, float b) { return new Float3(a.s[0] + b, a.s[1] + b, a.s[2] + b); }
  public static Float3 sub(Float3 a, float b) { return new Float3(a.s[0] - b, a.s[1] - b, a.s[2] - b); }
  public static Float3 mult(Float3 a, float b) { return new Float3(a.s[0] * b, a.s[1] * b, a.s[2] * b); }
  public static Float3 div(Float3 a, float b) { return new Float3(a.s[0] / b, a.s[1] / b, a.s[2] / b); }

  /** Each element times the {@code Int3}'s, as Java multiplies a float by an int. */
  public static Float3 mult(Float3 a, Int3 b) { return new Float3(a.s[0] * b.get(0), a.s[1] * b.get(1), a.s[2] * b.get(2)); }

  /** {@code add(a, b)}. */
  public static Float3 inc(Float3 a, float b) { return add(a, b); }
  /** {@code sub(a, b)}. */
  public static Float3 dec(Float3 a, float b) { return sub(a, b); }
  /** {@code mult(a, b)}. */
  public static Float3 scale(Float3 a, float b) { return mult(a, b); }
  /** {@code mult(a, 1f / b)}. */
  public static Float3 scaleByInverse(Float3 a, float b) { return mult(a, 1f / b); }

  /** Element-wise {@code Math.min}. */
  public static Float3 min(Float3 a, Float3 b) { return new Float3(Math.min(a.s[0], b.s[0]), Math.min(a.s[1], b.s[1]), Math.min(a.s[2], b.s[2])); }
  /** Element-wise {@code Math.max}. */
  public static Float3 max(Float3 a, Float3 b) { return new Float3(Math.max(a.s[0], b.s[0]), Math.max(a.s[1], b.s[1]), Math.max(a.s[2], b.s[2])); }
  /** The smallest element: {@code Math.min(s0, Math.min(s1, …))}. */
  public static float min(Float3 a) { return Math.min(a.s[0], Math.min(a.s[1], a.s[2])); }
  /** The largest element: {@code Math.max(s0, Math.max(s1, …))}. */
  public static float max(Float3 a) { return Math.max(a.s[0], Math.max(a.s[1], a.s[2])); }

  /** The elements added from the first: {@code ((s0 + s1) + s2) + …}. */
  public static float sum(Float3 a) { return a.s[0] + a.s[1] + a.s[2]; }
  /** {@code sum(mult(a, b))}. */
  public static float dot(Float3 a, Float3 b) { return sum(mult(a, b)); }

  /** Each element {@code Math.min(Math.max(x, min), max)}. */
  public static Float3 clamp(Float3 a, float min, float max) { return new Float3(Math.min(Math.max(a.s[0], min), max), Math.min(Math.max(a.s[1], min), max), Math.min(Math.max(a.s[2], min), max)); }
  /** The cross product {@code (y·bz − z·by, z·bx − x·bz, x·by − y·bx)}. */
  public static Float3 cross(Float3 a, Float3 b) {
    return new Float3(a.s[1] * b.s[2] - a.s[2] * b.s[1], a.s[2] * b.s[0] - a.s[0] * b.s[2], a.s[0] * b.s[1] - a.s[1] * b.s[0]);
  }

  /** Each element's {@code (float) Math.sqrt}. */
  public static Float3 sqrt(Float3 a) { return new Float3((float) Math.sqrt(a.s[0]), (float) Math.sqrt(a.s[1]), (float) Math.sqrt(a.s[2])); }
  /** Each element's {@code (float) Math.floor}. */
  public static Float3 floor(Float3 a) { return new Float3((float) Math.floor(a.s[0]), (float) Math.floor(a.s[1]), (float) Math.floor(a.s[2])); }
  /** Each element less its floor: {@code x - (float) Math.floor(x)}. */
  public static Float3 fract(Float3 a) { return new Float3(a.s[0] - (float) Math.floor(a.s[0]), a.s[1] - (float) Math.floor(a.s[1]), a.s[2] - (float) Math.floor(a.s[2])); }
  /** {@code (float) Math.sqrt(dot(a, a))}. */
  public static float length(Float3 a) { return (float) Math.sqrt(dot(a, a)); }
  /** {@code mult(a, 1f / length(a))}. */
  public static Float3 normalise(Float3 a) { return mult(a, 1f / length(a)); }

  /** Whether every element of {@code a} equals that of {@code b} ({@code ==}); on the host only. */
  public static boolean isEqual(Float3 a, Float3 b) {
    for (int k = 0; k < 3; k++) if (a.s[k] != b.s[k]) return false;
    return true;
  }

  /** A new Float2 of elements 0 to 1. */
  public Float2 asFloat2() {
    return new Float2(get(0), get(1));
  }

  /** A copy. */
  public Float3 duplicate() {
    Float3 c = new Float3();
    c.set(this);
    return c;
  }

  /** A copy of the elements. */
  public float[] toArray() {
    return s.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Float3 v && java.util.Arrays.equals(v.s, s);
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
