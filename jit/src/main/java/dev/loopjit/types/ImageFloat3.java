// An image of Float3 pixels (X columns × Y rows), as TornadoVM's ImageFloat3: pixel (x, y) is storage[(y * X + x) * 3 ..].
package dev.loopjit.types;

/**
 * A {@code X × Y} image of {@link Float3} pixels over one {@link FloatArray}, row after row, 3 floats a
 * pixel. Inside a kernel {@code get(x, y)} reads pixel {@code (x, y)} into a Float3 value,
 * {@code set(x, y, v)} writes it, {@code get(i)} and {@code set(i, v)} name pixel {@code i} of the
 * whole image, and {@code X()}, {@code Y()} and {@code size()} (pixels) are the shape. As a task,
 * {@code image::fill} runs {@link CollectionKernels#fill(ImageFloat3, float)} on the device.
 */
public final class ImageFloat3 extends VectorImage {
  /** A zeroed image of {@code width × height} pixels. */
  public ImageFloat3(int width, int height) {
    this(width, height, new FloatArray(elements(width, height, 3)));
  }

  /** An image over {@code storage}, which holds {@code width * height * 3} floats. */
  public ImageFloat3(int width, int height, FloatArray storage) {
    super(width, height, 3, storage);
  }

  /** An image of {@code pixels.length} columns and {@code pixels[0].length / 3} rows: column {@code x} is
   * {@code pixels[x]}, pixel {@code (x, y)} its floats {@code 3·y} to {@code 3·y + 2}. */
  public ImageFloat3(float[][] pixels) {
    this(pixels.length, pixels.length == 0 ? 0 : pixels[0].length / 3);
    for (int x = 0; x < X(); x++)
      for (int y = 0; y < Y(); y++)
        for (int k = 0; k < 3; k++) getArray().set(at(pixel(x, y)) + k, pixels[x][3 * y + k]);
  }

  /** Pixel {@code i} of the whole image (row after row), a new Float3. */
  public Float3 get(int i) {
    FloatArray s = getArray();
    int at = at(i);
    return new Float3(s.get(at), s.get(at + 1), s.get(at + 2));
  }

  /** Sets pixel {@code i} of the whole image to {@code v}. */
  public void set(int i, Float3 v) {
    int at = at(i);
    for (int k = 0; k < 3; k++) getArray().set(at + k, v.get(k));
  }

  /** Pixel {@code (x, y)}: column {@code x} of row {@code y}, a new Float3. */
  public Float3 get(int x, int y) {
    return get(pixel(x, y));
  }

  /** Sets pixel {@code (x, y)} to {@code v}. */
  public void set(int x, int y, Float3 v) {
    set(pixel(x, y), v);
  }

  /** Sets every float of every pixel to {@code value}. */
  public void fill(float value) {
    getArray().init(value);
  }

  /** Copies {@code other}'s pixels into this image, which has the same shape. */
  public void set(ImageFloat3 other) {
    copyFrom(other);
  }

  /** A copy. */
  public ImageFloat3 duplicate() {
    ImageFloat3 c = new ImageFloat3(X(), Y());
    c.set(this);
    return c;
  }

  @Override
  public FloatArray getArray() {
    return (FloatArray) super.getArray();
  }

  @Override
  public ImageFloat3 withArray(NativeArray storage) {
    return new ImageFloat3(X(), Y(), (FloatArray) storage);
  }

  @Override
  Object pixelValue(int i) {
    return get(i);
  }
}
