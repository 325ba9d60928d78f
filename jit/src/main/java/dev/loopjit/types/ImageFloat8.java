// An image of Float8 pixels (X columns × Y rows), as TornadoVM's ImageFloat8: pixel (x, y) is storage[(y * X + x) * 8 ..].
package dev.loopjit.types;

/**
 * A {@code X × Y} image of {@link Float8} pixels over one {@link FloatArray}, row after row, 8 floats a
 * pixel. Inside a kernel {@code get(x, y)} reads pixel {@code (x, y)} into a Float8 value,
 * {@code set(x, y, v)} writes it, {@code get(i)} and {@code set(i, v)} name pixel {@code i} of the
 * whole image, and {@code X()}, {@code Y()} and {@code size()} (pixels) are the shape. As a task,
 * {@code image::fill} runs {@link CollectionKernels#fill(ImageFloat8, float)} on the device.
 */
public final class ImageFloat8 implements NativeCollection {
  private final int width, height;
  private final FloatArray storage;

  /** A zeroed image of {@code width × height} pixels. */
  public ImageFloat8(int width, int height) {
    this(width, height, new FloatArray(Math.multiplyExact(Matrix3DShape.size(width, height, 1), 8)));
  }

  /** An image over {@code storage}, which holds {@code width * height * 8} floats. */
  public ImageFloat8(int width, int height, FloatArray storage) {
    Matrix3DShape.check(width, height, 1, 8, storage.getSize());
    this.width = width;
    this.height = height;
    this.storage = storage;
  }

  /** Pixel {@code i} of the whole image (row after row), a new Float8. */
  public Float8 get(int i) {
    java.util.Objects.checkIndex(i, width * height);
    Float8 v = new Float8();
    for (int k = 0; k < 8; k++) v.set(k, storage.get(i * 8 + k));
    return v;
  }

  /** Sets pixel {@code i} of the whole image to {@code v}. */
  public void set(int i, Float8 v) {
    java.util.Objects.checkIndex(i, width * height);
    for (int k = 0; k < 8; k++) storage.set(i * 8 + k, v.get(k));
  }

  /** Pixel {@code (x, y)}: column {@code x} of row {@code y}, a new Float8. */
  public Float8 get(int x, int y) {
    return get(pixel(x, y));
  }

  /** Sets pixel {@code (x, y)} to {@code v}. */
  public void set(int x, int y, Float8 v) {
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
  public void set(ImageFloat8 other) {
    if (other.width != width || other.height != height)
      throw new IllegalArgumentException("a ImageFloat8 of " + other.width + "×" + other.height + " into one of " + width + "×" + height);
    java.lang.foreign.MemorySegment.copy(other.storage.getSegment(), 0, storage.getSegment(), 0, storage.byteSize());
  }

  /** A copy. */
  public ImageFloat8 duplicate() {
    ImageFloat8 c = new ImageFloat8(width, height);
    c.set(this);
    return c;
  }

  @Override
  public FloatArray getArray() {
    return storage;
  }

  @Override
  public ImageFloat8 withArray(NativeArray storage) {
    return new ImageFloat8(width, height, (FloatArray) storage);
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("ImageFloat8 <" + width + " x " + height + ">");
    if (width < 16 && height < 16)
      for (int y = 0; y < height; y++) {
        b.append('\n');
        for (int x = 0; x < width; x++) b.append(x == 0 ? "" : " ").append(get(x, y));
      }
    return b.toString();
  }
}
