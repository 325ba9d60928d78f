// Off-heap array of int for kernels: one aligned MemorySegment, zeroed, bounds-checked on the host.
package dev.loopjit.types;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * An off-heap array of {@code int}. Inside a kernel, {@code get}, {@code set} and {@code getSize}
 * compile to plain memory accesses; on the host every access is bounds-checked.
 *
 * <pre>{@code
 * IntArray a = IntArray.fromArray(new int[] {1, 2, 3});
 * a.set(0, a.get(1));
 * int[] back = a.toArray();
 * }</pre>
 */
public final class IntArray extends NativeArray {
  private static final ValueLayout.OfInt LAYOUT = ValueLayout.JAVA_INT;

  /** A zeroed array of {@code size} elements. */
  public IntArray(int size) {
    super(size, 4);
  }

  /** TornadoVM's concatenating constructor: the elements of {@code arrays}, one array after another. */
  public IntArray(IntArray... arrays) {
    super(totalSize(arrays), 4);
    concatInto(this, arrays);
  }

  /** An array over {@code segment}'s memory itself, not a copy (TornadoVM's {@code fromSegmentShallow}); its size must be a multiple of 4 bytes. */
  public static IntArray fromSegmentShallow(MemorySegment segment) {
    return new IntArray(segment);
  }

  private IntArray(MemorySegment segment) {
    super(segment, 4);
  }

  /** A new array of the elements of {@code arrays}, one array after another (TornadoVM's {@code concat}). */
  public static IntArray concat(IntArray... arrays) {
    return new IntArray(arrays);
  }

  /** A new array holding a copy of elements [{@code offset}, {@code offset + length}) (TornadoVM's {@code slice}). */
  public IntArray slice(int offset, int length) {
    return copyRange(this, offset, length, new IntArray(length));
  }

  /** A new array holding a copy of {@code values}. */
  public static IntArray fromArray(int[] values) {
    IntArray a = new IntArray(values.length);
    MemorySegment.copy(values, 0, a.getSegment(), LAYOUT, 0, values.length);
    return a;
  }

  /** A new array holding {@code values}. */
  public static IntArray fromElements(int... values) {
    return fromArray(values);
  }

  /** A new array holding a copy of {@code source}, whose size must be a multiple of 4 bytes. */
  public static IntArray fromSegment(MemorySegment source) {
    checkSource(source, 4);
    IntArray a = new IntArray((int) (source.byteSize() / 4));
    MemorySegment.copy(source, 0, a.getSegment(), 0, source.byteSize());
    return a;
  }

  /** Element {@code index}. */
  public int get(int index) {
    return getSegment().getAtIndex(LAYOUT, check(index));
  }

  /** Sets element {@code index} to {@code value}. */
  public void set(int index, int value) {
    getSegment().setAtIndex(LAYOUT, check(index), value);
  }

  /** Sets every element to {@code value}. */
  public void init(int value) {
    for (int i = 0; i < getSize(); i++) getSegment().setAtIndex(LAYOUT, i, value);
  }

  /** A heap copy of the elements, as TornadoVM names it: {@link #toArray()}. */
  public int[] toHeapArray() {
    return toArray();
  }

  /** A heap copy of the elements. */
  public int[] toArray() {
    return getSegment().toArray(LAYOUT);
  }

  /**
   * Sets every element of {@code array} to {@code value}: TornadoVM's {@code initialize}, a kernel a
   * task graph may run ({@code .task("init", IntArray::initialize, a, v)}) as well as a host call.
   */
  public static void initialize(IntArray array, int value) {
    for (@LoopParallel int i = 0; i < array.getSize(); i++) array.set(i, value);
  }

  /** A new array holding the elements of {@code buffer} from its position to its limit (which it leaves as they were). */
  public static IntArray fromIntBuffer(java.nio.IntBuffer buffer) {
    int[] values = new int[buffer.remaining()];
    buffer.duplicate().get(values);
    return fromArray(values);
  }

  @Override
  public int elementBytes() {
    return 4;
  }

  @Override
  String elementString(int index) {
    return String.valueOf(get(index));
  }
}
