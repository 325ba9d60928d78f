// A row-major double matrix over off-heap memory, as TornadoVM's Matrix2DDouble: get(i, j) in a kernel is storage[i * columns + j].
package dev.loopjit.types;

/**
 * A {@code rows × columns} matrix of {@code double}, stored row-major in one {@link DoubleArray}.
 * Inside a kernel {@code get(i, j)}, {@code set(i, j, v)}, {@code getNumRows()},
 * {@code getNumColumns()} and {@code size()} compile to flat indexing of the storage, with the
 * shape passed as kernel arguments (a new shape never recompiles). As in TornadoVM, {@code (i, j)}
 * is bounds-checked only as a position in the storage.
 *
 * <pre>{@code
 * static void scale(Matrix2DDouble m, double s) {
 *   for (@Parallel int i = 0; i < m.getNumRows(); i++)
 *     for (@Parallel int j = 0; j < m.getNumColumns(); j++) m.set(i, j, s * m.get(i, j));
 * }
 * }</pre>
 */
public final class Matrix2DDouble implements NativeCollection {
  private final int rows, columns;
  private final DoubleArray storage;

  /** A zeroed matrix. */
  public Matrix2DDouble(int rows, int columns) {
    this(rows, columns, new DoubleArray(checkedSize(rows, columns)));
  }

  /** A matrix over {@code storage}, which holds {@code rows * columns} elements row-major. */
  public Matrix2DDouble(int rows, int columns, DoubleArray storage) {
    checkedSize(rows, columns);
    if (storage.getSize() != rows * columns)
      throw new IllegalArgumentException("a " + rows + " x " + columns + " matrix needs " + rows * columns + " elements, the array has " + storage.getSize());
    this.rows = rows;
    this.columns = columns;
    this.storage = storage;
  }

  /** A matrix holding a copy of {@code values} (every row the same length). */
  public Matrix2DDouble(double[][] values) {
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
  public double get(int i, int j) {
    return storage.get(i * columns + j);
  }

  /** Sets element {@code (i, j)}. */
  public void set(int i, int j, double value) {
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
  public DoubleArray getArray() {
    return storage;
  }

  /** Sets every element to {@code value}. */
  public void fill(double value) {
    storage.init(value);
  }

  /** Row {@code i} as a new vector. */
  public VectorDouble row(int i) {
    VectorDouble v = new VectorDouble(columns);
    for (int j = 0; j < columns; j++) v.set(j, get(i, j));
    return v;
  }

  /** Column {@code j} as a new vector. */
  public VectorDouble column(int j) {
    VectorDouble v = new VectorDouble(rows);
    for (int i = 0; i < rows; i++) v.set(i, get(i, j));
    return v;
  }

  /** The diagonal as a new vector. */
  public VectorDouble diag() {
    VectorDouble v = new VectorDouble(Math.min(rows, columns));
    for (int i = 0; i < v.size(); i++) v.set(i, get(i, i));
    return v;
  }

  /** A copy. */
  public Matrix2DDouble duplicate() {
    Matrix2DDouble m = new Matrix2DDouble(rows, columns);
    m.set(this);
    return m;
  }

  /** Copies {@code other}'s elements (the same number of elements) into this matrix. */
  public void set(Matrix2DDouble other) {
    if (other.size() != size()) throw new IllegalArgumentException("copying " + other.size() + " elements into " + size());
    java.lang.foreign.MemorySegment.copy(other.storage.getSegment(), 0, storage.getSegment(), 0, storage.byteSize());
  }

  /** Transposes a square matrix in place (a matrix that is not square is left as it is). */
  public static void transpose(Matrix2DDouble m) {
    if (m.rows != m.columns) return;
    for (int i = 0; i < m.rows; i++)
      for (int j = 0; j < i; j++) {
        double t = m.get(i, j);
        m.set(i, j, m.get(j, i));
        m.set(j, i, t);
      }
  }

  /** Multiplies every element by {@code value}. */
  public static void scale(Matrix2DDouble m, double value) {
    for (int k = 0; k < m.size(); k++) m.storage.set(k, m.storage.get(k) * value);
  }

  /** Sets this matrix to {@code a × b} (on the host). */
  public void multiply(Matrix2DDouble a, Matrix2DDouble b) {
    for (int i = 0; i < rows; i++)
      for (int j = 0; j < columns; j++) {
        double s = 0;
        for (int k = 0; k < b.rows; k++) s += a.get(i, k) * b.get(k, j);
        set(i, j, s);
      }
  }

  @Override
  public Matrix2DDouble withArray(NativeArray storage) {
    return new Matrix2DDouble(rows, columns, (DoubleArray) storage);
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("Matrix2DDouble <" + rows + " x " + columns + ">");
    if (rows <= 8 && columns <= 8)
      for (int i = 0; i < rows; i++) {
        b.append('\n');
        for (int j = 0; j < columns; j++) b.append(j == 0 ? "" : " ").append(get(i, j));
      }
    return b.toString();
  }
}
