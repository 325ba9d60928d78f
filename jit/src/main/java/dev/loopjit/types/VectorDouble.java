// A vector of doubles over off-heap memory, as TornadoVM's VectorDouble: get(i) in a kernel is storage[i].
package dev.loopjit.types;

/**
 * A vector of {@code double} in one {@link DoubleArray}. Inside a kernel {@code get(i)},
 * {@code set(i, v)}, {@code size()} and {@code getLength()} compile to the storage's accesses.
 *
 * <pre>{@code
 * static void axpy(double a, VectorDouble x, VectorDouble y) {
 *   for (@Parallel int i = 0; i < y.size(); i++) y.set(i, a * x.get(i) + y.get(i));
 * }
 * }</pre>
 */
public final class VectorDouble implements NativeCollection {
  private final DoubleArray storage;

  /** A zeroed vector of {@code length} elements. */
  public VectorDouble(int length) {
    this(new DoubleArray(length));
  }

  /** A vector over {@code storage}. */
  public VectorDouble(DoubleArray storage) {
    this.storage = storage;
  }

  /** A vector over {@code storage}, which must hold {@code length} elements. */
  public VectorDouble(int length, DoubleArray storage) {
    this(storage);
    if (storage.getSize() != length) throw new IllegalArgumentException("a vector of " + length + " over an array of " + storage.getSize());
  }

  /** Element {@code i}. */
  public double get(int i) {
    return storage.get(i);
  }

  /** Sets element {@code i}. */
  public void set(int i, double value) {
    storage.set(i, value);
  }

  /** Copies {@code values} into the first elements. */
  public void set(double[] values) {
    for (int i = 0; i < values.length; i++) storage.set(i, values[i]);
  }

  /** Copies {@code other}'s elements into the first elements. */
  public void set(VectorDouble other) {
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
  public DoubleArray getArray() {
    return storage;
  }

  /** Sets every element to {@code value}. */
  public void fill(double value) {
    storage.init(value);
  }

  /** A new vector of {@code length} elements from {@code start}. */
  public VectorDouble subVector(int start, int length) {
    VectorDouble v = new VectorDouble(length);
    for (int i = 0; i < length; i++) v.set(i, get(start + i));
    return v;
  }

  /** A copy. */
  public VectorDouble duplicate() {
    return subVector(0, size());
  }

  /** The smallest element ({@code Math.min} from {@code Double.MAX_VALUE}). */
  public static double min(VectorDouble v) {
    double r = Double.MAX_VALUE;
    for (int i = 0; i < v.size(); i++) r = Math.min(r, v.get(i));
    return r;
  }

  /** The largest element ({@code Math.max} from {@code -Double.MAX_VALUE}). */
  public static double max(VectorDouble v) {
    double r = -Double.MAX_VALUE;
    for (int i = 0; i < v.size(); i++) r = Math.max(r, v.get(i));
    return r;
  }

  /** The dot product, summed from element 0. */
  public static double dot(VectorDouble a, VectorDouble b) {
    double s = 0;
    for (int i = 0; i < a.size(); i++) s += a.get(i) * b.get(i);
    return s;
  }

  @Override
  public VectorDouble withArray(NativeArray storage) {
    return new VectorDouble((DoubleArray) storage);
  }

  @Override
  public String toString() {
    return "VectorDouble <" + size() + "> " + storage;
  }
}
