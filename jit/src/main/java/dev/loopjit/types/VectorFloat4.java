// A vector of Float4 over off-heap memory, as TornadoVM's VectorFloat4: element i is storage[4i .. 4i+3].
package dev.loopjit.types;

/**
 * A vector of {@link Float4}s stored as consecutive floats in one {@link FloatArray} (element
 * {@code i} is floats {@code 4i} to {@code 4i + 3}). Inside a kernel {@code get(i)} reads the four
 * floats into a {@code Float4} value and {@code set(i, v)} writes them; {@code getLength()} is the
 * number of {@code Float4}s and {@code size()} the number of floats, as in TornadoVM.
 */
public final class VectorFloat4 implements NativeCollection {
  private final FloatArray storage;

  /** A zeroed vector of {@code length} Float4s. */
  public VectorFloat4(int length) {
    this(new FloatArray(Math.multiplyExact(length, 4)));
  }

  /** A vector over {@code storage}, whose size must be a multiple of 4. */
  public VectorFloat4(FloatArray storage) {
    if (storage.getSize() % 4 != 0) throw new IllegalArgumentException("a VectorFloat4 over " + storage.getSize() + " floats (not a multiple of 4)");
    this.storage = storage;
  }

  /** Element {@code i}, a new Float4. */
  public Float4 get(int i) {
    java.util.Objects.checkIndex(i, getLength());
    return new Float4(storage.get(4 * i), storage.get(4 * i + 1), storage.get(4 * i + 2), storage.get(4 * i + 3));
  }

  /** Sets element {@code i} to {@code v}'s four floats. */
  public void set(int i, Float4 v) {
    java.util.Objects.checkIndex(i, getLength());
    storage.set(4 * i, v.getX());
    storage.set(4 * i + 1, v.getY());
    storage.set(4 * i + 2, v.getZ());
    storage.set(4 * i + 3, v.getW());
  }

  /** Float4 elements. */
  public int getLength() {
    return storage.getSize() / 4;
  }

  /** Floats of storage (4 per element), as TornadoVM's {@code size()}. */
  public int size() {
    return storage.getSize();
  }

  /** 4. */
  public int vectorWidth() {
    return 4;
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
  public VectorFloat4 duplicate() {
    return new VectorFloat4(FloatArray.fromArray(storage.toArray()));
  }

  @Override
  public VectorFloat4 withArray(NativeArray storage) {
    return new VectorFloat4((FloatArray) storage);
  }

  @Override
  public String toString() {
    return "VectorFloat4 <" + getLength() + ">";
  }
}
