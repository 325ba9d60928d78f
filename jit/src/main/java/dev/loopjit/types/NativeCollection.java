// The off-heap collections (matrices and vectors) kernels take: each is a shape over one off-heap array.
package dev.loopjit.types;

import java.lang.foreign.MemorySegment;

/**
 * A collection over one off-heap array: a row-major matrix ({@link Matrix2DFloat}, …) or a vector
 * ({@link VectorFloat}, {@link VectorFloat4}, …) or an image ({@link ImageFloat}, {@link ImageByte4}, …). Kernels take it as a parameter; the JIT turns
 * {@code get(i, j)} into {@code storage[i * columns + j]} and passes the shape as kernel arguments.
 * Transfers move the storage; a task graph should name the collection, not its storage array
 * ({@link #getArray()}), in its tasks and transfers (the two are different host objects to a plan).
 */
public sealed interface NativeCollection
    permits Matrix2DFloat, Matrix2DInt, Matrix2DDouble, VectorFloat, VectorInt, VectorDouble, VectorFloat4,
    Matrix2DFloat4, Matrix3DFloat, Matrix3DInt, Matrix3DDouble, Matrix3DLong, Matrix3DShort, Matrix3DFloat4,
    VectorFloat2, VectorFloat3, VectorFloat8, VectorFloat16, VectorInt2, VectorInt3, VectorInt4, VectorInt8, VectorInt16, VectorDouble2, VectorDouble3, VectorDouble4, VectorDouble8, VectorDouble16,
    ImageFloat, VectorImage, VolumeShort2, Matrix4x4Float {
  /** The off-heap array holding the elements (row-major for matrices). */
  NativeArray getArray();

  /** The storage's memory. */
  default MemorySegment getSegment() {
    return getArray().getSegment();
  }

  /** Bytes of the storage. */
  default long getNumBytes() {
    return getArray().byteSize();
  }

  /** Sets every element to zero. */
  default void clear() {
    getArray().clear();
  }

  /** A collection of the same class and shape over {@code storage} (a zeroed array of the same type and size, say). */
  NativeCollection withArray(NativeArray storage);
}
