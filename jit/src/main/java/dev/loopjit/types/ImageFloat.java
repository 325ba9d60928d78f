// An image of floats (X columns × Y rows), as TornadoVM's ImageFloat: pixel (x, y) is storage[y * X + x].
package dev.loopjit.types;

/**
 * A {@code X × Y} image of floats over one {@link FloatArray}, row after row. Inside a kernel
 * {@code get(x, y)} reads pixel {@code (x, y)}, {@code set(x, y, v)} writes it, {@code get(i)} and
 * {@code set(i, v)} name pixel {@code i} of the whole image, and {@code X()}, {@code Y()} and
 * {@code size()} are the shape. As a task, {@code image::fill} runs
 * {@link CollectionKernels#fill(ImageFloat, float)} on the device.
 */
public final class ImageFloat implements NativeCollection {
  private final int width, height;
  private final FloatArray storage;

  /** A zeroed image of {@code width × height} pixels. */
  public ImageFloat(int width, int height) {
    this(width, height, new FloatArray(Matrix3DShape.size(width, height, 1)));
  }

  /** An image over {@code storage}, which holds {@code width * height} floats. */
  public ImageFloat(int width, int height, FloatArray storage) {
    Matrix3DShape.check(width, height, 1, 1, storage.getSize());
    this.width = width;
    this.height = height;
    this.storage = storage;
  }

  /** An image of {@code pixels.length} columns and {@code pixels[0].length} rows: pixel {@code (x, y)} is {@code pixels[x][y]}. */
  public ImageFloat(float[][] pixels) {
    this(pixels.length, pixels.length == 0 ? 0 : pixels[0].length);
    for (int x = 0; x < width; x++)
      for (int y = 0; y < height; y++) set(x, y, pixels[x][y]);
  }

  /** Multiplies every pixel of {@code image} by {@code alpha}. */
  public static void scale(ImageFloat image, float alpha) {
    for (int i = 0; i < image.storage.getSize(); i++) image.storage.set(i, image.storage.get(i) * alpha);
  }

  /** Pixel {@code i} of the whole image (row after row). */
  public float get(int i) {
    return storage.get(i);
  }

  /** Sets pixel {@code i} of the whole image. */
  public void set(int i, float value) {
    storage.set(i, value);
  }

  /** Pixel {@code (x, y)}: column {@code x} of row {@code y}. */
  public float get(int x, int y) {
    return storage.get(pixel(x, y));
  }

  /** Sets pixel {@code (x, y)}. */
  public void set(int x, int y, float value) {
    storage.set(pixel(x, y), value);
  }

  private int pixel(int x, int y) {
    java.util.Objects.checkIndex(x, width);
    java.util.Objects.checkIndex(y, height);
    return y * width + x;
  }

  /** Copies {@code values} into the first pixels (row after row). */
  public void put(float[] values) {
    java.util.Objects.checkFromIndexSize(0, values.length, storage.getSize());
    for (int i = 0; i < values.length; i++) storage.set(i, values[i]);
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

  /** Sets every pixel to {@code value}. */
  public void fill(float value) {
    storage.init(value);
  }

  /** Copies {@code other}'s pixels into this image, which has the same shape. */
  public void set(ImageFloat other) {
    if (other.width != width || other.height != height)
      throw new IllegalArgumentException("an ImageFloat of " + other.width + "×" + other.height + " into one of " + width + "×" + height);
    java.lang.foreign.MemorySegment.copy(other.storage.getSegment(), 0, storage.getSegment(), 0, storage.byteSize());
  }

  /** A copy. */
  public ImageFloat duplicate() {
    ImageFloat c = new ImageFloat(width, height);
    c.set(this);
    return c;
  }

  /** The mean of the pixels, summed in order as floats. */
  public float mean() {
    float sum = 0f;
    for (int i = 0; i < storage.getSize(); i++) sum += storage.get(i);
    return sum / (width * height);
  }

  /** The smallest pixel ({@code Math.min} over all). */
  public float min() {
    float m = Float.POSITIVE_INFINITY;
    for (int i = 0; i < storage.getSize(); i++) m = Math.min(m, storage.get(i));
    return m;
  }

  /** The largest pixel ({@code Math.max} over all). */
  public float max() {
    float m = Float.NEGATIVE_INFINITY;
    for (int i = 0; i < storage.getSize(); i++) m = Math.max(m, storage.get(i));
    return m;
  }

  /** The pixels' standard deviation (population: the mean square distance from {@link #mean()}, square-rooted). */
  public float stdDev() {
    float mean = mean(), sum = 0f;
    for (int i = 0; i < storage.getSize(); i++) {
      float d = storage.get(i) - mean;
      sum += d * d;
    }
    return (float) Math.sqrt(sum / (width * height));
  }

  @Override
  public FloatArray getArray() {
    return storage;
  }

  @Override
  public ImageFloat withArray(NativeArray storage) {
    return new ImageFloat(width, height, (FloatArray) storage);
  }

  /** Each row on a line, each pixel formatted with {@code format} ({@code "%.3f"}, say). */
  public String toString(String format) {
    StringBuilder b = new StringBuilder();
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) b.append(String.format(format, get(x, y))).append(' ');
      b.append('\n');
    }
    return b.toString();
  }

  @Override
  public String toString() {
    return "ImageFloat <" + width + " x " + height + ">" + (width < 16 && height < 16 ? "\n" + toString("%.3f") : "");
  }
}
