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
