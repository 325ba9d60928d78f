// A 3-D double matrix over off-heap memory, as TornadoVM's Matrix3DDouble: get(i, j, k) in a kernel is storage[(i * y + j) * z + k].
package dev.loopjit.types;

/**
 * An {@code x × y × z} matrix of {@code double}, stored with {@code k} fastest in one {@link DoubleArray}.
 * Inside a kernel {@code get(i, j, k)}, {@code set(i, j, k, v)}, {@code getSizeX()}…{@code getSizeZ()}
 * and {@code size()} compile to flat indexing of the storage, with the shape passed as kernel
 * arguments (a new shape never recompiles). As {@link Matrix2DFloat}, {@code (i, j, k)} is
 * bounds-checked only as a position in the storage.
 */
public final class Matrix3DDouble implements NativeCollection {
  private final int x, y, z;
  private final DoubleArray storage;

  /** A zeroed matrix. */
  public Matrix3DDouble(int x, int y, int z) {
    this(x, y, z, new DoubleArray(Matrix3DShape.size(x, y, z)));
  }

  /** A matrix over {@code storage}, which holds {@code x * y * z} elements. */
  public Matrix3DDouble(int x, int y, int z, DoubleArray storage) {
    Matrix3DShape.check(x, y, z, 1, storage.getSize());
    this.x = x;
    this.y = y;
    this.z = z;
    this.storage = storage;
  }

  /** A matrix holding a copy of {@code values} (every row and column the same length). */
  public Matrix3DDouble(double[][][] values) {
    this(values.length, values.length == 0 ? 0 : values[0].length, values.length == 0 || values[0].length == 0 ? 0 : values[0][0].length);
    for (int i = 0; i < x; i++)
      for (int j = 0; j < y; j++) {
        if (values[i][j].length != z) throw new IllegalArgumentException("values[" + i + "][" + j + "] has " + values[i][j].length + " elements, not " + z);
        for (int k = 0; k < z; k++) set(i, j, k, values[i][j][k]);
      }
  }

  /** Element {@code (i, j, k)}. */
  public double get(int i, int j, int k) {
    return storage.get((i * y + j) * z + k);
  }

  /** Sets element {@code (i, j, k)}. */
  public void set(int i, int j, int k, double value) {
    storage.set((i * y + j) * z + k, value);
  }

  public int getSizeX() {
    return x;
  }

  public int getSizeY() {
    return y;
  }

  public int getSizeZ() {
    return z;
  }

  /** Elements: {@code x * y * z}. */
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

  /** A copy. */
  public Matrix3DDouble duplicate() {
    return new Matrix3DDouble(x, y, z, DoubleArray.fromArray(storage.toArray()));
  }

  @Override
  public Matrix3DDouble withArray(NativeArray storage) {
    return new Matrix3DDouble(x, y, z, (DoubleArray) storage);
  }

  @Override
  public String toString() {
    return "Matrix3DDouble <" + x + " x " + y + " x " + z + ">";
  }
}
