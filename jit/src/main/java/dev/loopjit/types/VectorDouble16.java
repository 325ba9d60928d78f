// A vector of Double16 over off-heap memory, as TornadoVM's VectorDouble16: element i is storage[16i .. 16i+15].
package dev.loopjit.types;

/**
 * A vector of {@link Double16}s stored as consecutive doubles in one {@link DoubleArray} (element {@code i} is
 * doubles {@code 16i} to {@code 16i + 15}). Inside a kernel {@code get(i)} reads them into a {@code Double16} value and
 * {@code set(i, v)} writes them; {@code getLength()} is the number of {@code Double16}s and {@code size()} the
 * number of doubles, as in TornadoVM.
 */
public final class VectorDouble16 implements NativeCollection {
  private final DoubleArray storage;

  /** A zeroed vector of {@code length} Double16s. */
  public VectorDouble16(int length) {
    this(new DoubleArray(Math.multiplyExact(length, 16)));
  }

  /** A vector over {@code storage}, whose size must be a multiple of 16. */
  public VectorDouble16(DoubleArray storage) {
    if (storage.getSize() % 16 != 0) throw new IllegalArgumentException("a VectorDouble16 over " + storage.getSize() + " doubles (not a multiple of 16)");
    this.storage = storage;
  }

  /** Element {@code i}, a new Double16. */
  public Double16 get(int i) {
    java.util.Objects.checkIndex(i, getLength());
    return new Double16(storage.get(16 * i + 0), storage.get(16 * i + 1), storage.get(16 * i + 2), storage.get(16 * i + 3), storage.get(16 * i + 4), storage.get(16 * i + 5), storage.get(16 * i + 6), storage.get(16 * i + 7), storage.get(16 * i + 8), storage.get(16 * i + 9), storage.get(16 * i + 10), storage.get(16 * i + 11), storage.get(16 * i + 12), storage.get(16 * i + 13), storage.get(16 * i + 14), storage.get(16 * i + 15));
  }

  /** Sets element {@code i} to {@code v}'s doubles. */
  public void set(int i, Double16 v) {
    java.util.Objects.checkIndex(i, getLength());
    for (int k = 0; k < 16; k++) storage.set(16 * i + k, v.get(k));
  }

  /** Double16 elements. */
  public int getLength() {
    return storage.getSize() / 16;
  }

  /** Doubles of storage (16 per element), as TornadoVM's {@code size()}. */
  public int size() {
    return storage.getSize();
  }

  /** 16. */
  public int vectorWidth() {
    return 16;
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
  public VectorDouble16 duplicate() {
    return new VectorDouble16(DoubleArray.fromArray(storage.toArray()));
  }

  @Override
  public VectorDouble16 withArray(NativeArray storage) {
    return new VectorDouble16((DoubleArray) storage);
  }

  @Override
  public String toString() {
    return "VectorDouble16 <" + getLength() + ">";
  }
}
