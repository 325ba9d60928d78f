// Four floats as one value, as TornadoVM's Float4: usable inside kernels as a value (read it, compute with it, store it).
package dev.loopjit.types;

/**
 * A vector of four floats {@code (x, y, z, w)}. On the host it is a small mutable object, as in
 * TornadoVM. Inside a kernel it is a value the JIT keeps in four registers: kernels may create one
 * ({@code new Float4(x, y, z, w)}, {@code new Float4()}), read it ({@code getX()}…{@code getW()},
 * {@code get(k)} with a constant {@code k}), combine it with the static methods below, keep it in
 * locals, and read and write it through {@link VectorFloat4}. Its setters are refused in kernels
 * (a value has no identity there, so a write through one variable could not reach another that
 * holds the same object on the JVM): write {@code v = new Float4(…)} instead.
 */
public final class Float4 {
  private float x, y, z, w;

  /** (0, 0, 0, 0). */
  public Float4() {}

  public Float4(float x, float y, float z, float w) {
    this.x = x;
    this.y = y;
    this.z = z;
    this.w = w;
  }

  public float getX() { return x; }
  public float getY() { return y; }
  public float getZ() { return z; }
  public float getW() { return w; }
  public void setX(float v) { x = v; }
  public void setY(float v) { y = v; }
  public void setZ(float v) { z = v; }
  public void setW(float v) { w = v; }

  /** Element {@code k} (0 to 3: x, y, z, w). */
  public float get(int k) {
    return switch (k) {
      case 0 -> x;
      case 1 -> y;
      case 2 -> z;
      case 3 -> w;
      default -> throw new IndexOutOfBoundsException("Float4 element " + k);
    };
  }

  /** Sets element {@code k} (0 to 3). */
  public void set(int k, float v) {
    switch (k) {
      case 0 -> x = v;
      case 1 -> y = v;
      case 2 -> z = v;
      case 3 -> w = v;
      default -> throw new IndexOutOfBoundsException("Float4 element " + k);
    }
  }

  /** Copies {@code other}'s elements. */
  public void set(Float4 other) {
    x = other.x;
    y = other.y;
    z = other.z;
    w = other.w;
  }

  public static Float4 add(Float4 a, Float4 b) { return new Float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); }
  public static Float4 sub(Float4 a, Float4 b) { return new Float4(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w); }
  public static Float4 mult(Float4 a, Float4 b) { return new Float4(a.x * b.x, a.y * b.y, a.z * b.z, a.w * b.w); }
  public static Float4 div(Float4 a, Float4 b) { return new Float4(a.x / b.x, a.y / b.y, a.z / b.z, a.w / b.w); }
  public static Float4 add(Float4 a, float b) { return new Float4(a.x + b, a.y + b, a.z + b, a.w + b); }
  public static Float4 sub(Float4 a, float b) { return new Float4(a.x - b, a.y - b, a.z - b, a.w - b); }
  public static Float4 mult(Float4 a, float b) { return new Float4(a.x * b, a.y * b, a.z * b, a.w * b); }
  public static Float4 div(Float4 a, float b) { return new Float4(a.x / b, a.y / b, a.z / b, a.w / b); }

  /** Element-wise {@code Math.min}. */
  public static Float4 min(Float4 a, Float4 b) {
    return new Float4(Math.min(a.x, b.x), Math.min(a.y, b.y), Math.min(a.z, b.z), Math.min(a.w, b.w));
  }

  /** Element-wise {@code Math.max}. */
  public static Float4 max(Float4 a, Float4 b) {
    return new Float4(Math.max(a.x, b.x), Math.max(a.y, b.y), Math.max(a.z, b.z), Math.max(a.w, b.w));
  }

  /** {@code ((x + y) + z) + w}. */
  public static float sum(Float4 a) {
    return a.x + a.y + a.z + a.w;
  }

  /** {@code sum(mult(a, b))}. */
  public static float dot(Float4 a, Float4 b) {
    return sum(mult(a, b));
  }

  public float getS0() { return x; }
  public float getS1() { return y; }
  public float getS2() { return z; }
  public float getS3() { return w; }
  public void setS0(float v) { x = v; }
  public void setS1(float v) { y = v; }
  public void setS2(float v) { z = v; }
  public void setS3(float v) { w = v; }

  /** 4. */
  public int size() {
    return 4;
  }

  /** Each element times the {@code Int4}'s, as Java multiplies a float by an int. */
  public static Float4 mult(Float4 a, Int4 b) { return new Float4(a.x * b.get(0), a.y * b.get(1), a.z * b.get(2), a.w * b.get(3)); }

  /** {@code add(a, b)}. */
  public static Float4 inc(Float4 a, float b) { return add(a, b); }
  /** {@code sub(a, b)}. */
  public static Float4 dec(Float4 a, float b) { return sub(a, b); }
  /** {@code mult(a, b)}. */
  public static Float4 scale(Float4 a, float b) { return mult(a, b); }
  /** {@code mult(a, 1f / b)}. */
  public static Float4 scaleByInverse(Float4 a, float b) { return mult(a, 1f / b); }

  /** The smallest element: {@code Math.min(x, Math.min(y, Math.min(z, w)))}. */
  public static float min(Float4 a) { return Math.min(a.x, Math.min(a.y, Math.min(a.z, a.w))); }
  /** The largest element: {@code Math.max(x, Math.max(y, Math.max(z, w)))}. */
  public static float max(Float4 a) { return Math.max(a.x, Math.max(a.y, Math.max(a.z, a.w))); }

  /** Each element {@code Math.min(Math.max(x, min), max)}. */
  public static Float4 clamp(Float4 a, float min, float max) {
    return new Float4(Math.min(Math.max(a.x, min), max), Math.min(Math.max(a.y, min), max), Math.min(Math.max(a.z, min), max),
        Math.min(Math.max(a.w, min), max));
  }

  /** Each element's {@code (float) Math.sqrt}. */
  public static Float4 sqrt(Float4 a) {
    return new Float4((float) Math.sqrt(a.x), (float) Math.sqrt(a.y), (float) Math.sqrt(a.z), (float) Math.sqrt(a.w));
  }

  /** Each element's {@code (float) Math.floor}. */
  public static Float4 floor(Float4 a) {
    return new Float4((float) Math.floor(a.x), (float) Math.floor(a.y), (float) Math.floor(a.z), (float) Math.floor(a.w));
  }

  /** Each element less its floor: {@code x - (float) Math.floor(x)}. */
  public static Float4 fract(Float4 a) {
    return new Float4(a.x - (float) Math.floor(a.x), a.y - (float) Math.floor(a.y), a.z - (float) Math.floor(a.z), a.w - (float) Math.floor(a.w));
  }

  /** {@code (float) Math.sqrt(dot(a, a))}. */
  public static float length(Float4 a) { return (float) Math.sqrt(dot(a, a)); }
  /** {@code mult(a, 1f / length(a))}. */
  public static Float4 normalise(Float4 a) { return mult(a, 1f / length(a)); }

  /** Whether every element of {@code a} equals that of {@code b} ({@code ==}); on the host only. */
  public static boolean isEqual(Float4 a, Float4 b) {
    return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w;
  }

  /** A copy of the elements. */
  public float[] toArray() {
    return new float[] {x, y, z, w};
  }

  /** A new Float2 of elements 0 to 1. */
  public Float2 asFloat2() {
    return new Float2(get(0), get(1));
  }

  /** A new Float3 of elements 0 to 2. */
  public Float3 asFloat3() {
    return new Float3(get(0), get(1), get(2));
  }

  /** A new Float2 of elements 0 to 1. */
  public Float2 getLow() {
    return new Float2(get(0), get(1));
  }

  /** A new Float2 of elements 2 to 3. */
  public Float2 getHigh() {
    return new Float2(get(2), get(3));
  }

  /** A copy. */
  public Float4 duplicate() {
    return new Float4(x, y, z, w);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Float4 f && Float.compare(f.x, x) == 0 && Float.compare(f.y, y) == 0 && Float.compare(f.z, z) == 0
        && Float.compare(f.w, w) == 0;
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(x, y, z, w);
  }

  @Override
  public String toString() {
    return "[" + x + ", " + y + ", " + z + ", " + w + "]";
  }
}
