// A vector of Float2 over off-heap memory, as TornadoVM's VectorFloat2: element i is storage[2i .. 2i+1].
package dev.loopjit.types;

/**
 * A vector of {@link Float2}s stored as consecutive floats in one {@link FloatArray} (element {@code i} is
 * floats {@code 2i} to {@code 2i + 1}). Inside a kernel {@code get(i)} reads them into a {@code Float2} value and
 * {@code set(i, v)} writes them; {@code getLength()} is the number of {@code Float2}s and {@code size()} the
 * number of floats, as in TornadoVM.
 */
public final class VectorFloat2 implements NativeCollection {
  private final FloatArray storage;

  /** A zeroed vector of {@code length} Float2s. */
  public VectorFloat2(int length) {
    this(new FloatArray(Math.multiplyExact(length, 2)));
  }

  /** A vector over {@code storage}, whose size must be a multiple of 2. */
  public VectorFloat2(FloatArray storage) {
    if (storage.getSize() % 2 != 0) throw new IllegalArgumentException("a VectorFloat2 over " + storage.getSize() + " floats (not a multiple of 2)");
    this.storage = storage;
  }

  /** Element {@code i}, a new Float2. */
  public Float2 get(int i) {
    java.util.Objects.checkIndex(i, getLength());
    return new Float2(storage.get(2 * i + 0), storage.get(2 * i + 1));
  }

  /** Sets element {@code i} to {@code v}'s floats. */
  public void set(int i, Float2 v) {
    java.util.Objects.checkIndex(i, getLength());
    for (int k = 0; k < 2; k++) storage.set(2 * i + k, v.get(k));
  }

  /** Float2 elements. */
  public int getLength() {
    return storage.getSize() / 2;
  }

  /** Floats of storage (2 per element), as TornadoVM's {@code size()}. */
  public int size() {
    return storage.getSize();
  }

  /** 2. */
  public int vectorWidth() {
    return 2;
  }

  @Override
  public FloatArray getArray() {
    return storage;
  }

  /** Sets every float to {@code value}. */
  public void fill(float value) {
    storage.init(value);
  }

  /** A copy. */
  public VectorFloat2 duplicate() {
    return new VectorFloat2(FloatArray.fromArray(storage.toArray()));
  }

  @Override
  public VectorFloat2 withArray(NativeArray storage) {
    return new VectorFloat2((FloatArray) storage);
  }

  @Override
  public String toString() {
    return "VectorFloat2 <" + getLength() + ">";
  }
}
