// A 4 × 4 float matrix, as TornadoVM's Matrix4x4Float (a camera pose, a projection): row-major over 16 floats, usable in kernels.
package dev.loopjit.types;

/**
 * A 4 × 4 matrix of floats over one {@link FloatArray} of 16, row after row. Inside a kernel
 * {@code get(i, j)}, {@code get(k)} (float {@code k} of the 16), {@code set}, {@code row(i)} and
 * {@code column(j)} (as {@link Float4} values) and {@code getNumRows()}/{@code getNumColumns()} (4)
 * read and write it.
 */
public final class Matrix4x4Float implements NativeCollection {
  private final FloatArray storage;

  /** A zeroed matrix. */
  public Matrix4x4Float() {
    this(new FloatArray(16));
  }

  /** A matrix over {@code storage}, which holds 16 floats. */
  public Matrix4x4Float(FloatArray storage) {
    if (storage.getSize() != 16) throw new IllegalArgumentException("a Matrix4x4Float needs 16 floats, not " + storage.getSize());
    this.storage = storage;
  }

  /** Float {@code k} of the 16 (row after row). */
  public float get(int k) {
    return storage.get(k);
  }

  /** Sets float {@code k} of the 16. */
  public void set(int k, float value) {
    storage.set(k, value);
  }

  /** Element {@code (i, j)}: column {@code j} of row {@code i}. */
  public float get(int i, int j) {
    return storage.get(at(i, j));
  }

  /** Sets element {@code (i, j)}. */
  public void set(int i, int j, float value) {
    storage.set(at(i, j), value);
  }

  private static int at(int i, int j) {
    return java.util.Objects.checkIndex(i, 4) * 4 + java.util.Objects.checkIndex(j, 4);
  }

  public int getNumRows() {
    return 4;
  }

  public int getNumColumns() {
    return 4;
  }

  /** Row {@code i}, a new Float4. */
  public Float4 row(int i) {
    return new Float4(get(i, 0), get(i, 1), get(i, 2), get(i, 3));
  }

  /** Column {@code j}, a new Float4. */
  public Float4 column(int j) {
    return new Float4(get(0, j), get(1, j), get(2, j), get(3, j));
  }

  /** The diagonal, a new Float4. */
  public Float4 diag() {
    return new Float4(get(0, 0), get(1, 1), get(2, 2), get(3, 3));
  }

  /** Sets every element to {@code value}. */
  public void fill(float value) {
    storage.init(value);
  }

  /** Makes this the identity matrix. */
  public void identity() {
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 4; j++) set(i, j, i == j ? 1f : 0f);
  }

  /** Copies {@code other}'s elements into this matrix. */
  public void set(Matrix4x4Float other) {
    for (int k = 0; k < 16; k++) storage.set(k, other.storage.get(k));
  }

  /** A copy. */
  public Matrix4x4Float duplicate() {
    Matrix4x4Float c = new Matrix4x4Float();
    c.set(this);
    return c;
  }

  /** 16. */
  public int size() {
    return 16;
  }

  @Override
  public FloatArray getArray() {
    return storage;
  }

  @Override
  public Matrix4x4Float withArray(NativeArray storage) {
    return new Matrix4x4Float((FloatArray) storage);
  }

  /** Each row on a line, each element formatted with {@code format}. */
  public String toString(String format) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 4; i++) {
      for (int j = 0; j < 4; j++) b.append(String.format(format, get(i, j))).append(' ');
      b.append('\n');
    }
    return b.toString();
  }

  @Override
  public String toString() {
    return toString("%.3f");
  }
}
