// Off-heap array of long for kernels: one aligned MemorySegment, zeroed, bounds-checked on the host.
package dev.loopjit.types;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * An off-heap array of {@code long}. Inside a kernel, {@code get}, {@code set} and {@code getSize}
 * compile to plain memory accesses; on the host every access is bounds-checked.
 *
 * <pre>{@code
 * LongArray a = LongArray.fromArray(new long[] {1, 2, 3});
 * a.set(0, a.get(1));
 * long[] back = a.toArray();
 * }</pre>
 */
public final class LongArray extends NativeArray {
  private static final ValueLayout.OfLong LAYOUT = ValueLayout.JAVA_LONG;

  /** A zeroed array of {@code size} elements. */
  public LongArray(int size) {
    super(size, 8);
  }

  /** TornadoVM's concatenating constructor: the elements of {@code arrays}, one array after another. */
  public LongArray(LongArray... arrays) {
    super(totalSize(arrays), 8);
    concatInto(this, arrays);
  }

  /** An array over {@code segment}'s memory itself, not a copy (TornadoVM's {@code fromSegmentShallow}); its size must be a multiple of 8 bytes. */
  public static LongArray fromSegmentShallow(MemorySegment segment) {
    return new LongArray(segment);
  }

  private LongArray(MemorySegment segment) {
    super(segment, 8);
  }

  /** A new array of the elements of {@code arrays}, one array after another (TornadoVM's {@code concat}). */
  public static LongArray concat(LongArray... arrays) {
    return new LongArray(arrays);
  }

  /** A new array holding a copy of elements [{@code offset}, {@code offset + length}) (TornadoVM's {@code slice}). */
  public LongArray slice(int offset, int length) {
    return copyRange(this, offset, length, new LongArray(length));
  }

  /** A new array holding a copy of {@code values}. */
  public static LongArray fromArray(long[] values) {
    LongArray a = new LongArray(values.length);
    MemorySegment.copy(values, 0, a.getSegment(), LAYOUT, 0, values.length);
    return a;
  }

  /** A new array holding {@code values}. */
  public static LongArray fromElements(long... values) {
    return fromArray(values);
  }

  /** A new array holding a copy of {@code source}, whose size must be a multiple of 8 bytes. */
  public static LongArray fromSegment(MemorySegment source) {
    checkSource(source, 8);
    LongArray a = new LongArray((int) (source.byteSize() / 8));
    MemorySegment.copy(source, 0, a.getSegment(), 0, source.byteSize());
    return a;
  }

  /** Element {@code index}. */
  public long get(int index) {
    return getSegment().getAtIndex(LAYOUT, check(index));
  }

  /** Sets element {@code index} to {@code value}. */
  public void set(int index, long value) {
    getSegment().setAtIndex(LAYOUT, check(index), value);
  }

  /** Sets every element to {@code value}. */
  public void init(long value) {
    for (int i = 0; i < getSize(); i++) getSegment().setAtIndex(LAYOUT, i, value);
  }

  /** A heap copy of the elements, as TornadoVM names it: {@link #toArray()}. */
  public long[] toHeapArray() {
    return toArray();
  }

  /** A heap copy of the elements. */
  public long[] toArray() {
    return getSegment().toArray(LAYOUT);
  }

  /**
   * Sets every element of {@code array} to {@code value}: TornadoVM's {@code initialize}, a kernel a
   * task graph may run ({@code .task("init", LongArray::initialize, a, v)}) as well as a host call.
   */
  public static void initialize(LongArray array, long value) {
    for (@LoopParallel int i = 0; i < array.getSize(); i++) array.set(i, value);
  }

  /** A new array holding the elements of {@code buffer} from its position to its limit (which it leaves as they were). */
  public static LongArray fromLongBuffer(java.nio.LongBuffer buffer) {
    long[] values = new long[buffer.remaining()];
    buffer.duplicate().get(values);
    return fromArray(values);
  }

  @Override
  public int elementBytes() {
    return 8;
  }

  @Override
  String elementString(int index) {
    return String.valueOf(get(index));
  }
}
