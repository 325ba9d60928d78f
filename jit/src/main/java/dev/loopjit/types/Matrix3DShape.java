// The checks every 3-D matrix makes of its shape: sizes that fit an array, storage of the right length.
package dev.loopjit.types;

/** Shape checks shared by the 3-D matrices and the matrices of Float4s. */
final class Matrix3DShape {
  private Matrix3DShape() {}

  /** {@code x * y * z}, refusing negative sizes and products past an array's length. */
  static int size(int x, int y, int z) {
    if (x < 0 || y < 0 || z < 0 || (long) x * y * z > Integer.MAX_VALUE)
      throw new IllegalArgumentException("a matrix of " + x + " x " + y + " x " + z + " elements");
    return x * y * z;
  }

  /** Refuses storage that does not hold {@code x * y * z} elements of {@code width} values each. */
  static void check(int x, int y, int z, int width, int storage) {
    long need = (long) size(x, y, z) * width;
    if (storage != need)
      throw new IllegalArgumentException("a " + x + " x " + y + " x " + z + " matrix" + (width > 1 ? " of " + width + "-wide values" : "") + " needs " + need
          + " elements, the array has " + storage);
  }
}
