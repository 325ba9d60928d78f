// A vector of Int16 over off-heap memory, as TornadoVM's VectorInt16: element i is storage[16i .. 16i+15].
package dev.loopjit.types;

/**
 * A vector of {@link Int16}s stored as consecutive ints in one {@link IntArray} (element {@code i} is
 * ints {@code 16i} to {@code 16i + 15}). Inside a kernel {@code get(i)} reads them into a {@code Int16} value and
 * {@code set(i, v)} writes them; {@code getLength()} is the number of {@code Int16}s and {@code size()} the
 * number of ints, as in TornadoVM.
 */
public final class VectorInt16 implements NativeCollection {
  private final IntArray storage;

  /** A zeroed vector of {@code length} Int16s. */
  public VectorInt16(int length) {
    this(new IntArray(Math.multiplyExact(length, 16)));
  }

  /** A vector over {@code storage}, whose size must be a multiple of 16. */
  public VectorInt16(IntArray storage) {
    if (storage.getSize() % 16 != 0) throw new IllegalArgumentException("a VectorInt16 over " + storage.getSize() + " ints (not a multiple of 16)");
    this.storage = storage;
  }

  /** Element {@code i}, a new Int16. */
  public Int16 get(int i) {
    java.util.Objects.checkIndex(i, getLength());
    return new Int16(storage.get(16 * i + 0), storage.get(16 * i + 1), storage.get(16 * i + 2), storage.get(16 * i + 3), storage.get(16 * i + 4), storage.get(16 * i + 5), storage.get(16 * i + 6), storage.get(16 * i + 7), storage.get(16 * i + 8), storage.get(16 * i + 9), storage.get(16 * i + 10), storage.get(16 * i + 11), storage.get(16 * i + 12), storage.get(16 * i + 13), storage.get(16 * i + 14), storage.get(16 * i + 15));
  }

  /** Sets element {@code i} to {@code v}'s ints. */
  public void set(int i, Int16 v) {
    java.util.Objects.checkIndex(i, getLength());
    for (int k = 0; k < 16; k++) storage.set(16 * i + k, v.get(k));
  }

  /** Int16 elements. */
  public int getLength() {
    return storage.getSize() / 16;
  }

  /** Ints of storage (16 per element), as TornadoVM's {@code size()}. */
  public int size() {
    return storage.getSize();
  }

  /** 16. */
  public int vectorWidth() {
    return 16;
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
  public VectorInt16 duplicate() {
    return new VectorInt16(IntArray.fromArray(storage.toArray()));
  }

  @Override
  public VectorInt16 withArray(NativeArray storage) {
    return new VectorInt16((IntArray) storage);
  }

  @Override
  public String toString() {
    return "VectorInt16 <" + getLength() + ">";
  }
}
