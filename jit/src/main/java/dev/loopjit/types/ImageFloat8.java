// An image of Float8 pixels (X columns × Y rows), as TornadoVM's ImageFloat8: pixel (x, y) is storage[(y * X + x) * 8 ..].
package dev.loopjit.types;

/**
 * A {@code X × Y} image of {@link Float8} pixels over one {@link FloatArray}, row after row, 8 floats a
 * pixel. Inside a kernel {@code get(x, y)} reads pixel {@code (x, y)} into a Float8 value,
 * {@code set(x, y, v)} writes it, {@code get(i)} and {@code set(i, v)} name pixel {@code i} of the
 * whole image, and {@code X()}, {@code Y()} and {@code size()} (pixels) are the shape. As a task,
 * {@code image::fill} runs {@link CollectionKernels#fill(ImageFloat8, float)} on the device.
 */
public final class ImageFloat8 extends VectorImage {
  /** A zeroed image of {@code width × height} pixels. */
  public ImageFloat8(int width, int height) {
    this(width, height, new FloatArray(elements(width, height, 8)));
  }

  /** An image over {@code storage}, which holds {@code width * height * 8} floats. */
  public ImageFloat8(int width, int height, FloatArray storage) {
    super(width, height, 8, storage);
  }

  /** Pixel {@code i} of the whole image (row after row), a new Float8. */
  public Float8 get(int i) {
    FloatArray s = getArray();
    int at = at(i);
    return new Float8(s.get(at), s.get(at + 1), s.get(at + 2), s.get(at + 3), s.get(at + 4), s.get(at + 5), s.get(at + 6), s.get(at + 7));
  }

  /** Sets pixel {@code i} of the whole image to {@code v}. */
  public void set(int i, Float8 v) {
    int at = at(i);
    for (int k = 0; k < 8; k++) getArray().set(at + k, v.get(k));
  }

  /** Pixel {@code (x, y)}: column {@code x} of row {@code y}, a new Float8. */
  public Float8 get(int x, int y) {
    return get(pixel(x, y));
  }

  /** Sets pixel {@code (x, y)} to {@code v}. */
  public void set(int x, int y, Float8 v) {
    set(pixel(x, y), v);
  }

  /** Sets every float of every pixel to {@code value}. */
  public void fill(float value) {
    getArray().init(value);
  }

  /** Copies {@code other}'s pixels into this image, which has the same shape. */
  public void set(ImageFloat8 other) {
    copyFrom(other);
  }

  /** A copy. */
  public ImageFloat8 duplicate() {
    ImageFloat8 c = new ImageFloat8(X(), Y());
    c.set(this);
    return c;
  }

  @Override
  public FloatArray getArray() {
    return (FloatArray) super.getArray();
  }

  @Override
  public ImageFloat8 withArray(NativeArray storage) {
    return new ImageFloat8(X(), Y(), (FloatArray) storage);
  }

  @Override
  Object pixelValue(int i) {
    return get(i);
  }
}
