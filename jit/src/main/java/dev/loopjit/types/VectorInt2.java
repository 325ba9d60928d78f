// A vector of Int2 over off-heap memory, as TornadoVM's VectorInt2: element i is storage[2i .. 2i+1].
package dev.loopjit.types;

/**
 * A vector of {@link Int2}s stored as consecutive ints in one {@link IntArray} (element {@code i} is
 * ints {@code 2i} to {@code 2i + 1}). Inside a kernel {@code get(i)} reads them into a {@code Int2} value and
 * {@code set(i, v)} writes them; {@code getLength()} is the number of {@code Int2}s and {@code size()} the
 * number of ints, as in TornadoVM.
 */
public final class VectorInt2 implements NativeCollection {
  private final IntArray storage;

  /** A zeroed vector of {@code length} Int2s. */
  public VectorInt2(int length) {
    this(new IntArray(Math.multiplyExact(length, 2)));
  }

  /** A vector over {@code storage}, whose size must be a multiple of 2. */
  public VectorInt2(IntArray storage) {
    if (storage.getSize() % 2 != 0) throw new IllegalArgumentException("a VectorInt2 over " + storage.getSize() + " ints (not a multiple of 2)");
    this.storage = storage;
  }

  /** Element {@code i}, a new Int2. */
  public Int2 get(int i) {
    java.util.Objects.checkIndex(i, getLength());
    return new Int2(storage.get(2 * i + 0), storage.get(2 * i + 1));
  }

  /** Sets element {@code i} to {@code v}'s ints. */
  public void set(int i, Int2 v) {
    java.util.Objects.checkIndex(i, getLength());
    for (int k = 0; k < 2; k++) storage.set(2 * i + k, v.get(k));
  }

  /** Int2 elements. */
  public int getLength() {
    return storage.getSize() / 2;
  }

  /** Ints of storage (2 per element), as TornadoVM's {@code size()}. */
  public int size() {
    return storage.getSize();
  }

  /** 2. */
  public int vectorWidth() {
    return 2;
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
  public VectorInt2 duplicate() {
    return new VectorInt2(IntArray.fromArray(storage.toArray()));
  }

  @Override
  public VectorInt2 withArray(NativeArray storage) {
    return new VectorInt2((IntArray) storage);
  }

  @Override
  public String toString() {
    return "VectorInt2 <" + getLength() + ">";
  }
}
