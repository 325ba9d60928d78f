// An image of Byte4 pixels (X columns × Y rows), as TornadoVM's ImageByte4: pixel (x, y) is storage[(y * X + x) * 4 ..].
package dev.loopjit.types;

/**
 * A {@code X × Y} image of {@link Byte4} pixels over one {@link ByteArray}, row after row, 4 bytes a
 * pixel. Inside a kernel {@code get(x, y)} reads pixel {@code (x, y)} into a Byte4 value,
 * {@code set(x, y, v)} writes it, {@code get(i)} and {@code set(i, v)} name pixel {@code i} of the
 * whole image, and {@code X()}, {@code Y()} and {@code size()} (pixels) are the shape. As a task,
 * {@code image::fill} runs {@link CollectionKernels#fill(ImageByte4, byte)} on the device.
 */
public final class ImageByte4 implements NativeCollection {
  private final int width, height;
  private final ByteArray storage;

  /** A zeroed image of {@code width × height} pixels. */
  public ImageByte4(int width, int height) {
    this(width, height, new ByteArray(Math.multiplyExact(Matrix3DShape.size(width, height, 1), 4)));
  }

  /** An image over {@code storage}, which holds {@code width * height * 4} bytes. */
  public ImageByte4(int width, int height, ByteArray storage) {
    Matrix3DShape.check(width, height, 1, 4, storage.getSize());
    this.width = width;
    this.height = height;
    this.storage = storage;
  }

  /** An image of {@code pixels.length} columns and {@code pixels[0].length / 4} rows: column {@code x} is
   * {@code pixels[x]}, pixel {@code (x, y)} its bytes {@code 4·y} to {@code 4·y + 3}. */
  public ImageByte4(byte[][] pixels) {
    this(pixels.length, pixels.length == 0 ? 0 : pixels[0].length / 4);
    for (int x = 0; x < width; x++)
      for (int y = 0; y < height; y++)
        for (int k = 0; k < 4; k++) storage.set((y * width + x) * 4 + k, pixels[x][4 * y + k]);
  }

  /** Pixel {@code i} of the whole image (row after row), a new Byte4. */
  public Byte4 get(int i) {
    java.util.Objects.checkIndex(i, width * height);
    Byte4 v = new Byte4();
    for (int k = 0; k < 4; k++) v.set(k, storage.get(i * 4 + k));
    return v;
  }

  /** Sets pixel {@code i} of the whole image to {@code v}. */
  public void set(int i, Byte4 v) {
    java.util.Objects.checkIndex(i, width * height);
    for (int k = 0; k < 4; k++) storage.set(i * 4 + k, v.get(k));
  }

  /** Pixel {@code (x, y)}: column {@code x} of row {@code y}, a new Byte4. */
  public Byte4 get(int x, int y) {
    return get(pixel(x, y));
  }

  /** Sets pixel {@code (x, y)} to {@code v}. */
  public void set(int x, int y, Byte4 v) {
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

  /** Sets every byte of every pixel to {@code value}. */
  public void fill(byte value) {
    storage.init(value);
  }

  /** Copies {@code other}'s pixels into this image, which has the same shape. */
  public void set(ImageByte4 other) {
    if (other.width != width || other.height != height)
      throw new IllegalArgumentException("a ImageByte4 of " + other.width + "×" + other.height + " into one of " + width + "×" + height);
    java.lang.foreign.MemorySegment.copy(other.storage.getSegment(), 0, storage.getSegment(), 0, storage.byteSize());
  }

  /** A copy. */
  public ImageByte4 duplicate() {
    ImageByte4 c = new ImageByte4(width, height);
    c.set(this);
    return c;
  }

  @Override
  public ByteArray getArray() {
    return storage;
  }

  @Override
  public ImageByte4 withArray(NativeArray storage) {
    return new ImageByte4(width, height, (ByteArray) storage);
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("ImageByte4 <" + width + " x " + height + ">");
    if (width < 16 && height < 16)
      for (int y = 0; y < height; y++) {
        b.append('\n');
        for (int x = 0; x < width; x++) b.append(x == 0 ? "" : " ").append(get(x, y));
      }
    return b.toString();
  }
}
