// A vector of Float3 over off-heap memory, as TornadoVM's VectorFloat3: element i is storage[3i .. 3i+2].
package dev.loopjit.types;

/**
 * A vector of {@link Float3}s stored as consecutive floats in one {@link FloatArray} (element {@code i} is
 * floats {@code 3i} to {@code 3i + 2}). Inside a kernel {@code get(i)} reads them into a {@code Float3} value and
 * {@code set(i, v)} writes them; {@code getLength()} is the number of {@code Float3}s and {@code size()} the
 * number of floats, as in TornadoVM.
 */
public final class VectorFloat3 implements NativeCollection {
  private final FloatArray storage;

  /** A zeroed vector of {@code length} Float3s. */
  public VectorFloat3(int length) {
    this(new FloatArray(Math.multiplyExact(length, 3)));
  }

  /** A vector over {@code storage}, whose size must be a multiple of 3. */
  public VectorFloat3(FloatArray storage) {
    if (storage.getSize() % 3 != 0) throw new IllegalArgumentException("a VectorFloat3 over " + storage.getSize() + " floats (not a multiple of 3)");
    this.storage = storage;
  }

  /** Element {@code i}, a new Float3. */
  public Float3 get(int i) {
    java.util.Objects.checkIndex(i, getLength());
    return new Float3(storage.get(3 * i + 0), storage.get(3 * i + 1), storage.get(3 * i + 2));
  }

  /** Sets element {@code i} to {@code v}'s floats. */
  public void set(int i, Float3 v) {
    java.util.Objects.checkIndex(i, getLength());
    for (int k = 0; k < 3; k++) storage.set(3 * i + k, v.get(k));
  }

  /** Float3 elements. */
  public int getLength() {
    return storage.getSize() / 3;
  }

  /** Floats of storage (3 per element), as TornadoVM's {@code size()}. */
  public int size() {
    return storage.getSize();
  }

  /** 3. */
  public int vectorWidth() {
    return 3;
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
  public VectorFloat3 duplicate() {
    return new VectorFloat3(FloatArray.fromArray(storage.toArray()));
  }

  @Override
  public VectorFloat3 withArray(NativeArray storage) {
    return new VectorFloat3((FloatArray) storage);
  }

  @Override
  public String toString() {
    return "VectorFloat3 <" + getLength() + ">";
  }
}
