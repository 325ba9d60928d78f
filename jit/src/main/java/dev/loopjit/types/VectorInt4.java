// A vector of Int4 over off-heap memory, as TornadoVM's VectorInt4: element i is storage[4i .. 4i+3].
package dev.loopjit.types;

/**
 * A vector of {@link Int4}s stored as consecutive ints in one {@link IntArray} (element {@code i} is
 * ints {@code 4i} to {@code 4i + 3}). Inside a kernel {@code get(i)} reads them into a {@code Int4} value and
 * {@code set(i, v)} writes them; {@code getLength()} is the number of {@code Int4}s and {@code size()} the
 * number of ints, as in TornadoVM.
 */
public final class VectorInt4 implements NativeCollection {
  private final IntArray storage;

  /** A zeroed vector of {@code length} Int4s. */
  public VectorInt4(int length) {
    this(new IntArray(Math.multiplyExact(length, 4)));
  }

  /** A vector over {@code storage}, whose size must be a multiple of 4. */
  public VectorInt4(IntArray storage) {
    if (storage.getSize() % 4 != 0) throw new IllegalArgumentException("a VectorInt4 over " + storage.getSize() + " ints (not a multiple of 4)");
    this.storage = storage;
  }

  /** Element {@code i}, a new Int4. */
  public Int4 get(int i) {
    java.util.Objects.checkIndex(i, getLength());
    return new Int4(storage.get(4 * i + 0), storage.get(4 * i + 1), storage.get(4 * i + 2), storage.get(4 * i + 3));
  }

  /** Sets element {@code i} to {@code v}'s ints. */
  public void set(int i, Int4 v) {
    java.util.Objects.checkIndex(i, getLength());
    for (int k = 0; k < 4; k++) storage.set(4 * i + k, v.get(k));
  }

  /** Int4 elements. */
  public int getLength() {
    return storage.getSize() / 4;
  }

  /** Ints of storage (4 per element), as TornadoVM's {@code size()}. */
  public int size() {
    return storage.getSize();
  }

  /** 4. */
  public int vectorWidth() {
    return 4;
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
  public VectorInt4 duplicate() {
    return new VectorInt4(IntArray.fromArray(storage.toArray()));
  }

  @Override
  public VectorInt4 withArray(NativeArray storage) {
    return new VectorInt4((IntArray) storage);
  }

  @Override
  public String toString() {
    return "VectorInt4 <" + getLength() + ">";
  }
}
