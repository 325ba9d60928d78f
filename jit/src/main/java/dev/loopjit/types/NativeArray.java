// The off-heap array base: one zeroed, 128-byte-aligned MemorySegment per array, bounds-checked on the host.
// Not a general buffer type: kernels see only the typed subclasses' get/set/getSize.
package dev.loopjit.types;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Common base of the off-heap arrays that kernels take as parameters. Each holds exactly one
 * {@link MemorySegment}, with no header, zeroed on allocation and aligned to {@link #ALIGNMENT}
 * bytes so that a device can use it in place (zero-copy on CPU OpenCL devices, pinned on CUDA).
 *
 * <pre>{@code
 * FloatArray x = new FloatArray(1024);      // zeroed
 * x.set(3, 2.5f);
 * MemorySegment raw = x.getSegment();       // 4096 bytes, no header
 * }</pre>
 */
public abstract sealed class NativeArray
    permits FloatArray, DoubleArray, IntArray, LongArray, ShortArray, ByteArray, CharArray, HalfFloatArray {

  /** Alignment of every segment in bytes: enough for OpenCL's base-address alignment and AVX-512. */
  public static final long ALIGNMENT = 128;

  private final MemorySegment segment;
  private final int size;

  NativeArray(int size, int elementBytes) {
    if (size < 0) throw new IllegalArgumentException("array size must be >= 0, got " + size);
    this.size = size;
    // Arena.ofAuto(): freed by the GC when the array is unreachable; allocate() zeroes the memory.
    this.segment = Arena.ofAuto().allocate(Math.max(1L, (long) size * elementBytes), ALIGNMENT)
        .asSlice(0, (long) size * elementBytes);
  }

  /** Number of elements. */
  public final int getSize() {
    return size;
  }

  /** The backing memory: {@code getSize() * elementBytes()} bytes, no header. */
  public final MemorySegment getSegment() {
    return segment;
  }

  /** Bytes per element (2 for {@link HalfFloatArray}). */
  public abstract int elementBytes();

  /** Total bytes of the backing memory. */
  public final long byteSize() {
    return segment.byteSize();
  }

  /** Bytes per element, as TornadoVM names it: {@link #elementBytes()}. */
  public final int getElementSize() {
    return elementBytes();
  }

  /**
   * Bytes of the backing memory, as TornadoVM names it: {@link #byteSize()} (LoopJIT's arrays have
   * no header, so this equals {@link #getNumBytesWithoutHeader()}).
   */
  public final long getNumBytesOfSegment() {
    return byteSize();
  }

  /** Bytes of the elements, as TornadoVM names it: {@link #byteSize()}. */
  public final long getNumBytesWithoutHeader() {
    return byteSize();
  }

  /** Sets every element to zero. */
  public final void clear() {
    segment.fill((byte) 0);
  }

  final int check(int index) {
    return Objects.checkIndex(index, size);
  }

  static MemorySegment checkSource(MemorySegment source, int elementBytes) {
    Objects.requireNonNull(source, "source segment");
    if (source.byteSize() % elementBytes != 0)
      throw new IllegalArgumentException("segment of " + source.byteSize()
          + " bytes is not a whole number of " + elementBytes + "-byte elements");
    if (source.byteSize() / elementBytes > Integer.MAX_VALUE)
      throw new IllegalArgumentException("segment too large for an array: " + source.byteSize() + " bytes");
    return source;
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder(getClass().getSimpleName()).append('[').append(size).append("]{");
    int n = Math.min(size, 8);
    for (int i = 0; i < n; i++) b.append(i == 0 ? "" : ", ").append(elementString(i));
    return b.append(size > n ? ", ...}" : "}").toString();
  }

  abstract String elementString(int index);
}
