// An image of Byte3 pixels (X columns × Y rows), as TornadoVM's ImageByte3: pixel (x, y) is storage[(y * X + x) * 3 ..].
package dev.loopjit.types;

/**
 * A {@code X × Y} image of {@link Byte3} pixels over one {@link ByteArray}, row after row, 3 bytes a
 * pixel. Inside a kernel {@code get(x, y)} reads pixel {@code (x, y)} into a Byte3 value,
 * {@code set(x, y, v)} writes it, {@code get(i)} and {@code set(i, v)} name pixel {@code i} of the
 * whole image, and {@code X()}, {@code Y()} and {@code size()} (pixels) are the shape. As a task,
 * {@code image::fill} runs {@link CollectionKernels#fill(ImageByte3, byte)} on the device.
 */
public final class ImageByte3 extends VectorImage {
  /** A zeroed image of {@code width × height} pixels. */
  public ImageByte3(int width, int height) {
    this(width, height, new ByteArray(elements(width, height, 3)));
  }

  /** An image over {@code storage}, which holds {@code width * height * 3} bytes. */
  public ImageByte3(int width, int height, ByteArray storage) {
    super(width, height, 3, storage);
  }

  /** An image of {@code pixels.length} columns and {@code pixels[0].length / 3} rows: column {@code x} is
   * {@code pixels[x]}, pixel {@code (x, y)} its bytes {@code 3·y} to {@code 3·y + 2}. */
  public ImageByte3(byte[][] pixels) {
    this(pixels.length, pixels.length == 0 ? 0 : pixels[0].length / 3);
    for (int x = 0; x < X(); x++)
      for (int y = 0; y < Y(); y++)
        for (int k = 0; k < 3; k++) getArray().set(at(pixel(x, y)) + k, pixels[x][3 * y + k]);
  }

  /** Pixel {@code i} of the whole image (row after row), a new Byte3. */
  public Byte3 get(int i) {
    ByteArray s = getArray();
    int at = at(i);
    return new Byte3(s.get(at), s.get(at + 1), s.get(at + 2));
  }

  /** Sets pixel {@code i} of the whole image to {@code v}. */
  public void set(int i, Byte3 v) {
    int at = at(i);
    for (int k = 0; k < 3; k++) getArray().set(at + k, v.get(k));
  }

  /** Pixel {@code (x, y)}: column {@code x} of row {@code y}, a new Byte3. */
  public Byte3 get(int x, int y) {
    return get(pixel(x, y));
  }

  /** Sets pixel {@code (x, y)} to {@code v}. */
  public void set(int x, int y, Byte3 v) {
    set(pixel(x, y), v);
  }

  /** Sets every byte of every pixel to {@code value}. */
  public void fill(byte value) {
    getArray().init(value);
  }

  /** Copies {@code other}'s pixels into this image, which has the same shape. */
  public void set(ImageByte3 other) {
    copyFrom(other);
  }

  /** A copy. */
  public ImageByte3 duplicate() {
    ImageByte3 c = new ImageByte3(X(), Y());
    c.set(this);
    return c;
  }

  @Override
  public ByteArray getArray() {
    return (ByteArray) super.getArray();
  }

  @Override
  public ImageByte3 withArray(NativeArray storage) {
    return new ImageByte3(X(), Y(), (ByteArray) storage);
  }

  @Override
  Object pixelValue(int i) {
    return get(i);
  }
}
