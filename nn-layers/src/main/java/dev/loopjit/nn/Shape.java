// The shape of one example as it flows through a model: (features) for dense layers, (channels, height, width) for images.
package dev.loopjit.nn;

import java.util.Arrays;

/**
 * The shape of one row of a batch, without the batch dimension: {@code Shape.of(784)} for a
 * vector of features, {@code Shape.of(1, 28, 28)} for an image of one channel (NCHW, so the
 * batch's array is (B, C, H, W) row-major). A shape has one to three dimensions, each positive.
 *
 * <pre>{@code
 * Sequential.of(Layer.shape(1, 28, 28), Layer.conv(32, 3), Layer.relu(), Layer.flatten(), Layer.dense(10));
 * }</pre>
 */
public final class Shape {
  private final int[] dims;

  private Shape(int[] dims) {
    if (dims.length < 1 || dims.length > 3) throw new IllegalArgumentException("a shape has 1 to 3 dimensions, not " + dims.length);
    long size = 1;
    for (int d : dims) {
      if (d <= 0) throw new IllegalArgumentException("shape " + Arrays.toString(dims) + " has a dimension " + d + " ≤ 0");
      size *= d;
    }
    if (size > Integer.MAX_VALUE / 4) throw new IllegalArgumentException("shape " + Arrays.toString(dims) + " has more than 2^29 elements");
    this.dims = dims.clone();
  }

  /** A shape of these dimensions: (features), or (channels, height, width); (rows, columns) works too. */
  public static Shape of(int... dims) {
    return new Shape(dims);
  }

  /** An image of {@code channels} planes of {@code height × width}. */
  public static Shape image(int channels, int height, int width) {
    return new Shape(new int[] {channels, height, width});
  }

  /** How many dimensions: 1 for features, 3 for images. */
  public int rank() {
    return dims.length;
  }

  /** Dimension {@code i}. */
  public int dim(int i) {
    return dims[i];
  }

  /** The number of elements: the product of the dimensions. */
  public int size() {
    int s = 1;
    for (int d : dims) s *= d;
    return s;
  }

  /** Whether this is (channels, height, width). */
  public boolean isImage() {
    return dims.length == 3;
  }

  /** Channels of an image (or the features of a vector): the first dimension. */
  public int channels() {
    return dims[0];
  }

  /** Elements per channel: height × width of an image, 1 for a vector. */
  public int spatial() {
    return size() / dims[0];
  }

  /** The dimensions, a copy. */
  public int[] dims() {
    return dims.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Shape s && Arrays.equals(dims, s.dims);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(dims);
  }

  /** {@code (1, 28, 28)}, {@code (784)}. */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("(");
    for (int i = 0; i < dims.length; i++) b.append(i > 0 ? ", " : "").append(dims[i]);
    return b.append(')').toString();
  }
}
