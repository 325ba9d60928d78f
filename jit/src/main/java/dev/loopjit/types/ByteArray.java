// Off-heap array of byte for kernels: one aligned MemorySegment, zeroed, bounds-checked on the host.
package dev.loopjit.types;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * An off-heap array of {@code byte}. Inside a kernel, {@code get}, {@code set} and {@code getSize}
 * compile to plain memory accesses; on the host every access is bounds-checked.
 *
 * <pre>{@code
 * ByteArray a = ByteArray.fromArray(new byte[] {1, 2, 3});
 * a.set(0, a.get(1));
 * byte[] back = a.toArray();
 * }</pre>
 */
public final class ByteArray extends NativeArray {
  private static final ValueLayout.OfByte LAYOUT = ValueLayout.JAVA_BYTE;

  /** A zeroed array of {@code size} elements. */
  public ByteArray(int size) {
    super(size, 1);
  }

  /** TornadoVM's concatenating constructor: the elements of {@code arrays}, one array after another. */
  public ByteArray(ByteArray... arrays) {
    super(totalSize(arrays), 1);
    concatInto(this, arrays);
  }

  /** An array over {@code segment}'s memory itself, not a copy (TornadoVM's {@code fromSegmentShallow}); its size must be a multiple of 1 bytes. */
  public static ByteArray fromSegmentShallow(MemorySegment segment) {
    return new ByteArray(segment);
  }

  private ByteArray(MemorySegment segment) {
    super(segment, 1);
  }

  /** A new array of the elements of {@code arrays}, one array after another (TornadoVM's {@code concat}). */
  public static ByteArray concat(ByteArray... arrays) {
    return new ByteArray(arrays);
  }

  /** A new array holding a copy of elements [{@code offset}, {@code offset + length}) (TornadoVM's {@code slice}). */
  public ByteArray slice(int offset, int length) {
    return copyRange(this, offset, length, new ByteArray(length));
  }

  /** A new array holding a copy of {@code values}. */
  public static ByteArray fromArray(byte[] values) {
    ByteArray a = new ByteArray(values.length);
    MemorySegment.copy(values, 0, a.getSegment(), LAYOUT, 0, values.length);
    return a;
  }

  /** A new array holding {@code values}. */
  public static ByteArray fromElements(byte... values) {
    return fromArray(values);
  }

  /** A new array holding a copy of {@code source}, whose size must be a multiple of 1 bytes. */
  public static ByteArray fromSegment(MemorySegment source) {
    checkSource(source, 1);
    ByteArray a = new ByteArray((int) (source.byteSize() / 1));
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

  /**
   * The half stored in bytes {@code byteIndex} and {@code byteIndex + 1}, in the machine's byte
   * order, as TornadoVM's {@code getHalfFloat}; an odd index is refused (a half is 2-byte aligned).
   * A host call: kernels read bytes.
   */
  public HalfFloat getHalfFloat(int byteIndex) {
    checkHalf(byteIndex);
    return new HalfFloat(getSegment().get(ValueLayout.JAVA_SHORT_UNALIGNED, byteIndex));
  }

  /** Stores {@code value}'s 16 bits at bytes {@code byteIndex} and {@code byteIndex + 1} ({@link #getHalfFloat(int)}). */
  public void setHalfFloat(int byteIndex, HalfFloat value) {
    checkHalf(byteIndex);
    getSegment().set(ValueLayout.JAVA_SHORT_UNALIGNED, byteIndex, value.getHalfFloatValue());
  }

  private void checkHalf(int byteIndex) {
    if (byteIndex % 2 != 0) throw new IllegalArgumentException("a half-float is 2-byte aligned: byte index " + byteIndex + " is odd");
    check(byteIndex);
    check(byteIndex + 1);
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
   * task graph may run ({@code .task("init", ByteArray::initialize, a, v)}) as well as a host call.
   */
  public static void initialize(ByteArray array, byte value) {
    for (@LoopParallel int i = 0; i < array.getSize(); i++) array.set(i, value);
  }

  /** A new array holding the elements of {@code buffer} from its position to its limit (which it leaves as they were). */
  public static ByteArray fromByteBuffer(java.nio.ByteBuffer buffer) {
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
