// A vector of Int3 over off-heap memory, as TornadoVM's VectorInt3: element i is storage[3i .. 3i+2].
package dev.loopjit.types;

/**
 * A vector of {@link Int3}s stored as consecutive ints in one {@link IntArray} (element {@code i} is
 * ints {@code 3i} to {@code 3i + 2}). Inside a kernel {@code get(i)} reads them into a {@code Int3} value and
 * {@code set(i, v)} writes them; {@code getLength()} is the number of {@code Int3}s and {@code size()} the
 * number of ints, as in TornadoVM.
 */
public final class VectorInt3 implements NativeCollection {
  private final IntArray storage;

  /** A zeroed vector of {@code length} Int3s. */
  public VectorInt3(int length) {
    this(new IntArray(Math.multiplyExact(length, 3)));
  }

  /** A vector over {@code storage}, whose size must be a multiple of 3. */
  public VectorInt3(IntArray storage) {
    if (storage.getSize() % 3 != 0) throw new IllegalArgumentException("a VectorInt3 over " + storage.getSize() + " ints (not a multiple of 3)");
    this.storage = storage;
  }

  /** Element {@code i}, a new Int3. */
  public Int3 get(int i) {
    java.util.Objects.checkIndex(i, getLength());
    return new Int3(storage.get(3 * i + 0), storage.get(3 * i + 1), storage.get(3 * i + 2));
  }

  /** Sets element {@code i} to {@code v}'s ints. */
  public void set(int i, Int3 v) {
    java.util.Objects.checkIndex(i, getLength());
    for (int k = 0; k < 3; k++) storage.set(3 * i + k, v.get(k));
  }

  /** Int3 elements. */
  public int getLength() {
    return storage.getSize() / 3;
  }

  /** Ints of storage (3 per element), as TornadoVM's {@code size()}. */
  public int size() {
    return storage.getSize();
  }

  /** 3. */
  public int vectorWidth() {
    return 3;
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
  public VectorInt3 duplicate() {
    return new VectorInt3(IntArray.fromArray(storage.toArray()));
  }

  @Override
  public VectorInt3 withArray(NativeArray storage) {
    return new VectorInt3((IntArray) storage);
  }

  @Override
  public String toString() {
    return "VectorInt3 <" + getLength() + ">";
  }
}
