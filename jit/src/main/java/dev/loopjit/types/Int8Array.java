// TornadoVM's Int8Array: an off-heap array of signed 8-bit integers (byte) for kernels, as ByteArray is.
package dev.loopjit.types;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * An off-heap array of {@code byte}, TornadoVM's name for int8 data (quantized weights): the same as
 * {@link ByteArray} under its own type, in kernels and on the host. Inside a kernel, {@code get}, {@code set} and {@code getSize}
 * compile to plain memory accesses; on the host every access is bounds-checked.
 *
 * <pre>{@code
 * Int8Array a = Int8Array.fromArray(new byte[] {1, 2, 3});
 * a.set(0, a.get(1));
 * byte[] back = a.toArray();
 * }</pre>
 */
public final class Int8Array extends NativeArray {
  private static final ValueLayout.OfByte LAYOUT = ValueLayout.JAVA_BYTE;

  /** A zeroed array of {@code size} elements. */
  public Int8Array(int size) {
    super(size, 1);
  }

  /** TornadoVM's concatenating constructor: the elements of {@code arrays}, one array after another. */
  public Int8Array(Int8Array... arrays) {
    super(totalSize(arrays), 1);
    concatInto(this, arrays);
  }

  /** An array over {@code segment}'s memory itself, not a copy (TornadoVM's {@code fromSegmentShallow}); its size must be a multiple of 1 bytes. */
  public static Int8Array fromSegmentShallow(MemorySegment segment) {
    return new Int8Array(segment);
  }

  private Int8Array(MemorySegment segment) {
    super(segment, 1);
  }

  /** A new array of the elements of {@code arrays}, one array after another (TornadoVM's {@code concat}). */
  public static Int8Array concat(Int8Array... arrays) {
    return new Int8Array(arrays);
  }

  /** A new array holding a copy of elements [{@code offset}, {@code offset + length}) (TornadoVM's {@code slice}). */
  public Int8Array slice(int offset, int length) {
    return copyRange(this, offset, length, new Int8Array(length));
  }

  /** A new array holding a copy of {@code values}. */
  public static Int8Array fromArray(byte[] values) {
    Int8Array a = new Int8Array(values.length);
    MemorySegment.copy(values, 0, a.getSegment(), LAYOUT, 0, values.length);
    return a;
  }

  /** A new array holding {@code values}. */
  public static Int8Array fromElements(byte... values) {
    return fromArray(values);
  }

  /** A new array holding a copy of {@code source}, whose size must be a multiple of 1 bytes. */
  public static Int8Array fromSegment(MemorySegment source) {
    checkSource(source, 1);
    Int8Array a = new Int8Array((int) (source.byteSize() / 1));
    MemorySegment.copy(source, 0, a.getSegment(), 0, source.byteSize());
    return a;
  }

  /** Element {@code index}. */
  public byte get(int index) {
    return getSegment().getAtIndex(LAYOUT, check(index));
  }

  /** Sets element {@code index} to {@code value}. */
  public void set(int index, byte value) {
    getSegment().setAtIndex(LAYOUT, check(index), value);
  }

  /** Sets every element to {@code value}. */
  public void init(byte value) {
    for (int i = 0; i < getSize(); i++) getSegment().setAtIndex(LAYOUT, i, value);
  }

  /** A heap copy of the elements, as TornadoVM names it: {@link #toArray()}. */
  public byte[] toHeapArray() {
    return toArray();
  }

  /** A heap copy of the elements. */
  public byte[] toArray() {
    return getSegment().toArray(LAYOUT);
  }

  /**
   * Sets every element of {@code array} to {@code value}: TornadoVM's {@code initialize}, a kernel a
   * task graph may run ({@code .task("init", Int8Array::initialize, a, v)}) as well as a host call.
   */
  public static void initialize(Int8Array array, byte value) {
    for (@LoopParallel int i = 0; i < array.getSize(); i++) array.set(i, value);
  }

  /** A new array holding the elements of {@code buffer} from its position to its limit (which it leaves as they were). */
  public static Int8Array fromByteBuffer(java.nio.ByteBuffer buffer) {
    byte[] values = new byte[buffer.remaining()];
    buffer.duplicate().get(values);
    return fromArray(values);
  }

  @Override
  public int elementBytes() {
    return 1;
  }

  @Override
  String elementString(int index) {
    return String.valueOf(get(index));
  }
}
