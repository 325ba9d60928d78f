// A vector of Double8 over off-heap memory, as TornadoVM's VectorDouble8: element i is storage[8i .. 8i+7].
package dev.loopjit.types;

/**
 * A vector of {@link Double8}s stored as consecutive doubles in one {@link DoubleArray} (element {@code i} is
 * doubles {@code 8i} to {@code 8i + 7}). Inside a kernel {@code get(i)} reads them into a {@code Double8} value and
 * {@code set(i, v)} writes them; {@code getLength()} is the number of {@code Double8}s and {@code size()} the
 * number of doubles, as in TornadoVM.
 */
public final class VectorDouble8 implements NativeCollection {
  private final DoubleArray storage;

  /** A zeroed vector of {@code length} Double8s. */
  public VectorDouble8(int length) {
    this(new DoubleArray(Math.multiplyExact(length, 8)));
  }

  /** A vector over {@code storage}, whose size must be a multiple of 8. */
  public VectorDouble8(DoubleArray storage) {
    if (storage.getSize() % 8 != 0) throw new IllegalArgumentException("a VectorDouble8 over " + storage.getSize() + " doubles (not a multiple of 8)");
    this.storage = storage;
  }

  /** Element {@code i}, a new Double8. */
  public Double8 get(int i) {
    java.util.Objects.checkIndex(i, getLength());
    return new Double8(storage.get(8 * i + 0), storage.get(8 * i + 1), storage.get(8 * i + 2), storage.get(8 * i + 3), storage.get(8 * i + 4), storage.get(8 * i + 5), storage.get(8 * i + 6), storage.get(8 * i + 7));
  }

  /** Sets element {@code i} to {@code v}'s doubles. */
  public void set(int i, Double8 v) {
    java.util.Objects.checkIndex(i, getLength());
    for (int k = 0; k < 8; k++) storage.set(8 * i + k, v.get(k));
  }

  /** Double8 elements. */
  public int getLength() {
    return storage.getSize() / 8;
  }

  /** Doubles of storage (8 per element), as TornadoVM's {@code size()}. */
  public int size() {
    return storage.getSize();
  }

  /** 8. */
  public int vectorWidth() {
    return 8;
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
  public VectorDouble8 duplicate() {
    return new VectorDouble8(DoubleArray.fromArray(storage.toArray()));
  }

  @Override
  public VectorDouble8 withArray(NativeArray storage) {
    return new VectorDouble8((DoubleArray) storage);
  }

  @Override
  public String toString() {
    return "VectorDouble8 <" + getLength() + ">";
  }
}
