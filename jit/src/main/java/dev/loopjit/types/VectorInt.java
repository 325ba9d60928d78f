// A vector of ints over off-heap memory, as TornadoVM's VectorInt: get(i) in a kernel is storage[i].
package dev.loopjit.types;

/**
 * A vector of {@code int} in one {@link IntArray}. Inside a kernel {@code get(i)},
 * {@code set(i, v)}, {@code size()} and {@code getLength()} compile to the storage's accesses.
 *
 * <pre>{@code
 * static void axpy(int a, VectorInt x, VectorInt y) {
 *   for (@Parallel int i = 0; i < y.size(); i++) y.set(i, a * x.get(i) + y.get(i));
 * }
 * }</pre>
 */
public final class VectorInt implements NativeCollection {
  private final IntArray storage;

  /** A zeroed vector of {@code length} elements. */
  public VectorInt(int length) {
    this(new IntArray(length));
  }

  /** A vector over {@code storage}. */
  public VectorInt(IntArray storage) {
    this.storage = storage;
  }

  /** A vector over {@code storage}, which must hold {@code length} elements. */
  public VectorInt(int length, IntArray storage) {
    this(storage);
    if (storage.getSize() != length) throw new IllegalArgumentException("a vector of " + length + " over an array of " + storage.getSize());
  }

  /** Element {@code i}. */
  public int get(int i) {
    return storage.get(i);
  }

  /** Sets element {@code i}. */
  public void set(int i, int value) {
    storage.set(i, value);
  }

  /** Copies {@code values} into the first elements. */
  public void set(int[] values) {
    for (int i = 0; i < values.length; i++) storage.set(i, values[i]);
  }

  /** Copies {@code other}'s elements into the first elements. */
  public void set(VectorInt other) {
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
  public IntArray getArray() {
    return storage;
  }

  /** Sets every element to {@code value}. */
  public void fill(int value) {
    storage.init(value);
  }

  /** A new vector of {@code length} elements from {@code start}. */
  public VectorInt subVector(int start, int length) {
    VectorInt v = new VectorInt(length);
    for (int i = 0; i < length; i++) v.set(i, get(start + i));
    return v;
  }

  /** A copy. */
  public VectorInt duplicate() {
    return subVector(0, size());
  }

  /** The smallest element ({@code Math.min} from {@code Integer.MAX_VALUE}). */
  public static int min(VectorInt v) {
    int r = Integer.MAX_VALUE;
    for (int i = 0; i < v.size(); i++) r = Math.min(r, v.get(i));
    return r;
  }

  /** The largest element ({@code Math.max} from {@code Integer.MIN_VALUE}). */
  public static int max(VectorInt v) {
    int r = Integer.MIN_VALUE;
    for (int i = 0; i < v.size(); i++) r = Math.max(r, v.get(i));
    return r;
  }

  /** The dot product, summed from element 0. */
  public static int dot(VectorInt a, VectorInt b) {
    int s = 0;
    for (int i = 0; i < a.size(); i++) s += a.get(i) * b.get(i);
    return s;
  }

  @Override
  public VectorInt withArray(NativeArray storage) {
    return new VectorInt((IntArray) storage);
  }

  @Override
  public String toString() {
    return "VectorInt <" + size() + "> " + storage;
  }
}
