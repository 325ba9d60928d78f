// Off-heap array of char for kernels: one aligned MemorySegment, zeroed, bounds-checked on the host.
package dev.loopjit.types;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * An off-heap array of {@code char}. Inside a kernel, {@code get}, {@code set} and {@code getSize}
 * compile to plain memory accesses; on the host every access is bounds-checked.
 *
 * <pre>{@code
 * CharArray a = CharArray.fromArray("abc".toCharArray());
 * a.set(0, a.get(1));
 * char[] back = a.toArray();
 * }</pre>
 */
public final class CharArray extends NativeArray {
  private static final ValueLayout.OfChar LAYOUT = ValueLayout.JAVA_CHAR;

  /** A zeroed array of {@code size} elements. */
  public CharArray(int size) {
    super(size, 2);
  }

  /** TornadoVM's concatenating constructor: the elements of {@code arrays}, one array after another. */
  public CharArray(CharArray... arrays) {
    super(totalSize(arrays), 2);
    concatInto(this, arrays);
  }

  /** An array over {@code segment}'s memory itself, not a copy (TornadoVM's {@code fromSegmentShallow}); its size must be a multiple of 2 bytes. */
  public static CharArray fromSegmentShallow(MemorySegment segment) {
    return new CharArray(segment);
  }

  private CharArray(MemorySegment segment) {
    super(segment, 2);
  }

  /** A new array of the elements of {@code arrays}, one array after another (TornadoVM's {@code concat}). */
  public static CharArray concat(CharArray... arrays) {
    return new CharArray(arrays);
  }

  /** A new array holding a copy of elements [{@code offset}, {@code offset + length}) (TornadoVM's {@code slice}). */
  public CharArray slice(int offset, int length) {
    return copyRange(this, offset, length, new CharArray(length));
  }

  /** A new array holding a copy of {@code values}. */
  public static CharArray fromArray(char[] values) {
    CharArray a = new CharArray(values.length);
    MemorySegment.copy(values, 0, a.getSegment(), LAYOUT, 0, values.length);
    return a;
  }

  /** A new array holding {@code values}. */
  public static CharArray fromElements(char... values) {
    return fromArray(values);
  }

  /** A new array holding a copy of {@code source}, whose size must be a multiple of 2 bytes. */
  public static CharArray fromSegment(MemorySegment source) {
    checkSource(source, 2);
    CharArray a = new CharArray((int) (source.byteSize() / 2));
    MemorySegment.copy(source, 0, a.getSegment(), 0, source.byteSize());
    return a;
  }

  /** Element {@code index}. */
  public char get(int index) {
    return getSegment().getAtIndex(LAYOUT, check(index));
  }

  /** Sets element {@code index} to {@code value}. */
  public void set(int index, char value) {
    getSegment().setAtIndex(LAYOUT, check(index), value);
  }

  /** Sets every element to {@code value}. */
  public void init(char value) {
    for (int i = 0; i < getSize(); i++) getSegment().setAtIndex(LAYOUT, i, value);
  }

  /** A heap copy of the elements, as TornadoVM names it: {@link #toArray()}. */
  public char[] toHeapArray() {
    return toArray();
  }

  /** A heap copy of the elements. */
  public char[] toArray() {
    return getSegment().toArray(LAYOUT);
  }

  /**
   * Sets every element of {@code array} to {@code value}: TornadoVM's {@code initialize}, a kernel a
   * task graph may run ({@code .task("init", CharArray::initialize, a, v)}) as well as a host call.
   */
  public static void initialize(CharArray array, char value) {
    for (@LoopParallel int i = 0; i < array.getSize(); i++) array.set(i, value);
  }

  /** A new array holding the elements of {@code buffer} from its position to its limit (which it leaves as they were). */
  public static CharArray fromCharBuffer(java.nio.CharBuffer buffer) {
    char[] values = new char[buffer.remaining()];
    buffer.duplicate().get(values);
    return fromArray(values);
  }

  @Override
  public int elementBytes() {
    return 2;
  }

  @Override
  String elementString(int index) {
    return String.valueOf(get(index));
  }
}
