// Off-heap array of float for kernels: one aligned MemorySegment, zeroed, bounds-checked on the host.
package dev.loopjit.types;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * An off-heap array of {@code float}. Inside a kernel, {@code get}, {@code set} and {@code getSize}
 * compile to plain memory accesses; on the host every access is bounds-checked.
 *
 * <pre>{@code
 * FloatArray a = FloatArray.fromArray(new float[] {1, 2, 3});
 * a.set(0, a.get(1));
 * float[] back = a.toArray();
 * }</pre>
 */
public final class FloatArray extends NativeArray {
  private static final ValueLayout.OfFloat LAYOUT = ValueLayout.JAVA_FLOAT;

  /** A zeroed array of {@code size} elements. */
  public FloatArray(int size) {
    super(size, 4);
  }

  /** TornadoVM's concatenating constructor: the elements of {@code arrays}, one array after another. */
  public FloatArray(FloatArray... arrays) {
    super(totalSize(arrays), 4);
    concatInto(this, arrays);
  }

  /** An array over {@code segment}'s memory itself, not a copy (TornadoVM's {@code fromSegmentShallow}); its size must be a multiple of 4 bytes. */
  public static FloatArray fromSegmentShallow(MemorySegment segment) {
    return new FloatArray(segment);
  }

  private FloatArray(MemorySegment segment) {
    super(segment, 4);
  }

  /** A new array of the elements of {@code arrays}, one array after another (TornadoVM's {@code concat}). */
  public static FloatArray concat(FloatArray... arrays) {
    return new FloatArray(arrays);
  }

  /** A new array holding a copy of elements [{@code offset}, {@code offset + length}) (TornadoVM's {@code slice}). */
  public FloatArray slice(int offset, int length) {
    return copyRange(this, offset, length, new FloatArray(length));
  }

  /** A new array holding a copy of {@code values}. */
  public static FloatArray fromArray(float[] values) {
    FloatArray a = new FloatArray(values.length);
    MemorySegment.copy(values, 0, a.getSegment(), LAYOUT, 0, values.length);
    return a;
  }

  /** A new array holding {@code values}. */
  public static FloatArray fromElements(float... values) {
    return fromArray(values);
  }

  /** A new array holding a copy of {@code source}, whose size must be a multiple of 4 bytes. */
  public static FloatArray fromSegment(MemorySegment source) {
    checkSource(source, 4);
    FloatArray a = new FloatArray((int) (source.byteSize() / 4));
    MemorySegment.copy(source, 0, a.getSegment(), 0, source.byteSize());
    return a;
  }

  /** Element {@code index}. */
  public float get(int index) {
    return getSegment().getAtIndex(LAYOUT, check(index));
  }

  /** Sets element {@code index} to {@code value}. */
  public void set(int index, float value) {
    getSegment().setAtIndex(LAYOUT, check(index), value);
  }

  /** Sets every element to {@code value}. */
  public void init(float value) {
    for (int i = 0; i < getSize(); i++) getSegment().setAtIndex(LAYOUT, i, value);
  }

  /** A heap copy of the elements, as TornadoVM names it: {@link #toArray()}. */
  public float[] toHeapArray() {
    return toArray();
  }

  /** A heap copy of the elements. */
  public float[] toArray() {
    return getSegment().toArray(LAYOUT);
  }

  /**
   * Sets every element of {@code array} to {@code value}: TornadoVM's {@code initialize}, a kernel a
   * task graph may run ({@code .task("init", FloatArray::initialize, a, v)}) as well as a host call.
   */
  public static void initialize(FloatArray array, float value) {
    for (@LoopParallel int i = 0; i < array.getSize(); i++) array.set(i, value);
  }

  /** A new array holding the elements of {@code buffer} from its position to its limit (which it leaves as they were). */
  public static FloatArray fromFloatBuffer(java.nio.FloatBuffer buffer) {
    float[] values = new float[buffer.remaining()];
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
