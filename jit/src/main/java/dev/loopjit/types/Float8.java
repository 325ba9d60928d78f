// 8 floats as one value, as TornadoVM's Float8: usable inside kernels as a value (read it, compute with it, store it).
package dev.loopjit.types;

/**
 * A vector of 8 floats. On the host it is a small mutable object, as in TornadoVM. Inside a kernel
 * it is a value the JIT keeps in 8 registers: kernels may create one (its constructors), read it
 * (getS0()…getS7(), {@code get(k)} with a constant {@code k}), combine it with the
 * static methods below, keep it in locals, and read and write it through {@link VectorFloat8}. Its
 * setters are refused in kernels (a value has no identity there): write {@code v = new Float8(…)} instead.
 * The static methods compute as their Java code reads, element by element, on every device.
 */
public final class Float8 {
  private final float[] s = new float[8];

  /** Every element 0. */
  public Float8() {}

  public Float8(float s0, float s1, float s2, float s3, float s4, float s5, float s6, float s7) {
    s[0] = s0;
    s[1] = s1;
    s[2] = s2;
    s[3] = s3;
    s[4] = s4;
    s[5] = s5;
    s[6] = s6;
    s[7] = s7;
  }

  public float getS0() { return s[0]; }
  public float getS1() { return s[1]; }
  public float getS2() { return s[2]; }
  public float getS3() { return s[3]; }
  public float getS4() { return s[4]; }
  public float getS5() { return s[5]; }
  public float getS6() { return s[6]; }
  public float getS7() { return s[7]; }
  public void setS0(float v) { s[0] = v; }
  public void setS1(float v) { s[1] = v; }
  public void setS2(float v) { s[2] = v; }
  public void setS3(float v) { s[3] = v; }
  public void setS4(float v) { s[4] = v; }
  public void setS5(float v) { s[5] = v; }
  public void setS6(float v) { s[6] = v; }
  public void setS7(float v) { s[7] = v; }

  /** Element {@code k} (0 to 7). */
  public float get(int k) {
    return s[java.util.Objects.checkIndex(k, 8)];
  }

  /** Sets element {@code k} (0 to 7). */
  public void set(int k, float v) {
    s[java.util.Objects.checkIndex(k, 8)] = v;
  }

  /** Copies {@code other}'s elements. */
  public void set(Float8 other) {
    System.arraycopy(other.s, 0, s, 0, 8);
  }

  /** 8. */
  public int size() {
    return 8;
  }

  public static Float8 add(Float8 a, Float8 b) { return new Float8(a.s[0] + b.s[0], a.s[1] + b.s[1], a.s[2] + b.s[2], a.s[3] + b.s[3], a.s[4] + b.s[4], a.s[5] + b.s[5], a.s[6] + b.s[6], a.s[7] + b.s[7]); }
  public static Float8 sub(Float8 a, Float8 b) { return new Float8(a.s[0] - b.s[0], a.s[1] - b.s[1], a.s[2] - b.s[2], a.s[3] - b.s[3], a.s[4] - b.s[4], a.s[5] - b.s[5], a.s[6] - b.s[6], a.s[7] - b.s[7]); }
  public static Float8 mult(Float8 a, Float8 b) { return new Float8(a.s[0] * b.s[0], a.s[1] * b.s[1], a.s[2] * b.s[2], a.s[3] * b.s[3], a.s[4] * b.s[4], a.s[5] * b.s[5], a.s[6] * b.s[6], a.s[7] * b.s[7]); }
  public static Float8 div(Float8 a, Float8 b) { return new Float8(a.s[0] / b.s[0], a.s[1] / b.s[1], a.s[2] / b.s[2], a.s[3] / b.s[3], a.s[4] / b.s[4], a.s[5] / b.s[5], a.s[6] / b.s[6], a.s[7] / b.s[7]); }
  public static Float8 add(Float8 a, float b) { return new Float8(a.s[0] + b, a.s[1] + b, a.s[2] + b, a.s[3] + b, a.s[4] + b, a.s[5] + b, a.s[6] + b, a.s[7] + b); }
  public static Float8 sub(Float8 a, float b) { return new Float8(a.s[0] - b, a.s[1] - b, a.s[2] - b, a.s[3] - b, a.s[4] - b, a.s[5] - b, a.s[6] - b, a.s[7] - b); }
  public static Float8 mult(Float8 a, float b) { return new Float8(a.s[0] * b, a.s[1] * b, a.s[2] * b, a.s[3] * b, a.s[4] * b, a.s[5] * b, a.s[6] * b, a.s[7] * b); }
  public static Float8 div(Float8 a, float b) { return new Float8(a.s[0] / b, a.s[1] / b, a.s[2] / b, a.s[3] / b, a.s[4] / b, a.s[5] / b, a.s[6] / b, a.s[7] / b); }

  /** Each element times the {@code Int8}'s, as Java multiplies a float by an int. */
  public static Float8 mult(Float8 a, Int8 b) { return new Float8(a.s[0] * b.get(0), a.s[1] * b.get(1), a.s[2] * b.get(2), a.s[3] * b.get(3), a.s[4] * b.get(4), a.s[5] * b.get(5), a.s[6] * b.get(6), a.s[7] * b.get(7)); }

  /** {@code add(a, b)}. */
  public static Float8 inc(Float8 a, float b) { return add(a, b); }
  /** {@code sub(a, b)}. */
  public static Float8 dec(Float8 a, float b) { return sub(a, b); }
  /** {@code mult(a, b)}. */
  public static Float8 scale(Float8 a, float b) { return mult(a, b); }
  /** {@code mult(a, 1f / b)}. */
  public static Float8 scaleByInverse(Float8 a, float b) { return mult(a, 1f / b); }

  /** Element-wise {@code Math.min}. */
  public static Float8 min(Float8 a, Float8 b) { return new Float8(Math.min(a.s[0], b.s[0]), Math.min(a.s[1], b.s[1]), Math.min(a.s[2], b.s[2]), Math.min(a.s[3], b.s[3]), Math.min(a.s[4], b.s[4]), Math.min(a.s[5], b.s[5]), Math.min(a.s[6], b.s[6]), Math.min(a.s[7], b.s[7])); }
  /** Element-wise {@code Math.max}. */
  public static Float8 max(Float8 a, Float8 b) { return new Float8(Math.max(a.s[0], b.s[0]), Math.max(a.s[1], b.s[1]), Math.max(a.s[2], b.s[2]), Math.max(a.s[3], b.s[3]), Math.max(a.s[4], b.s[4]), Math.max(a.s[5], b.s[5]), Math.max(a.s[6], b.s[6]), Math.max(a.s[7], b.s[7])); }
  /** The smallest element: {@code Math.min(s0, Math.min(s1, …))}. */
  public static float min(Float8 a) { return Math.min(a.s[0], Math.min(a.s[1], Math.min(a.s[2], Math.min(a.s[3], Math.min(a.s[4], Math.min(a.s[5], Math.min(a.s[6], a.s[7]))))))); }
  /** The largest element: {@code Math.max(s0, Math.max(s1, …))}. */
  public static float max(Float8 a) { return Math.max(a.s[0], Math.max(a.s[1], Math.max(a.s[2], Math.max(a.s[3], Math.max(a.s[4], Math.max(a.s[5], Math.max(a.s[6], a.s[7]))))))); }

  /** The elements added from the first: {@code ((s0 + s1) + s2) + …}. */
  public static float sum(Float8 a) { return a.s[0] + a.s[1] + a.s[2] + a.s[3] + a.s[4] + a.s[5] + a.s[6] + a.s[7]; }
  /** {@code sum(mult(a, b))}. */
  public static float dot(Float8 a, Float8 b) { return sum(mult(a, b)); }

  /** Each element {@code Math.min(Math.max(x, min), max)}. */
  public static Float8 clamp(Float8 a, float min, float max) { return new Float8(Math.min(Math.max(a.s[0], min), max), Math.min(Math.max(a.s[1], min), max), Math.min(Math.max(a.s[2], min), max), Math.min(Math.max(a.s[3], min), max), Math.min(Math.max(a.s[4], min), max), Math.min(Math.max(a.s[5], min), max), Math.min(Math.max(a.s[6], min), max), Math.min(Math.max(a.s[7], min), max)); }

  /** Each element's {@code (float) Math.sqrt}. */
  public static Float8 sqrt(Float8 a) { return new Float8((float) Math.sqrt(a.s[0]), (float) Math.sqrt(a.s[1]), (float) Math.sqrt(a.s[2]), (float) Math.sqrt(a.s[3]), (float) Math.sqrt(a.s[4]), (float) Math.sqrt(a.s[5]), (float) Math.sqrt(a.s[6]), (float) Math.sqrt(a.s[7])); }
  /** Each element's {@code (float) Math.floor}. */
  public static Float8 floor(Float8 a) { return new Float8((float) Math.floor(a.s[0]), (float) Math.floor(a.s[1]), (float) Math.floor(a.s[2]), (float) Math.floor(a.s[3]), (float) Math.floor(a.s[4]), (float) Math.floor(a.s[5]), (float) Math.floor(a.s[6]), (float) Math.floor(a.s[7])); }
  /** Each element less its floor: {@code x - (float) Math.floor(x)}. */
  public static Float8 fract(Float8 a) { return new Float8(a.s[0] - (float) Math.floor(a.s[0]), a.s[1] - (float) Math.floor(a.s[1]), a.s[2] - (float) Math.floor(a.s[2]), a.s[3] - (float) Math.floor(a.s[3]), a.s[4] - (float) Math.floor(a.s[4]), a.s[5] - (float) Math.floor(a.s[5]), a.s[6] - (float) Math.floor(a.s[6]), a.s[7] - (float) Math.floor(a.s[7])); }
  /** {@code (float) Math.sqrt(dot(a, a))}. */
  public static float length(Float8 a) { return (float) Math.sqrt(dot(a, a)); }
  /** {@code mult(a, 1f / length(a))}. */
  public static Float8 normalise(Float8 a) { return mult(a, 1f / length(a)); }

  /** Whether every element of {@code a} equals that of {@code b} ({@code ==}); on the host only. */
  public static boolean isEqual(Float8 a, Float8 b) {
    for (int k = 0; k < 8; k++) if (a.s[k] != b.s[k]) return false;
    return true;
  }

  /** A new Float4 of elements 0 to 3. */
  public Float4 getLow() {
    return new Float4(get(0), get(1), get(2), get(3));
  }

  /** A new Float4 of elements 4 to 7. */
  public Float4 getHigh() {
    return new Float4(get(4), get(5), get(6), get(7));
  }

  /** A copy. */
  public Float8 duplicate() {
    Float8 c = new Float8();
    c.set(this);
    return c;
  }

  /** A copy of the elements. */
  public float[] toArray() {
    return s.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Float8 v && java.util.Arrays.equals(v.s, s);
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
