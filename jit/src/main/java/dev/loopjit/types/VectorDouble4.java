// A vector of Double4 over off-heap memory, as TornadoVM's VectorDouble4: element i is storage[4i .. 4i+3].
package dev.loopjit.types;

/**
 * A vector of {@link Double4}s stored as consecutive doubles in one {@link DoubleArray} (element {@code i} is
 * doubles {@code 4i} to {@code 4i + 3}). Inside a kernel {@code get(i)} reads them into a {@code Double4} value and
 * {@code set(i, v)} writes them; {@code getLength()} is the number of {@code Double4}s and {@code size()} the
 * number of doubles, as in TornadoVM.
 */
public final class VectorDouble4 implements NativeCollection {
  private final DoubleArray storage;

  /** A zeroed vector of {@code length} Double4s. */
  public VectorDouble4(int length) {
    this(new DoubleArray(Math.multiplyExact(length, 4)));
  }

  /** A vector over {@code storage}, whose size must be a multiple of 4. */
  public VectorDouble4(DoubleArray storage) {
    if (storage.getSize() % 4 != 0) throw new IllegalArgumentException("a VectorDouble4 over " + storage.getSize() + " doubles (not a multiple of 4)");
    this.storage = storage;
  }

  /** Element {@code i}, a new Double4. */
  public Double4 get(int i) {
    java.util.Objects.checkIndex(i, getLength());
    return new Double4(storage.get(4 * i + 0), storage.get(4 * i + 1), storage.get(4 * i + 2), storage.get(4 * i + 3));
  }

  /** Sets element {@code i} to {@code v}'s doubles. */
  public void set(int i, Double4 v) {
    java.util.Objects.checkIndex(i, getLength());
    for (int k = 0; k < 4; k++) storage.set(4 * i + k, v.get(k));
  }

  /** Double4 elements. */
  public int getLength() {
    return storage.getSize() / 4;
  }

  /** Doubles of storage (4 per element), as TornadoVM's {@code size()}. */
  public int size() {
    return storage.getSize();
  }

  /** 4. */
  public int vectorWidth() {
    return 4;
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
  public VectorDouble4 duplicate() {
    return new VectorDouble4(DoubleArray.fromArray(storage.toArray()));
  }

  @Override
  public VectorDouble4 withArray(NativeArray storage) {
    return new VectorDouble4((DoubleArray) storage);
  }

  @Override
  public String toString() {
    return "VectorDouble4 <" + getLength() + ">";
  }
}
