// A vector of Float8 over off-heap memory, as TornadoVM's VectorFloat8: element i is storage[8i .. 8i+7].
package dev.loopjit.types;

/**
 * A vector of {@link Float8}s stored as consecutive floats in one {@link FloatArray} (element {@code i} is
 * floats {@code 8i} to {@code 8i + 7}). Inside a kernel {@code get(i)} reads them into a {@code Float8} value and
 * {@code set(i, v)} writes them; {@code getLength()} is the number of {@code Float8}s and {@code size()} the
 * number of floats, as in TornadoVM.
 */
public final class VectorFloat8 implements NativeCollection {
  private final FloatArray storage;

  /** A zeroed vector of {@code length} Float8s. */
  public VectorFloat8(int length) {
    this(new FloatArray(Math.multiplyExact(length, 8)));
  }

  /** A vector over {@code storage}, whose size must be a multiple of 8. */
  public VectorFloat8(FloatArray storage) {
    if (storage.getSize() % 8 != 0) throw new IllegalArgumentException("a VectorFloat8 over " + storage.getSize() + " floats (not a multiple of 8)");
    this.storage = storage;
  }

  /** Element {@code i}, a new Float8. */
  public Float8 get(int i) {
    java.util.Objects.checkIndex(i, getLength());
    return new Float8(storage.get(8 * i + 0), storage.get(8 * i + 1), storage.get(8 * i + 2), storage.get(8 * i + 3), storage.get(8 * i + 4), storage.get(8 * i + 5), storage.get(8 * i + 6), storage.get(8 * i + 7));
  }

  /** Sets element {@code i} to {@code v}'s floats. */
  public void set(int i, Float8 v) {
    java.util.Objects.checkIndex(i, getLength());
    for (int k = 0; k < 8; k++) storage.set(8 * i + k, v.get(k));
  }

  /** Float8 elements. */
  public int getLength() {
    return storage.getSize() / 8;
  }

  /** Floats of storage (8 per element), as TornadoVM's {@code size()}. */
  public int size() {
    return storage.getSize();
  }

  /** 8. */
  public int vectorWidth() {
    return 8;
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
  public VectorFloat8 duplicate() {
    return new VectorFloat8(FloatArray.fromArray(storage.toArray()));
  }

  @Override
  public VectorFloat8 withArray(NativeArray storage) {
    return new VectorFloat8((FloatArray) storage);
  }

  @Override
  public String toString() {
    return "VectorFloat8 <" + getLength() + ">";
  }
}
