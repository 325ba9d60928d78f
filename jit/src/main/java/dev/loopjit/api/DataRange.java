// A part of an off-heap array, as TornadoVM's DataRange: what ExecutionResult.transferToHost(DataRange) copies back.
package dev.loopjit.api;

import dev.loopjit.types.NativeArray;
import java.util.Objects;

/**
 * Elements [{@code offset}, {@code offset + size}) of an array, for copying only them back from the
 * device ({@link ExecutionResult#transferToHost(DataRange)}), as TornadoVM programs write it:
 *
 * <pre>{@code
 * DataRange r = new DataRange(out);
 * result.transferToHost(r.withSize(n / 2));                    // the first half
 * result.transferToHost(r.withOffset(n / 2).withSize(n / 2));  // then the second
 * }</pre>
 *
 * Without {@code withSize} the range runs to the end of the array. A range outside the array is
 * refused when it is copied.
 */
public final class DataRange {
  private final NativeArray array;
  private long offset;
  private long size = -1;

  /** The whole of {@code array}, until {@code withOffset} and {@code withSize} narrow it. */
  public DataRange(NativeArray array) {
    this.array = Objects.requireNonNull(array, "array");
  }

  /** Starts the range at element {@code offset}; returns this range. */
  public DataRange withOffset(long offset) {
    this.offset = offset;
    return this;
  }

  /** Makes the range {@code size} elements long; returns this range. */
  public DataRange withSize(long size) {
    this.size = size;
    return this;
  }

  /** The array. */
  public NativeArray getArray() {
    return array;
  }

  /** The first element. */
  public long getOffset() {
    return offset;
  }

  /** The number of elements: as given, or to the end of the array. */
  public long getPartialSize() {
    return size < 0 ? array.getSize() - offset : size;
  }

  /** Refuses a range that is not inside the array. */
  void check() {
    long n = getPartialSize();
    if (offset < 0 || n < 0 || offset + n > array.getSize())
      throw new IllegalArgumentException("DataRange of " + n + " elements at " + offset + " is outside " + array.getClass().getSimpleName()
          + "[" + array.getSize() + "]");
  }
}
