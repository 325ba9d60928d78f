// A vector of floats over off-heap memory, as TornadoVM's VectorFloat: get(i) in a kernel is storage[i].
package dev.loopjit.types;

/**
 * A vector of {@code float} in one {@link FloatArray}. Inside a kernel {@code get(i)},
 * {@code set(i, v)}, {@code size()} and {@code getLength()} compile to the storage's accesses.
 *
 * <pre>{@code
 * static void axpy(float a, VectorFloat x, VectorFloat y) {
 *   for (@Parallel int i = 0; i < y.size(); i++) y.set(i, a * x.get(i) + y.get(i));
 * }
 * }</pre>
 */
public final class VectorFloat implements NativeCollection {
  private final FloatArray storage;

  /** A zeroed vector of {@code length} elements. */
  public VectorFloat(int length) {
    this(new FloatArray(length));
  }

  /** A vector over {@code storage}. */
  public VectorFloat(FloatArray storage) {
    this.storage = storage;
  }

  /** A vector over {@code storage}, which must hold {@code length} elements. */
  public VectorFloat(int length, FloatArray storage) {
    this(storage);
    if (storage.getSize() != length) throw new IllegalArgumentException("a vector of " + length + " over an array of " + storage.getSize());
  }

  /** Element {@code i}. */
  public float get(int i) {
    return storage.get(i);
  }

  /** Sets element {@code i}. */
  public void set(int i, float value) {
    storage.set(i, value);
  }

  /** Copies {@code values} into the first elements. */
  public void set(float[] values) {
    for (int i = 0; i < values.length; i++) storage.set(i, values[i]);
  }

  /** Copies {@code other}'s elements into the first elements. */
  public void set(VectorFloat other) {
    for (int i = 0; i < other.size(); i++) storage.set(i, other.get(i));
  }

  /** Elements. */
  public int size() {
    return storage.getSize();
  }

  /** Elements (TornadoVM names both). */
  public int getLength() {
    return storage.getSize();
  }

  @Override
  public FloatArray getArray() {
    return storage;
  }

  /** Sets every element to {@code value}. */
  public void fill(float value) {
    storage.init(value);
  }

  /** A new vector of {@code length} elements from {@code start}. */
  public VectorFloat subVector(int start, int length) {
    VectorFloat v = new VectorFloat(length);
    for (int i = 0; i < length; i++) v.set(i, get(start + i));
    return v;
  }

  /** A copy. */
  public VectorFloat duplicate() {
    return subVector(0, size());
  }

  /** The smallest element ({@code Math.min} from {@code Float.MAX_VALUE}). */
  public static float min(VectorFloat v) {
    float r = Float.MAX_VALUE;
    for (int i = 0; i < v.size(); i++) r = Math.min(r, v.get(i));
    return r;
  }

  /** The largest element ({@code Math.max} from {@code -Float.MAX_VALUE}). */
  public static float max(VectorFloat v) {
    float r = -Float.MAX_VALUE;
    for (int i = 0; i < v.size(); i++) r = Math.max(r, v.get(i));
    return r;
  }

  /** The dot product, summed from element 0. */
  public static float dot(VectorFloat a, VectorFloat b) {
    float s = 0;
    for (int i = 0; i < a.size(); i++) s += a.get(i) * b.get(i);
    return s;
  }

  @Override
  public VectorFloat withArray(NativeArray storage) {
    return new VectorFloat((FloatArray) storage);
  }

  @Override
  public String toString() {
    return "VectorFloat <" + size() + "> " + storage;
  }
}
