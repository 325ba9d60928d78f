// A vector of Int8 over off-heap memory, as TornadoVM's VectorInt8: element i is storage[8i .. 8i+7].
package dev.loopjit.types;

/**
 * A vector of {@link Int8}s stored as consecutive ints in one {@link IntArray} (element {@code i} is
 * ints {@code 8i} to {@code 8i + 7}). Inside a kernel {@code get(i)} reads them into a {@code Int8} value and
 * {@code set(i, v)} writes them; {@code getLength()} is the number of {@code Int8}s and {@code size()} the
 * number of ints, as in TornadoVM.
 */
public final class VectorInt8 implements NativeCollection {
  private final IntArray storage;

  /** A zeroed vector of {@code length} Int8s. */
  public VectorInt8(int length) {
    this(new IntArray(Math.multiplyExact(length, 8)));
  }

  /** A vector over {@code storage}, whose size must be a multiple of 8. */
  public VectorInt8(IntArray storage) {
    if (storage.getSize() % 8 != 0) throw new IllegalArgumentException("a VectorInt8 over " + storage.getSize() + " ints (not a multiple of 8)");
    this.storage = storage;
  }

  /** Element {@code i}, a new Int8. */
  public Int8 get(int i) {
    java.util.Objects.checkIndex(i, getLength());
    return new Int8(storage.get(8 * i + 0), storage.get(8 * i + 1), storage.get(8 * i + 2), storage.get(8 * i + 3), storage.get(8 * i + 4), storage.get(8 * i + 5), storage.get(8 * i + 6), storage.get(8 * i + 7));
  }

  /** Sets element {@code i} to {@code v}'s ints. */
  public void set(int i, Int8 v) {
    java.util.Objects.checkIndex(i, getLength());
    for (int k = 0; k < 8; k++) storage.set(8 * i + k, v.get(k));
  }

  /** Int8 elements. */
  public int getLength() {
    return storage.getSize() / 8;
  }

  /** Ints of storage (8 per element), as TornadoVM's {@code size()}. */
  public int size() {
    return storage.getSize();
  }

  /** 8. */
  public int vectorWidth() {
    return 8;
  }

  @Override
  public IntArray getArray() {
    return storage;
  }

  /** Sets every int to {@code value}. */
  public void fill(int value) {
    storage.init(value);
  }

  /** A copy. */
  public VectorInt8 duplicate() {
    return new VectorInt8(IntArray.fromArray(storage.toArray()));
  }

  @Override
  public VectorInt8 withArray(NativeArray storage) {
    return new VectorInt8((IntArray) storage);
  }

  @Override
  public String toString() {
    return "VectorInt8 <" + getLength() + ">";
  }
}
