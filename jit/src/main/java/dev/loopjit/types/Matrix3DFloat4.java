// A 3-D matrix of Float4 over off-heap memory, as TornadoVM's Matrix3DFloat4: get(i, j, k) in a kernel reads storage[((i * y + j) * z + k) * 4 ..].
package dev.loopjit.types;

/**
 * An {@code x × y × z} matrix of {@link Float4}s, stored with {@code k} fastest as consecutive floats
 * in one {@link FloatArray}. Inside a kernel {@code get(i, j, k)} reads the four floats of an element
 * into a {@code Float4} value and {@code set(i, j, k, v)} writes them; the sizes count Float4s.
 */
public final class Matrix3DFloat4 implements NativeCollection {
  private final int x, y, z;
  private final FloatArray storage;

  /** A zeroed matrix. */
  public Matrix3DFloat4(int x, int y, int z) {
    this(x, y, z, new FloatArray(Math.multiplyExact(Matrix3DShape.size(x, y, z), 4)));
  }

  /** A matrix over {@code storage}, which holds {@code x * y * z * 4} floats. */
  public Matrix3DFloat4(int x, int y, int z, FloatArray storage) {
    Matrix3DShape.check(x, y, z, 4, storage.getSize());
    this.x = x;
    this.y = y;
    this.z = z;
    this.storage = storage;
  }

  /** Element {@code (i, j, k)}, a new Float4. */
  public Float4 get(int i, int j, int k) {
    int at = 4 * ((i * y + j) * z + k);
    return new Float4(storage.get(at), storage.get(at + 1), storage.get(at + 2), storage.get(at + 3));
  }

  /** Sets element {@code (i, j, k)} to {@code v}'s four floats. */
  public void set(int i, int j, int k, Float4 v) {
    int at = 4 * ((i * y + j) * z + k);
    for (int c = 0; c < 4; c++) storage.set(at + c, v.get(c));
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

  /** Floats of storage: {@code x * y * z * 4}. */
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
  public Matrix3DFloat4 duplicate() {
    return new Matrix3DFloat4(x, y, z, FloatArray.fromArray(storage.toArray()));
  }

  @Override
  public Matrix3DFloat4 withArray(NativeArray storage) {
    return new Matrix3DFloat4(x, y, z, (FloatArray) storage);
  }

  @Override
  public String toString() {
    return "Matrix3DFloat4 <" + x + " x " + y + " x " + z + ">";
  }
}
