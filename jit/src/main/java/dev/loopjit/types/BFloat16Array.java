// TornadoVM's BFloat16Array: an off-heap array of bfloat16 values, each the short of its bits, for kernels.
package dev.loopjit.types;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * An off-heap array of bfloat16 values, each held as the {@code short} of its bits ({@link BFloat16}):
 * {@code get} and {@code set} move bits, {@code getFloat} and {@code setFloat} convert. Inside a kernel,
 * {@code get}, {@code set} and {@code getSize} compile to plain memory accesses and
 * {@code BFloat16.bf16ToFloat(a.get(i))} to the same bits on every device; on the host every access
 * is bounds-checked.
 *
 * <pre>{@code
 * BFloat16Array a = BFloat16Array.fromFloats(1f, 2.5f, -3f);
 * a.setFloat(0, a.getFloat(1) * 2f);
 * }</pre>
 */
public final class BFloat16Array extends NativeArray {
  private static final ValueLayout.OfShort LAYOUT = ValueLayout.JAVA_SHORT;

  /** A zeroed array of {@code size} elements. */
  public BFloat16Array(int size) {
    super(size, 2);
  }

  /** TornadoVM's concatenating constructor: the elements of {@code arrays}, one array after another. */
  public BFloat16Array(BFloat16Array... arrays) {
    super(totalSize(arrays), 2);
    concatInto(this, arrays);
  }

  /** An array over {@code segment}'s memory itself, not a copy (TornadoVM's {@code fromSegmentShallow}); its size must be a multiple of 2 bytes. */
  public static BFloat16Array fromSegmentShallow(MemorySegment segment) {
    return new BFloat16Array(segment);
  }

  private BFloat16Array(MemorySegment segment) {
    super(segment, 2);
  }

  /** A new array of the elements of {@code arrays}, one array after another (TornadoVM's {@code concat}). */
  public static BFloat16Array concat(BFloat16Array... arrays) {
    return new BFloat16Array(arrays);
  }

  /** A new array holding a copy of elements [{@code offset}, {@code offset + length}) (TornadoVM's {@code slice}). */
  public BFloat16Array slice(int offset, int length) {
    return copyRange(this, offset, length, new BFloat16Array(length));
  }

  /** A new array holding a copy of {@code values}. */
  public static BFloat16Array fromArray(short[] values) {
    BFloat16Array a = new BFloat16Array(values.length);
    MemorySegment.copy(values, 0, a.getSegment(), LAYOUT, 0, values.length);
    return a;
  }

  /** A new array holding {@code values}. */
  public static BFloat16Array fromElements(short... values) {
    return fromArray(values);
  }

  /** A new array holding a copy of {@code source}, whose size must be a multiple of 2 bytes. */
  public static BFloat16Array fromSegment(MemorySegment source) {
    checkSource(source, 2);
    BFloat16Array a = new BFloat16Array((int) (source.byteSize() / 2));
    MemorySegment.copy(source, 0, a.getSegment(), 0, source.byteSize());
    return a;
  }

  /** Element {@code index}. */
  public short get(int index) {
    return getSegment().getAtIndex(LAYOUT, check(index));
  }

  /** Sets element {@code index} to {@code value}. */
  public void set(int index, short value) {
    getSegment().setAtIndex(LAYOUT, check(index), value);
  }

  /** Sets every element to {@code value}. */
  public void init(short value) {
    for (int i = 0; i < getSize(); i++) getSegment().setAtIndex(LAYOUT, i, value);
  }

  /** A heap copy of the elements, as TornadoVM names it: {@link #toArray()}. */
  public short[] toHeapArray() {
    return toArray();
  }

  /** A heap copy of the elements. */
  public short[] toArray() {
    return getSegment().toArray(LAYOUT);
  }

  /**
   * Sets every element of {@code array} to {@code value}: TornadoVM's {@code initialize}, a kernel a
   * task graph may run ({@code .task("init", BFloat16Array::initialize, a, v)}) as well as a host call.
   */
  public static void initialize(BFloat16Array array, short value) {
    for (@LoopParallel int i = 0; i < array.getSize(); i++) array.set(i, value);
  }

  /** A new array of the bfloat16s with {@code bits}. */
  public static BFloat16Array fromShorts(short... bits) {
    return fromArray(bits);
  }

  /** A new array of the bfloat16s nearest {@code values} ({@link BFloat16#bf16FromFloat}). */
  public static BFloat16Array fromFloats(float... values) {
    BFloat16Array a = new BFloat16Array(values.length);
    for (int i = 0; i < values.length; i++) a.setFloat(i, values[i]);
    return a;
  }

  /** A heap copy of the elements' bits, as TornadoVM names it: {@link #toArray()}. */
  public short[] toShortArray() {
    return toArray();
  }

  /** Element {@code index} as a float ({@link BFloat16#bf16ToFloat}). */
  public float getFloat(int index) {
    return BFloat16.bf16ToFloat(get(index));
  }

  /** Sets element {@code index} to the bfloat16 nearest {@code value} ({@link BFloat16#bf16FromFloat}). */
  public void setFloat(int index, float value) {
    set(index, BFloat16.bf16FromFloat(value));
  }

  @Override
  public int elementBytes() {
    return 2;
  }

  @Override
  String elementString(int index) {
    return String.valueOf(getFloat(index));
  }
}
