// A vector of Double3 over off-heap memory, as TornadoVM's VectorDouble3: element i is storage[3i .. 3i+2].
package dev.loopjit.types;

/**
 * A vector of {@link Double3}s stored as consecutive doubles in one {@link DoubleArray} (element {@code i} is
 * doubles {@code 3i} to {@code 3i + 2}). Inside a kernel {@code get(i)} reads them into a {@code Double3} value and
 * {@code set(i, v)} writes them; {@code getLength()} is the number of {@code Double3}s and {@code size()} the
 * number of doubles, as in TornadoVM.
 */
public final class VectorDouble3 implements NativeCollection {
  private final DoubleArray storage;

  /** A zeroed vector of {@code length} Double3s. */
  public VectorDouble3(int length) {
    this(new DoubleArray(Math.multiplyExact(length, 3)));
  }

  /** A vector over {@code storage}, whose size must be a multiple of 3. */
  public VectorDouble3(DoubleArray storage) {
    if (storage.getSize() % 3 != 0) throw new IllegalArgumentException("a VectorDouble3 over " + storage.getSize() + " doubles (not a multiple of 3)");
    this.storage = storage;
  }

  /** Element {@code i}, a new Double3. */
  public Double3 get(int i) {
    java.util.Objects.checkIndex(i, getLength());
    return new Double3(storage.get(3 * i + 0), storage.get(3 * i + 1), storage.get(3 * i + 2));
  }

  /** Sets element {@code i} to {@code v}'s doubles. */
  public void set(int i, Double3 v) {
    java.util.Objects.checkIndex(i, getLength());
    for (int k = 0; k < 3; k++) storage.set(3 * i + k, v.get(k));
  }

  /** Double3 elements. */
  public int getLength() {
    return storage.getSize() / 3;
  }

  /** Doubles of storage (3 per element), as TornadoVM's {@code size()}. */
  public int size() {
    return storage.getSize();
  }

  /** 3. */
  public int vectorWidth() {
    return 3;
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
  public VectorDouble3 duplicate() {
    return new VectorDouble3(DoubleArray.fromArray(storage.toArray()));
  }

  @Override
  public VectorDouble3 withArray(NativeArray storage) {
    return new VectorDouble3((DoubleArray) storage);
  }

  @Override
  public String toString() {
    return "VectorDouble3 <" + getLength() + ">";
  }
}
