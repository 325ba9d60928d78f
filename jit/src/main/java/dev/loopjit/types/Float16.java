// 16 floats as one value, as TornadoVM's Float16: usable inside kernels as a value (read it, compute with it, store it).
package dev.loopjit.types;

/**
 * A vector of 16 floats. On the host it is a small mutable object, as in TornadoVM. Inside a kernel
 * it is a value the JIT keeps in 16 registers: kernels may create one (its constructors), read it
 * (getS0()…getS15(), {@code get(k)} with a constant {@code k}), combine it with the
 * static methods below, keep it in locals, and read and write it through {@link VectorFloat16}. Its
 * setters are refused in kernels (a value has no identity there): write {@code v = new Float16(…)} instead.
 * The static methods compute as their Java code reads, element by element, on every device.
 */
public final class Float16 {
  private final float[] s = new float[16];

  /** Every element 0. */
  public Float16() {}

  public Float16(float s0, float s1, float s2, float s3, float s4, float s5, float s6, float s7, float s8, float s9, float s10, float s11, float s12, float s13, float s14, float s15) {
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

  public float getS0() { return s[0]; }
  public float getS1() { return s[1]; }
  public float getS2() { return s[2]; }
  public float getS3() { return s[3]; }
  public float getS4() { return s[4]; }
  public float getS5() { return s[5]; }
  public float getS6() { return s[6]; }
  public float getS7() { return s[7]; }
  public float getS8() { return s[8]; }
  public float getS9() { return s[9]; }
  public float getS10() { return s[10]; }
  public float getS11() { return s[11]; }
  public float getS12() { return s[12]; }
  public float getS13() { return s[13]; }
  public float getS14() { return s[14]; }
  public float getS15() { return s[15]; }
  public void setS0(float v) { s[0] = v; }
  public void setS1(float v) { s[1] = v; }
  public void setS2(float v) { s[2] = v; }
  public void setS3(float v) { s[3] = v; }
  public void setS4(float v) { s[4] = v; }
  public void setS5(float v) { s[5] = v; }
  public void setS6(float v) { s[6] = v; }
  public void setS7(float v) { s[7] = v; }
  public void setS8(float v) { s[8] = v; }
  public void setS9(float v) { s[9] = v; }
  public void setS10(float v) { s[10] = v; }
  public void setS11(float v) { s[11] = v; }
  public void setS12(float v) { s[12] = v; }
  public void setS13(float v) { s[13] = v; }
  public void setS14(float v) { s[14] = v; }
  public void setS15(float v) { s[15] = v; }

  /** Element {@code k} (0 to 15). */
  public float get(int k) {
    return s[java.util.Objects.checkIndex(k, 16)];
  }

  /** Sets element {@code k} (0 to 15). */
  public void set(int k, float v) {
    s[java.util.Objects.checkIndex(k, 16)] = v;
  }

  /** Copies {@code other}'s elements. */
  public void set(Float16 other) {
    System.arraycopy(other.s, 0, s, 0, 16);
  }

  /** 16. */
  public int size() {
    return 16;
  }

  public static Float16 add(Float16 a, Float16 b) { return new Float16(a.s[0] + b.s[0], a.s[1] + b.s[1], a.s[2] + b.s[2], a.s[3] + b.s[3], a.s[4] + b.s[4], a.s[5] + b.s[5], a.s[6] + b.s[6], a.s[7] + b.s[7], a.s[8] + b.s[8], a.s[9] + b.s[9], a.s[10] + b.s[10], a.s[11] + b.s[11], a.s[12] + b.s[12], a.s[13] + b.s[13], a.s[14] + b.s[14], a.s[15] + b.s[15]); }
  public static Float16 sub(Float16 a, Float16 b) { return new Float16(a.s[0] - b.s[0], a.s[1] - b.s[1], a.s[2] - b.s[2], a.s[3] - b.s[3], a.s[4] - b.s[4], a.s[5] - b.s[5], a.s[6] - b.s[6], a.s[7] - b.s[7], a.s[8] - b.s[8], a.s[9] - b.s[9], a.s[10] - b.s[10], a.s[11] - b.s[11], a.s[12] - b.s[12], a.s[13] - b.s[13], a.s[14] - b.s[14], a.s[15] - b.s[15]); }
  public static Float16 mult(Float16 a, Float16 b) { return new Float16(a.s[0] * b.s[0], a.s[1] * b.s[1], a.s[2] * b.s[2], a.s[3] * b.s[3], a.s[4] * b.s[4], a.s[5] * b.s[5], a.s[6] * b.s[6], a.s[7] * b.s[7], a.s[8] * b.s[8], a.s[9] * b.s[9], a.s[10] * b.s[10], a.s[11] * b.s[11], a.s[12] * b.s[12], a.s[13] * b.s[13], a.s[14] * b.s[14], a.s[15] * b.s[15]); }
  public static Float16 div(Float16 a, Float16 b) { return new Float16(a.s[0] / b.s[0], a.s[1] / b.s[1], a.s[2] / b.s[2], a.s[3] / b.s[3], a.s[4] / b.s[4], a.s[5] / b.s[5], a.s[6] / b.s[6], a.s[7] / b.s[7], a.s[8] / b.s[8], a.s[9] / b.s[9], a.s[10] / b.s[10], a.s[11] / b.s[11], a.s[12] / b.s[12], a.s[13] / b.s[13], a.s[14] / b.s[14], a.s[15] / b.s[15]); }
  public static Float16 add(Float16 a, float b) { return new Float16(a.s[0] + b, a.s[1] + b, a.s[2] + b, a.s[3] + b, a.s[4] + b, a.s[5] + b, a.s[6] + b, a.s[7] + b, a.s[8] + b, a.s[9] + b, a.s[10] + b, a.s[11] + b, a.s[12] + b, a.s[13] + b, a.s[14] + b, a.s[15] + b); }
  public static Float16 sub(Float16 a, float b) { return new Float16(a.s[0] - b, a.s[1] - b, a.s[2] - b, a.s[3] - b, a.s[4] - b, a.s[5] - b, a.s[6] - b, a.s[7] - b, a.s[8] - b, a.s[9] - b, a.s[10] - b, a.s[11] - b, a.s[12] - b, a.s[13] - b, a.s[14] - b, a.s[15] - b); }
  public static Float16 mult(Float16 a, float b) { return new Float16(a.s[0] * b, a.s[1] * b, a.s[2] * b, a.s[3] * b, a.s[4] * b, a.s[5] * b, a.s[6] * b, a.s[7] * b, a.s[8] * b, a.s[9] * b, a.s[10] * b, a.s[11] * b, a.s[12] * b, a.s[13] * b, a.s[14] * b, a.s[15] * b); }
  public static Float16 div(Float16 a, float b) { return new Float16(a.s[0] / b, a.s[1] / b, a.s[2] / b, a.s[3] / b, a.s[4] / b, a.s[5] / b, a.s[6] / b, a.s[7] / b, a.s[8] / b, a.s[9] / b, a.s[10] / b, a.s[11] / b, a.s[12] / b, a.s[13] / b, a.s[14] / b, a.s[15] / b); }

  /** Each element times the {@code Int16}'s, as Java multiplies a float by an int. */
  public static Float16 mult(Float16 a, Int16 b) { return new Float16(a.s[0] * b.get(0), a.s[1] * b.get(1), a.s[2] * b.get(2), a.s[3] * b.get(3), a.s[4] * b.get(4), a.s[5] * b.get(5), a.s[6] * b.get(6), a.s[7] * b.get(7), a.s[8] * b.get(8), a.s[9] * b.get(9), a.s[10] * b.get(10), a.s[11] * b.get(11), a.s[12] * b.get(12), a.s[13] * b.get(13), a.s[14] * b.get(14), a.s[15] * b.get(15)); }

  /** {@code add(a, b)}. */
  public static Float16 inc(Float16 a, float b) { return add(a, b); }
  /** {@code sub(a, b)}. */
  public static Float16 dec(Float16 a, float b) { return sub(a, b); }
  /** {@code mult(a, b)}. */
  public static Float16 scale(Float16 a, float b) { return mult(a, b); }
  /** {@code mult(a, 1f / b)}. */
  public static Float16 scaleByInverse(Float16 a, float b) { return mult(a, 1f / b); }

  /** Element-wise {@code Math.min}. */
  public static Float16 min(Float16 a, Float16 b) { return new Float16(Math.min(a.s[0], b.s[0]), Math.min(a.s[1], b.s[1]), Math.min(a.s[2], b.s[2]), Math.min(a.s[3], b.s[3]), Math.min(a.s[4], b.s[4]), Math.min(a.s[5], b.s[5]), Math.min(a.s[6], b.s[6]), Math.min(a.s[7], b.s[7]), Math.min(a.s[8], b.s[8]), Math.min(a.s[9], b.s[9]), Math.min(a.s[10], b.s[10]), Math.min(a.s[11], b.s[11]), Math.min(a.s[12], b.s[12]), Math.min(a.s[13], b.s[13]), Math.min(a.s[14], b.s[14]), Math.min(a.s[15], b.s[15])); }
  /** Element-wise {@code Math.max}. */
  public static Float16 max(Float16 a, Float16 b) { return new Float16(Math.max(a.s[0], b.s[0]), Math.max(a.s[1], b.s[1]), Math.max(a.s[2], b.s[2]), Math.max(a.s[3], b.s[3]), Math.max(a.s[4], b.s[4]), Math.max(a.s[5], b.s[5]), Math.max(a.s[6], b.s[6]), Math.max(a.s[7], b.s[7]), Math.max(a.s[8], b.s[8]), Math.max(a.s[9], b.s[9]), Math.max(a.s[10], b.s[10]), Math.max(a.s[11], b.s[11]), Math.max(a.s[12], b.s[12]), Math.max(a.s[13], b.s[13]), Math.max(a.s[14], b.s[14]), Math.max(a.s[15], b.s[15])); }
  /** The smallest element: {@code Math.min(s0, Math.min(s1, …))}. */
  public static float min(Float16 a) { return Math.min(a.s[0], Math.min(a.s[1], Math.min(a.s[2], Math.min(a.s[3], Math.min(a.s[4], Math.min(a.s[5], Math.min(a.s[6], Math.min(a.s[7], Math.min(a.s[8], Math.min(a.s[9], Math.min(a.s[10], Math.min(a.s[11], Math.min(a.s[12], Math.min(a.s[13], Math.min(a.s[14], a.s[15]))))))))))))))); }
  /** The largest element: {@code Math.max(s0, Math.max(s1, …))}. */
  public static float max(Float16 a) { return Math.max(a.s[0], Math.max(a.s[1], Math.max(a.s[2], Math.max(a.s[3], Math.max(a.s[4], Math.max(a.s[5], Math.max(a.s[6], Math.max(a.s[7], Math.max(a.s[8], Math.max(a.s[9], Math.max(a.s[10], Math.max(a.s[11], Math.max(a.s[12], Math.max(a.s[13], Math.max(a.s[14], a.s[15]))))))))))))))); }

  /** The elements added from the first: {@code ((s0 + s1) + s2) + …}. */
  public static float sum(Float16 a) { return a.s[0] + a.s[1] + a.s[2] + a.s[3] + a.s[4] + a.s[5] + a.s[6] + a.s[7] + a.s[8] + a.s[9] + a.s[10] + a.s[11] + a.s[12] + a.s[13] + a.s[14] + a.s[15]; }
  /** {@code sum(mult(a, b))}. */
  public static float dot(Float16 a, Float16 b) { return sum(mult(a, b)); }

  /** Each element {@code Math.min(Math.max(x, min), max)}. */
  public static Float16 clamp(Float16 a, float min, float max) { return new Float16(Math.min(Math.max(a.s[0], min), max), Math.min(Math.max(a.s[1], min), max), Math.min(Math.max(a.s[2], min), max), Math.min(Math.max(a.s[3], min), max), Math.min(Math.max(a.s[4], min), max), Math.min(Math.max(a.s[5], min), max), Math.min(Math.max(a.s[6], min), max), Math.min(Math.max(a.s[7], min), max), Math.min(Math.max(a.s[8], min), max), Math.min(Math.max(a.s[9], min), max), Math.min(Math.max(a.s[10], min), max), Math.min(Math.max(a.s[11], min), max), Math.min(Math.max(a.s[12], min), max), Math.min(Math.max(a.s[13], min), max), Math.min(Math.max(a.s[14], min), max), Math.min(Math.max(a.s[15], min), max)); }

  /** Each element's {@code (float) Math.sqrt}. */
  public static Float16 sqrt(Float16 a) { return new Float16((float) Math.sqrt(a.s[0]), (float) Math.sqrt(a.s[1]), (float) Math.sqrt(a.s[2]), (float) Math.sqrt(a.s[3]), (float) Math.sqrt(a.s[4]), (float) Math.sqrt(a.s[5]), (float) Math.sqrt(a.s[6]), (float) Math.sqrt(a.s[7]), (float) Math.sqrt(a.s[8]), (float) Math.sqrt(a.s[9]), (float) Math.sqrt(a.s[10]), (float) Math.sqrt(a.s[11]), (float) Math.sqrt(a.s[12]), (float) Math.sqrt(a.s[13]), (float) Math.sqrt(a.s[14]), (float) Math.sqrt(a.s[15])); }
  /** Each element's {@code (float) Math.floor}. */
  public static Float16 floor(Float16 a) { return new Float16((float) Math.floor(a.s[0]), (float) Math.floor(a.s[1]), (float) Math.floor(a.s[2]), (float) Math.floor(a.s[3]), (float) Math.floor(a.s[4]), (float) Math.floor(a.s[5]), (float) Math.floor(a.s[6]), (float) Math.floor(a.s[7]), (float) Math.floor(a.s[8]), (float) Math.floor(a.s[9]), (float) Math.floor(a.s[10]), (float) Math.floor(a.s[11]), (float) Math.floor(a.s[12]), (float) Math.floor(a.s[13]), (float) Math.floor(a.s[14]), (float) Math.floor(a.s[15])); }
  /** Each element less its floor: {@code x - (float) Math.floor(x)}. */
  public static Float16 fract(Float16 a) { return new Float16(a.s[0] - (float) Math.floor(a.s[0]), a.s[1] - (float) Math.floor(a.s[1]), a.s[2] - (float) Math.floor(a.s[2]), a.s[3] - (float) Math.floor(a.s[3]), a.s[4] - (float) Math.floor(a.s[4]), a.s[5] - (float) Math.floor(a.s[5]), a.s[6] - (float) Math.floor(a.s[6]), a.s[7] - (float) Math.floor(a.s[7]), a.s[8] - (float) Math.floor(a.s[8]), a.s[9] - (float) Math.floor(a.s[9]), a.s[10] - (float) Math.floor(a.s[10]), a.s[11] - (float) Math.floor(a.s[11]), a.s[12] - (float) Math.floor(a.s[12]), a.s[13] - (float) Math.floor(a.s[13]), a.s[14] - (float) Math.floor(a.s[14]), a.s[15] - (float) Math.floor(a.s[15])); }
  /** {@code (float) Math.sqrt(dot(a, a))}. */
  public static float length(Float16 a) { return (float) Math.sqrt(dot(a, a)); }
  /** {@code mult(a, 1f / length(a))}. */
  public static Float16 normalise(Float16 a) { return mult(a, 1f / length(a)); }

  /** Whether every element of {@code a} equals that of {@code b} ({@code ==}); on the host only. */
  public static boolean isEqual(Float16 a, Float16 b) {
    for (int k = 0; k < 16; k++) if (a.s[k] != b.s[k]) return false;
    return true;
  }

  /** A new Float8 of elements 0 to 7. */
  public Float8 getLow() {
    return new Float8(get(0), get(1), get(2), get(3), get(4), get(5), get(6), get(7));
  }

  /** A new Float8 of elements 8 to 15. */
  public Float8 getHigh() {
    return new Float8(get(8), get(9), get(10), get(11), get(12), get(13), get(14), get(15));
  }

  /** A copy. */
  public Float16 duplicate() {
    Float16 c = new Float16();
    c.set(this);
    return c;
  }

  /** A copy of the elements. */
  public float[] toArray() {
    return s.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Float16 v && java.util.Arrays.equals(v.s, s);
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
