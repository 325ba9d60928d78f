// A row-major float matrix over off-heap memory, as TornadoVM's Matrix2DFloat: get(i, j) in a kernel is storage[i * columns + j].
package dev.loopjit.types;

/**
 * A {@code rows × columns} matrix of {@code float}, stored row-major in one {@link FloatArray}.
 * Inside a kernel {@code get(i, j)}, {@code set(i, j, v)}, {@code getNumRows()},
 * {@code getNumColumns()} and {@code size()} compile to flat indexing of the storage, with the
 * shape passed as kernel arguments (a new shape never recompiles). As in TornadoVM, {@code (i, j)}
 * is bounds-checked only as a position in the storage.
 *
 * <pre>{@code
 * static void scale(Matrix2DFloat m, float s) {
 *   for (@Parallel int i = 0; i < m.getNumRows(); i++)
 *     for (@Parallel int j = 0; j < m.getNumColumns(); j++) m.set(i, j, s * m.get(i, j));
 * }
 * }</pre>
 */
public final class Matrix2DFloat implements NativeCollection {
  private final int rows, columns;
  private final FloatArray storage;

  /** A zeroed matrix. */
  public Matrix2DFloat(int rows, int columns) {
    this(rows, columns, new FloatArray(checkedSize(rows, columns)));
  }

  /** A matrix over {@code storage}, which holds {@code rows * columns} elements row-major. */
  public Matrix2DFloat(int rows, int columns, FloatArray storage) {
    checkedSize(rows, columns);
    if (storage.getSize() != rows * columns)
      throw new IllegalArgumentException("a " + rows + " x " + columns + " matrix needs " + rows * columns + " elements, the array has " + storage.getSize());
    this.rows = rows;
    this.columns = columns;
    this.storage = storage;
  }

  /** A matrix holding a copy of {@code values} (every row the same length). */
  public Matrix2DFloat(float[][] values) {
    this(values.length, values.length == 0 ? 0 : values[0].length);
    for (int i = 0; i < rows; i++) {
      if (values[i].length != columns) throw new IllegalArgumentException("row " + i + " has " + values[i].length + " elements, row 0 has " + columns);
      for (int j = 0; j < columns; j++) set(i, j, values[i][j]);
    }
  }

  static int checkedSize(int rows, int columns) {
    if (rows < 0 || columns < 0 || (long) rows * columns > Integer.MAX_VALUE)
      throw new IllegalArgumentException("a matrix of " + rows + " x " + columns + " elements");
    return rows * columns;
  }

  /** Element {@code (i, j)}. */
  public float get(int i, int j) {
    return storage.get(i * columns + j);
  }

  /** Sets element {@code (i, j)}. */
  public void set(int i, int j, float value) {
    storage.set(i * columns + j, value);
  }

  public int getNumRows() {
    return rows;
  }

  public int getNumColumns() {
    return columns;
  }

  /** Elements: {@code rows * columns}. */
  public int size() {
    return storage.getSize();
  }

  @Override
  public FloatArray getArray() {
    return storage;
  }

  /** Sets every element to {@code value}. */
  public void fill(float value) {
    storage.init(value);
  }

  /** Row {@code i} as a new vector. */
  public VectorFloat row(int i) {
    VectorFloat v = new VectorFloat(columns);
    for (int j = 0; j < columns; j++) v.set(j, get(i, j));
    return v;
  }

  /** Column {@code j} as a new vector. */
  public VectorFloat column(int j) {
    VectorFloat v = new VectorFloat(rows);
    for (int i = 0; i < rows; i++) v.set(i, get(i, j));
    return v;
  }

  /** The diagonal as a new vector. */
  public VectorFloat diag() {
    VectorFloat v = new VectorFloat(Math.min(rows, columns));
    for (int i = 0; i < v.size(); i++) v.set(i, get(i, i));
    return v;
  }

  /** A copy. */
  public Matrix2DFloat duplicate() {
    Matrix2DFloat m = new Matrix2DFloat(rows, columns);
    m.set(this);
    return m;
  }

  /** Copies {@code other}'s elements (the same number of elements) into this matrix. */
  public void set(Matrix2DFloat other) {
    if (other.size() != size()) throw new IllegalArgumentException("copying " + other.size() + " elements into " + size());
    java.lang.foreign.MemorySegment.copy(other.storage.getSegment(), 0, storage.getSegment(), 0, storage.byteSize());
  }

  /** Transposes a square matrix in place (a matrix that is not square is left as it is). */
  public static void transpose(Matrix2DFloat m) {
    if (m.rows != m.columns) return;
    for (int i = 0; i < m.rows; i++)
      for (int j = 0; j < i; j++) {
        float t = m.get(i, j);
        m.set(i, j, m.get(j, i));
        m.set(j, i, t);
      }
  }

  /** Multiplies every element by {@code value}. */
  public static void scale(Matrix2DFloat m, float value) {
    for (int k = 0; k < m.size(); k++) m.storage.set(k, m.storage.get(k) * value);
  }

  /** Sets this matrix to {@code a × b} (on the host). */
  public void multiply(Matrix2DFloat a, Matrix2DFloat b) {
    for (int i = 0; i < rows; i++)
      for (int j = 0; j < columns; j++) {
        float s = 0;
        for (int k = 0; k < b.rows; k++) s += a.get(i, k) * b.get(k, j);
        set(i, j, s);
      }
  }

  @Override
  public Matrix2DFloat withArray(NativeArray storage) {
    return new Matrix2DFloat(rows, columns, (FloatArray) storage);
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("Matrix2DFloat <" + rows + " x " + columns + ">");
    if (rows <= 8 && columns <= 8)
      for (int i = 0; i < rows; i++) {
        b.append('\n');
        for (int j = 0; j < columns; j++) b.append(j == 0 ? "" : " ").append(get(i, j));
      }
    return b.toString();
  }
}
