// Off-heap array of IEEE 754 binary16 values, read and written as float; rounding is to nearest even.
package dev.loopjit.types;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * An off-heap array stored as IEEE 754 half precision (2 bytes an element) and used as
 * {@code float}: {@code get} widens exactly, {@code set} rounds to the nearest half (ties to even),
 * exactly as {@link Float#floatToFloat16} does. Kernels on devices without fp16 arithmetic still
 * read and write it (loads widen to float, stores narrow).
 *
 * <pre>{@code
 * HalfFloatArray h = HalfFloatArray.fromArray(new float[] {0.1f, 65504f});
 * float x = h.get(0);     // 0.099975586f, the nearest half
 * }</pre>
 */
public final class HalfFloatArray extends NativeArray {
  private static final ValueLayout.OfShort LAYOUT = ValueLayout.JAVA_SHORT;

  /** A zeroed array of {@code size} halves. */
  public HalfFloatArray(int size) {
    super(size, 2);
  }

  /** TornadoVM's concatenating constructor: the elements of {@code arrays}, one array after another. */
  public HalfFloatArray(HalfFloatArray... arrays) {
    super(totalSize(arrays), 2);
    concatInto(this, arrays);
  }

  /** An array over {@code segment}'s memory itself, not a copy (TornadoVM's {@code fromSegmentShallow}); its size must be a multiple of 2 bytes. */
  public static HalfFloatArray fromSegmentShallow(MemorySegment segment) {
    return new HalfFloatArray(segment);
  }

  private HalfFloatArray(MemorySegment segment) {
    super(segment, 2);
  }

  /** A new array of the elements of {@code arrays}, one array after another (TornadoVM's {@code concat}). */
  public static HalfFloatArray concat(HalfFloatArray... arrays) {
    return new HalfFloatArray(arrays);
  }

  /** A new array holding a copy of elements [{@code offset}, {@code offset + length}) (TornadoVM's {@code slice}). */
  public HalfFloatArray slice(int offset, int length) {
    return copyRange(this, offset, length, new HalfFloatArray(length));
  }

  /** A new array holding {@code values}, each rounded to half precision. */
  public static HalfFloatArray fromArray(float[] values) {
    HalfFloatArray a = new HalfFloatArray(values.length);
    for (int i = 0; i < values.length; i++) a.set(i, values[i]);
    return a;
  }

  /** A new array holding {@code values}, each rounded to half precision. */
  public static HalfFloatArray fromElements(float... values) {
    return fromArray(values);
  }

  /** A new array holding a copy of {@code source}: raw binary16 values, 2 bytes each. */
  public static HalfFloatArray fromSegment(MemorySegment source) {
    checkSource(source, 2);
    HalfFloatArray a = new HalfFloatArray((int) (source.byteSize() / 2));
    MemorySegment.copy(source, 0, a.getSegment(), 0, source.byteSize());
    return a;
  }

  /** Element {@code index}, as TornadoVM's {@code get} gives it: a {@link HalfFloat}. Usable in kernels. */
  public HalfFloat get(int index) {
    return getHalfFloat(index);
  }

  /** Element {@code index}, widened to float (what {@code get} gave before LoopJIT took TornadoVM's). Usable in kernels. */
  public float getFloat(int index) {
    return Float.float16ToFloat(getSegment().getAtIndex(LAYOUT, check(index)));
  }

  /** Sets element {@code index} to {@code value} rounded to half precision. */
  public void set(int index, float value) {
    getSegment().setAtIndex(LAYOUT, check(index), Float.floatToFloat16(value));
  }

  /** Element {@code index} as a {@link HalfFloat}: {@link #get}. Usable in kernels. */
  public HalfFloat getHalfFloat(int index) {
    return new HalfFloat(getSegment().getAtIndex(LAYOUT, check(index)));
  }

  /** Sets element {@code index} to {@code value}'s bits. Usable in kernels. */
  public void set(int index, HalfFloat value) {
    getSegment().setAtIndex(LAYOUT, check(index), value.getHalfFloatValue());
  }

  /** Sets every element to {@code value}. */
  public void init(HalfFloat value) {
    short bits = value.getHalfFloatValue();
    for (int i = 0; i < getSize(); i++) getSegment().setAtIndex(LAYOUT, i, bits);
  }

  /** A new array holding {@code values}. */
  public static HalfFloatArray fromArray(HalfFloat[] values) {
    HalfFloatArray a = new HalfFloatArray(values.length);
    for (int i = 0; i < values.length; i++) a.set(i, values[i]);
    return a;
  }

  /** A new array holding {@code values}. */
  public static HalfFloatArray fromElements(HalfFloat... values) {
    return fromArray(values);
  }

  /** The raw binary16 bits of element {@code index}. */
  public short getHalfBits(int index) {
    return getSegment().getAtIndex(LAYOUT, check(index));
  }

  /** Sets every element to {@code value} rounded to half precision. */
  public void init(float value) {
    short bits = Float.floatToFloat16(value);
    for (int i = 0; i < getSize(); i++) getSegment().setAtIndex(LAYOUT, i, bits);
  }

  /** The elements as {@link HalfFloat}s, as TornadoVM's {@code toHeapArray} gives them ({@link #toArray()} widens to float). */
  public HalfFloat[] toHeapArray() {
    HalfFloat[] out = new HalfFloat[getSize()];
    for (int i = 0; i < out.length; i++) out[i] = getHalfFloat(i);
    return out;
  }

  /** The elements widened to float. */
  public float[] toArray() {
    float[] out = new float[getSize()];
    for (int i = 0; i < out.length; i++) out[i] = getFloat(i);
    return out;
  }

  /**
   * Sets every element of {@code array} to {@code value}: TornadoVM's {@code initialize}, a kernel a
   * task graph may run ({@code .task("init", HalfFloatArray::initialize, a, h)}) as well as a host call.
   */
  public static void initialize(HalfFloatArray array, HalfFloat value) {
    for (@LoopParallel int i = 0; i < array.getSize(); i++) array.set(i, value);
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
