// TornadoVM's FP8Array: an off-heap array of 8-bit floats (E4M3 or E5M2), each the byte of its bits, for kernels.
package dev.loopjit.types;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * An off-heap array of 8-bit floats, each held as the {@code byte} of its bits ({@link FP8}); the
 * array does not know the format: {@code getE4M3}/{@code setE4M3} and {@code getE5M2}/{@code setE5M2}
 * convert, {@code get} and {@code set} move bits. Inside a kernel, {@code get}, {@code set} and
 * {@code getSize} compile to plain memory accesses and {@code FP8.e4m3ToFloat(a.get(i))} to the same
 * bits on every device; on the host every access is bounds-checked.
 *
 * <pre>{@code
 * FP8Array w = FP8Array.fromFloatsE4M3(0.5f, -1.25f, 448f);
 * float x = w.getE4M3(1);
 * }</pre>
 */
public final class FP8Array extends NativeArray {
  private static final ValueLayout.OfByte LAYOUT = ValueLayout.JAVA_BYTE;

  /** A zeroed array of {@code size} elements. */
  public FP8Array(int size) {
    super(size, 1);
  }

  /** TornadoVM's concatenating constructor: the elements of {@code arrays}, one array after another. */
  public FP8Array(FP8Array... arrays) {
    super(totalSize(arrays), 1);
    concatInto(this, arrays);
  }

  /** An array over {@code segment}'s memory itself, not a copy (TornadoVM's {@code fromSegmentShallow}); its size must be a multiple of 1 bytes. */
  public static FP8Array fromSegmentShallow(MemorySegment segment) {
    return new FP8Array(segment);
  }

  private FP8Array(MemorySegment segment) {
    super(segment, 1);
  }

  /** A new array of the elements of {@code arrays}, one array after another (TornadoVM's {@code concat}). */
  public static FP8Array concat(FP8Array... arrays) {
    return new FP8Array(arrays);
  }

  /** A new array holding a copy of elements [{@code offset}, {@code offset + length}) (TornadoVM's {@code slice}). */
  public FP8Array slice(int offset, int length) {
    return copyRange(this, offset, length, new FP8Array(length));
  }

  /** A new array holding a copy of {@code values}. */
  public static FP8Array fromArray(byte[] values) {
    FP8Array a = new FP8Array(values.length);
    MemorySegment.copy(values, 0, a.getSegment(), LAYOUT, 0, values.length);
    return a;
  }

  /** A new array holding {@code values}. */
  public static FP8Array fromElements(byte... values) {
    return fromArray(values);
  }

  /** A new array holding a copy of {@code source}, whose size must be a multiple of 1 bytes. */
  public static FP8Array fromSegment(MemorySegment source) {
    checkSource(source, 1);
    FP8Array a = new FP8Array((int) (source.byteSize() / 1));
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
   * task graph may run ({@code .task("init", FP8Array::initialize, a, v)}) as well as a host call.
   */
  public static void initialize(FP8Array array, byte value) {
    for (@LoopParallel int i = 0; i < array.getSize(); i++) array.set(i, value);
  }

  /** A new array of the E4M3 values nearest {@code values}. */
  public static FP8Array fromFloatsE4M3(float... values) {
    FP8Array a = new FP8Array(values.length);
    for (int i = 0; i < values.length; i++) a.setE4M3(i, values[i]);
    return a;
  }

  /** A new array of the E5M2 values nearest {@code values}. */
  public static FP8Array fromFloatsE5M2(float... values) {
    FP8Array a = new FP8Array(values.length);
    for (int i = 0; i < values.length; i++) a.setE5M2(i, values[i]);
    return a;
  }

  /** Element {@code index} read as E4M3. */
  public float getE4M3(int index) {
    return FP8.e4m3ToFloat(get(index));
  }

  /** Sets element {@code index} to the E4M3 nearest {@code value}. */
  public void setE4M3(int index, float value) {
    set(index, FP8.e4m3FromFloat(value));
  }

  /** Element {@code index} read as E5M2. */
  public float getE5M2(int index) {
    return FP8.e5m2ToFloat(get(index));
  }

  /** Sets element {@code index} to the E5M2 nearest {@code value}. */
  public void setE5M2(int index, float value) {
    set(index, FP8.e5m2FromFloat(value));
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
