// An image of Float4 pixels (X columns × Y rows), as TornadoVM's ImageFloat4: pixel (x, y) is storage[(y * X + x) * 4 ..].
package dev.loopjit.types;

/**
 * A {@code X × Y} image of {@link Float4} pixels over one {@link FloatArray}, row after row, 4 floats a
 * pixel. Inside a kernel {@code get(x, y)} reads pixel {@code (x, y)} into a Float4 value,
 * {@code set(x, y, v)} writes it, {@code get(i)} and {@code set(i, v)} name pixel {@code i} of the
 * whole image, and {@code X()}, {@code Y()} and {@code size()} (pixels) are the shape. As a task,
 * {@code image::fill} runs {@link CollectionKernels#fill(ImageFloat4, float)} on the device.
 */
public final class ImageFloat4 extends VectorImage {
  /** A zeroed image of {@code width × height} pixels. */
  public ImageFloat4(int width, int height) {
    this(width, height, new FloatArray(elements(width, height, 4)));
  }

  /** An image over {@code storage}, which holds {@code width * height * 4} floats. */
  public ImageFloat4(int width, int height, FloatArray storage) {
    super(width, height, 4, storage);
  }

  /** An image of {@code pixels.length} columns and {@code pixels[0].length / 4} rows: column {@code x} is
   * {@code pixels[x]}, pixel {@code (x, y)} its floats {@code 4·y} to {@code 4·y + 3}. */
  public ImageFloat4(float[][] pixels) {
    this(pixels.length, pixels.length == 0 ? 0 : pixels[0].length / 4);
    for (int x = 0; x < X(); x++)
      for (int y = 0; y < Y(); y++)
        for (int k = 0; k < 4; k++) getArray().set(at(pixel(x, y)) + k, pixels[x][4 * y + k]);
  }

  /** Pixel {@code i} of the whole image (row after row), a new Float4. */
  public Float4 get(int i) {
    FloatArray s = getArray();
    int at = at(i);
    return new Float4(s.get(at), s.get(at + 1), s.get(at + 2), s.get(at + 3));
  }

  /** Sets pixel {@code i} of the whole image to {@code v}. */
  public void set(int i, Float4 v) {
    int at = at(i);
    for (int k = 0; k < 4; k++) getArray().set(at + k, v.get(k));
  }

  /** Pixel {@code (x, y)}: column {@code x} of row {@code y}, a new Float4. */
  public Float4 get(int x, int y) {
    return get(pixel(x, y));
  }

  /** Sets pixel {@code (x, y)} to {@code v}. */
  public void set(int x, int y, Float4 v) {
    set(pixel(x, y), v);
  }

  /** Sets every float of every pixel to {@code value}. */
  public void fill(float value) {
    getArray().init(value);
  }

  /** Copies {@code other}'s pixels into this image, which has the same shape. */
  public void set(ImageFloat4 other) {
    copyFrom(other);
  }

  /** A copy. */
  public ImageFloat4 duplicate() {
    ImageFloat4 c = new ImageFloat4(X(), Y());
    c.set(this);
    return c;
  }

  @Override
  public FloatArray getArray() {
    return (FloatArray) super.getArray();
  }

  @Override
  public ImageFloat4 withArray(NativeArray storage) {
    return new ImageFloat4(X(), Y(), (FloatArray) storage);
  }

  @Override
  Object pixelValue(int i) {
    return get(i);
  }
}
