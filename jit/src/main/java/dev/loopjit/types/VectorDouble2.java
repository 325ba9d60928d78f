// A vector of Double2 over off-heap memory, as TornadoVM's VectorDouble2: element i is storage[2i .. 2i+1].
package dev.loopjit.types;

/**
 * A vector of {@link Double2}s stored as consecutive doubles in one {@link DoubleArray} (element {@code i} is
 * doubles {@code 2i} to {@code 2i + 1}). Inside a kernel {@code get(i)} reads them into a {@code Double2} value and
 * {@code set(i, v)} writes them; {@code getLength()} is the number of {@code Double2}s and {@code size()} the
 * number of doubles, as in TornadoVM.
 */
public final class VectorDouble2 implements NativeCollection {
  private final DoubleArray storage;

  /** A zeroed vector of {@code length} Double2s. */
  public VectorDouble2(int length) {
    this(new DoubleArray(Math.multiplyExact(length, 2)));
  }

  /** A vector over {@code storage}, whose size must be a multiple of 2. */
  public VectorDouble2(DoubleArray storage) {
    if (storage.getSize() % 2 != 0) throw new IllegalArgumentException("a VectorDouble2 over " + storage.getSize() + " doubles (not a multiple of 2)");
    this.storage = storage;
  }

  /** Element {@code i}, a new Double2. */
  public Double2 get(int i) {
    java.util.Objects.checkIndex(i, getLength());
    return new Double2(storage.get(2 * i + 0), storage.get(2 * i + 1));
  }

  /** Sets element {@code i} to {@code v}'s doubles. */
  public void set(int i, Double2 v) {
    java.util.Objects.checkIndex(i, getLength());
    for (int k = 0; k < 2; k++) storage.set(2 * i + k, v.get(k));
  }

  /** Double2 elements. */
  public int getLength() {
    return storage.getSize() / 2;
  }

  /** Doubles of storage (2 per element), as TornadoVM's {@code size()}. */
  public int size() {
    return storage.getSize();
  }

  /** 2. */
  public int vectorWidth() {
    return 2;
  }

  @Override
  public DoubleArray getArray() {
    return storage;
  }

  /** Sets every double to {@code value}. */
  public void fill(double value) {
    storage.init(value);
  }

  /** A copy. */
  public VectorDouble2 duplicate() {
    return new VectorDouble2(DoubleArray.fromArray(storage.toArray()));
  }

  @Override
  public VectorDouble2 withArray(NativeArray storage) {
    return new VectorDouble2((DoubleArray) storage);
  }

  @Override
  public String toString() {
    return "VectorDouble2 <" + getLength() + ">";
  }
}
