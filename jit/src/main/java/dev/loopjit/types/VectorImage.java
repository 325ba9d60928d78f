// What the images of vector pixels (ImageFloat3/4/8, ImageByte3/4) share: X × Y pixels of n elements, row after row, over one array.
package dev.loopjit.types;

/**
 * The shape, the indexing and the host-side copies of an image whose pixels are vectors of
 * {@code n} elements; each subclass adds its typed {@code get}/{@code set}, {@code fill} and
 * factories. Kernels never run this code: the compiler reads {@code get(x, y)}, {@code X()} and the
 * others as flat indexing of the storage (compiler/OffHeapCollections).
 */
abstract sealed class VectorImage implements NativeCollection permits ImageFloat3, ImageFloat4, ImageFloat8, ImageByte3, ImageByte4 {
  private final int width, height, n;
  private final NativeArray storage;

  VectorImage(int width, int height, int n, NativeArray storage) {
    Matrix3DShape.check(width, height, 1, n, storage.getSize());
    this.width = width;
    this.height = height;
    this.n = n;
    this.storage = storage;
  }

  /** Elements of storage a {@code width × height} image of {@code n}-element pixels takes. */
  static int elements(int width, int height, int n) {
    return Math.multiplyExact(Matrix3DShape.size(width, height, 1), n);
  }

  /** The storage index of pixel {@code i}'s first element. */
  final int at(int i) {
    return java.util.Objects.checkIndex(i, width * height) * n;
  }

  /** Pixel {@code (x, y)}: column {@code x} of row {@code y}. */
  final int pixel(int x, int y) {
    return java.util.Objects.checkIndex(y, height) * width + java.util.Objects.checkIndex(x, width);
  }

  /** Columns (the width). */
  public int X() {
    return width;
  }

  /** Rows (the height). */
  public int Y() {
    return height;
  }

  /** Pixels: {@code X() * Y()}. */
  public int size() {
    return width * height;
  }

  /** Copies {@code other}'s pixels into this image, which has the same shape. */
  final void copyFrom(VectorImage other) {
    if (other.width != width || other.height != height)
      throw new IllegalArgumentException("an image of " + other.width + "×" + other.height + " into one of " + width + "×" + height);
    java.lang.foreign.MemorySegment.copy(other.storage.getSegment(), 0, storage.getSegment(), 0, storage.byteSize());
  }

  @Override
  public NativeArray getArray() {
    return storage;
  }

  /** Pixel {@code i}, for {@link #toString()}. */
  abstract Object pixelValue(int i);

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder(getClass().getSimpleName() + " <" + width + " x " + height + ">");
    if (width < 16 && height < 16)
      for (int y = 0; y < height; y++) {
        b.append('\n');
        for (int x = 0; x < width; x++) b.append(x == 0 ? "" : " ").append(pixelValue(pixel(x, y)));
      }
    return b.toString();
  }
}
