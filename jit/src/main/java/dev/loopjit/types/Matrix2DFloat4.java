// A matrix of Float4 over off-heap memory, as TornadoVM's Matrix2DFloat4: get(i, j) in a kernel reads storage[(i * columns + j) * 4 ..].
package dev.loopjit.types;

/**
 * A {@code rows × columns} matrix of {@link Float4}s, stored row-major as consecutive floats in one
 * {@link FloatArray}. Inside a kernel {@code get(i, j)} reads the four floats of element
 * {@code (i, j)} into a {@code Float4} value and {@code set(i, j, v)} writes them;
 * {@code getNumRows()} and {@code getNumColumns()} count Float4s.
 */
public final class Matrix2DFloat4 implements NativeCollection {
  private final int rows, columns;
  private final FloatArray storage;

  /** A zeroed matrix. */
  public Matrix2DFloat4(int rows, int columns) {
    this(rows, columns, new FloatArray(Math.multiplyExact(Matrix3DShape.size(rows, columns, 1), 4)));
  }

  /** A matrix over {@code storage}, which holds {@code rows * columns * 4} floats. */
  public Matrix2DFloat4(int rows, int columns, FloatArray storage) {
    Matrix3DShape.check(rows, columns, 1, 4, storage.getSize());
    this.rows = rows;
    this.columns = columns;
    this.storage = storage;
  }

  /** Element {@code (i, j)}, a new Float4. */
  public Float4 get(int i, int j) {
    int at = 4 * (i * columns + j);
    return new Float4(storage.get(at), storage.get(at + 1), storage.get(at + 2), storage.get(at + 3));
  }

  /** Sets element {@code (i, j)} to {@code v}'s four floats. */
  public void set(int i, int j, Float4 v) {
    int at = 4 * (i * columns + j);
    for (int k = 0; k < 4; k++) storage.set(at + k, v.get(k));
  }

  /** A copy of row {@code i}: its {@code columns * 4} floats. */
  public VectorFloat row(int i) {
    java.util.Objects.checkIndex(i, rows);
    float[] values = new float[columns * 4];
    for (int k = 0; k < values.length; k++) values[k] = storage.get(i * columns * 4 + k);
    return new VectorFloat(FloatArray.fromArray(values));
  }

  public int getNumRows() {
    return rows;
  }

  public int getNumColumns() {
    return columns;
  }

  /** Floats of storage: {@code rows * columns * 4}. */
  public int size() {
    return storage.getSize();
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
  public Matrix2DFloat4 duplicate() {
    return new Matrix2DFloat4(rows, columns, FloatArray.fromArray(storage.toArray()));
  }

  @Override
  public Matrix2DFloat4 withArray(NativeArray storage) {
    return new Matrix2DFloat4(rows, columns, (FloatArray) storage);
  }

  @Override
  public String toString() {
    return "Matrix2DFloat4 <" + rows + " x " + columns + ">";
  }
}
