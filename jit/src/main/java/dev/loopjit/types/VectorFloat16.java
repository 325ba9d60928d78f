// A vector of Float16 over off-heap memory, as TornadoVM's VectorFloat16: element i is storage[16i .. 16i+15].
package dev.loopjit.types;

/**
 * A vector of {@link Float16}s stored as consecutive floats in one {@link FloatArray} (element {@code i} is
 * floats {@code 16i} to {@code 16i + 15}). Inside a kernel {@code get(i)} reads them into a {@code Float16} value and
 * {@code set(i, v)} writes them; {@code getLength()} is the number of {@code Float16}s and {@code size()} the
 * number of floats, as in TornadoVM.
 */
public final class VectorFloat16 implements NativeCollection {
  private final FloatArray storage;

  /** A zeroed vector of {@code length} Float16s. */
  public VectorFloat16(int length) {
    this(new FloatArray(Math.multiplyExact(length, 16)));
  }

  /** A vector over {@code storage}, whose size must be a multiple of 16. */
  public VectorFloat16(FloatArray storage) {
    if (storage.getSize() % 16 != 0) throw new IllegalArgumentException("a VectorFloat16 over " + storage.getSize() + " floats (not a multiple of 16)");
    this.storage = storage;
  }

  /** Element {@code i}, a new Float16. */
  public Float16 get(int i) {
    java.util.Objects.checkIndex(i, getLength());
    return new Float16(storage.get(16 * i + 0), storage.get(16 * i + 1), storage.get(16 * i + 2), storage.get(16 * i + 3), storage.get(16 * i + 4), storage.get(16 * i + 5), storage.get(16 * i + 6), storage.get(16 * i + 7), storage.get(16 * i + 8), storage.get(16 * i + 9), storage.get(16 * i + 10), storage.get(16 * i + 11), storage.get(16 * i + 12), storage.get(16 * i + 13), storage.get(16 * i + 14), storage.get(16 * i + 15));
  }

  /** Sets element {@code i} to {@code v}'s floats. */
  public void set(int i, Float16 v) {
    java.util.Objects.checkIndex(i, getLength());
    for (int k = 0; k < 16; k++) storage.set(16 * i + k, v.get(k));
  }

  /** Float16 elements. */
  public int getLength() {
    return storage.getSize() / 16;
  }

  /** Floats of storage (16 per element), as TornadoVM's {@code size()}. */
  public int size() {
    return storage.getSize();
  }

  /** 16. */
  public int vectorWidth() {
    return 16;
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
  public VectorFloat16 duplicate() {
    return new VectorFloat16(FloatArray.fromArray(storage.toArray()));
  }

  @Override
  public VectorFloat16 withArray(NativeArray storage) {
    return new VectorFloat16((FloatArray) storage);
  }

  @Override
  public String toString() {
    return "VectorFloat16 <" + getLength() + ">";
  }
}
