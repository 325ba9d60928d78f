// An image of Float4 pixels (X columns × Y rows), as TornadoVM's ImageFloat4: pixel (x, y) is storage[(y * X + x) * 4 ..].
package dev.loopjit.types;

/**
 * A {@code X × Y} image of {@link Float4} pixels over one {@link FloatArray}, row after row, 4 floats a
 * pixel. Inside a kernel {@code get(x, y)} reads pixel {@code (x, y)} into a Float4 value,
 * {@code set(x, y, v)} writes it, {@code get(i)} and {@code set(i, v)} name pixel {@code i} of the
 * whole image, and {@code X()}, {@code Y()} and {@code size()} (pixels) are the shape. As a task,
 * {@code image::fill} runs {@link CollectionKernels#fill(ImageFloat4, float)} on the device.
 */
public final class ImageFloat4 implements NativeCollection {
  private final int width, height;
  private final FloatArray storage;

  /** A zeroed image of {@code width × height} pixels. */
  public ImageFloat4(int width, int height) {
    this(width, height, new FloatArray(Math.multiplyExact(Matrix3DShape.size(width, height, 1), 4)));
  }

  /** An image over {@code storage}, which holds {@code width * height * 4} floats. */
  public ImageFloat4(int width, int height, FloatArray storage) {
    Matrix3DShape.check(width, height, 1, 4, storage.getSize());
    this.width = width;
    this.height = height;
    this.storage = storage;
  }

  /** An image of {@code pixels.length} columns and {@code pixels[0].length / 4} rows: column {@code x} is
   * {@code pixels[x]}, pixel {@code (x, y)} its floats {@code 4·y} to {@code 4·y + 3}. */
  public ImageFloat4(float[][] pixels) {
    this(pixels.length, pixels.length == 0 ? 0 : pixels[0].length / 4);
    for (int x = 0; x < width; x++)
      for (int y = 0; y < height; y++)
        for (int k = 0; k < 4; k++) storage.set((y * width + x) * 4 + k, pixels[x][4 * y + k]);
  }

  /** Pixel {@code i} of the whole image (row after row), a new Float4. */
  public Float4 get(int i) {
    java.util.Objects.checkIndex(i, width * height);
    Float4 v = new Float4();
    for (int k = 0; k < 4; k++) v.set(k, storage.get(i * 4 + k));
    return v;
  }

  /** Sets pixel {@code i} of the whole image to {@code v}. */
  public void set(int i, Float4 v) {
    java.util.Objects.checkIndex(i, width * height);
    for (int k = 0; k < 4; k++) storage.set(i * 4 + k, v.get(k));
  }

  /** Pixel {@code (x, y)}: column {@code x} of row {@code y}, a new Float4. */
  public Float4 get(int x, int y) {
    return get(pixel(x, y));
  }

  /** Sets pixel {@code (x, y)} to {@code v}. */
  public void set(int x, int y, Float4 v) {
    set(pixel(x, y), v);
  }

  private int pixel(int x, int y) {
    java.util.Objects.checkIndex(x, width);
    java.util.Objects.checkIndex(y, height);
    return y * width + x;
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

  /** Sets every float of every pixel to {@code value}. */
  public void fill(float value) {
    storage.init(value);
  }

  /** Copies {@code other}'s pixels into this image, which has the same shape. */
  public void set(ImageFloat4 other) {
    if (other.width != width || other.height != height)
      throw new IllegalArgumentException("a ImageFloat4 of " + other.width + "×" + other.height + " into one of " + width + "×" + height);
    java.lang.foreign.MemorySegment.copy(other.storage.getSegment(), 0, storage.getSegment(), 0, storage.byteSize());
  }

  /** A copy. */
  public ImageFloat4 duplicate() {
    ImageFloat4 c = new ImageFloat4(width, height);
    c.set(this);
    return c;
  }

  @Override
  public FloatArray getArray() {
    return storage;
  }

  @Override
  public ImageFloat4 withArray(NativeArray storage) {
    return new ImageFloat4(width, height, (FloatArray) storage);
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("ImageFloat4 <" + width + " x " + height + ">");
    if (width < 16 && height < 16)
      for (int y = 0; y < height; y++) {
        b.append('\n');
        for (int x = 0; x < width; x++) b.append(x == 0 ? "" : " ").append(get(x, y));
      }
    return b.toString();
  }
}
