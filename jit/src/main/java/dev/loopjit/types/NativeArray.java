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
public abstract sealed class NativeArray implements TornadoNativeArray
    permits FloatArray, DoubleArray, IntArray, LongArray, ShortArray, ByteArray, Int8Array, CharArray, HalfFloatArray, BFloat16Array, FP8Array {

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

  /**
   * An array over {@code segment} itself, sharing its memory (TornadoVM's {@code fromSegmentShallow}):
   * its size must be a whole number of elements; it is aligned as the segment is.
   */
  NativeArray(MemorySegment segment, int elementBytes) {
    checkSource(segment, elementBytes);
    this.segment = segment;
    this.size = (int) (segment.byteSize() / elementBytes);
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

  /**
   * The backing memory with TornadoVM's header, as TornadoVM names it: LoopJIT's arrays have no
   * header, so this is {@link #getSegment()}.
   */
  public final MemorySegment getSegmentWithHeader() {
    return segment;
  }

  /** Bytes of the backing memory with TornadoVM's header: {@link #byteSize()} (LoopJIT's arrays have none). */
  public final long getNumBytesOfSegmentWithHeader() {
    return byteSize();
  }

  /** The number of elements of {@code arrays} together, for a concatenation. */
  static int totalSize(NativeArray... arrays) {
    long n = 0;
    for (NativeArray a : java.util.Objects.requireNonNull(arrays, "arrays")) n += java.util.Objects.requireNonNull(a, "array").getSize();
    if (n > Integer.MAX_VALUE) throw new IllegalArgumentException("a concatenation of " + n + " elements is too large for an array");
    return (int) n;
  }

  /** Copies {@code arrays} one after another into {@code out}, which holds {@link #totalSize} elements. */
  static void concatInto(NativeArray out, NativeArray... arrays) {
    long at = 0;
    for (NativeArray a : arrays) {
      MemorySegment.copy(a.segment, 0, out.segment, at, a.byteSize());
      at += a.byteSize();
    }
  }

  /** {@code out} (of {@code length} elements) holding elements [{@code offset}, {@code offset + length}) of {@code from}. */
  static <A extends NativeArray> A copyRange(NativeArray from, int offset, int length, A out) {
    if (offset < 0 || length < 0 || (long) offset + length > from.size)
      throw new IllegalArgumentException("a slice of " + length + " elements at " + offset + " is outside an array of " + from.size);
    long bytes = from.byteSize() / Math.max(1, from.size);
    MemorySegment.copy(from.getSegment(), offset * bytes, out.getSegment(), 0, length * bytes);
    return out;
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
