// A volume of Short2 voxels (X × Y × Z), as TornadoVM's VolumeShort2: voxel (x, y, z) is storage[((z * Y + y) * X + x) * 2 ..].
package dev.loopjit.types;

/**
 * A {@code X × Y × Z} volume of {@link Short2} voxels over one {@link ShortArray}: rows of X voxels,
 * Y rows a slice, Z slices, two shorts a voxel. Inside a kernel {@code get(x, y, z)} reads a voxel
 * into a Short2 value, {@code set(x, y, z, v)} writes it, and {@code X()}, {@code Y()}, {@code Z()}
 * and {@code size()} (voxels) are the shape. As a task, {@code volume::fill} runs
 * {@link CollectionKernels#fill(VolumeShort2, short)} on the device.
 */
public final class VolumeShort2 implements NativeCollection {
  private final int width, height, depth;
  private final ShortArray storage;

  /** A zeroed volume. */
  public VolumeShort2(int width, int height, int depth) {
    this(width, height, depth, new ShortArray(Math.multiplyExact(Matrix3DShape.size(width, height, depth), 2)));
  }

  /** A volume over {@code storage}, which holds {@code width * height * depth * 2} shorts. */
  public VolumeShort2(int width, int height, int depth, ShortArray storage) {
    Matrix3DShape.check(width, height, depth, 2, storage.getSize());
    this.width = width;
    this.height = height;
    this.depth = depth;
    this.storage = storage;
  }

  /** Voxel {@code (x, y, z)}, a new Short2. */
  public Short2 get(int x, int y, int z) {
    int at = voxel(x, y, z);
    return new Short2(storage.get(at), storage.get(at + 1));
  }

  /** Sets voxel {@code (x, y, z)} to {@code v}. */
  public void set(int x, int y, int z, Short2 v) {
    int at = voxel(x, y, z);
    storage.set(at, v.getX());
    storage.set(at + 1, v.getY());
  }

  private int voxel(int x, int y, int z) {
    java.util.Objects.checkIndex(x, width);
    java.util.Objects.checkIndex(y, height);
    java.util.Objects.checkIndex(z, depth);
    return ((z * height + y) * width + x) * 2;
  }

  public int X() {
    return width;
  }

  public int Y() {
    return height;
  }

  public int Z() {
    return depth;
  }

  /** Voxels: {@code X() * Y() * Z()}. */
  public int size() {
    return width * height * depth;
  }

  /** Sets both shorts of every voxel to {@code value}. */
  public void fill(short value) {
    storage.init(value);
  }

  /** Copies {@code other}'s voxels into this volume, which has the same shape. */
  public void set(VolumeShort2 other) {
    if (other.width != width || other.height != height || other.depth != depth)
      throw new IllegalArgumentException("a VolumeShort2 of " + other.width + "×" + other.height + "×" + other.depth + " into one of " + width + "×"
          + height + "×" + depth);
    java.lang.foreign.MemorySegment.copy(other.storage.getSegment(), 0, storage.getSegment(), 0, storage.byteSize());
  }

  /** A copy. */
  public VolumeShort2 duplicate() {
    VolumeShort2 c = new VolumeShort2(width, height, depth);
    c.set(this);
    return c;
  }

  @Override
  public ShortArray getArray() {
    return storage;
  }

  @Override
  public VolumeShort2 withArray(NativeArray storage) {
    return new VolumeShort2(width, height, depth, (ShortArray) storage);
  }

  @Override
  public String toString() {
    return "VolumeShort2 <" + width + " x " + height + " x " + depth + ">";
  }
}
