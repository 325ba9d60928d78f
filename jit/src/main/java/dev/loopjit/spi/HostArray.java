// A host array a task uses: a primitive Java array, an off-heap NativeArray or an AtomicInteger (one int), seen as bytes.
package dev.loopjit.spi;

import dev.loopjit.ir.Prim;
import dev.loopjit.types.ByteArray;
import dev.loopjit.types.CharArray;
import dev.loopjit.types.DoubleArray;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.HalfFloatArray;
import dev.loopjit.types.IntArray;
import dev.loopjit.types.LongArray;
import dev.loopjit.types.Matrix2DDouble;
import dev.loopjit.types.Matrix2DFloat;
import dev.loopjit.types.Matrix2DInt;
import dev.loopjit.types.NativeArray;
import dev.loopjit.types.NativeCollection;
import dev.loopjit.types.ShortArray;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Array;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A host array as the runtime sees it: its element type, length and memory. Identity is the
 * wrapped object's identity.
 */
public record HostArray(Object array, Prim element, int length) {

  /** The host array for {@code o}, or null when {@code o} is not an array kernels can take. */
  public static HostArray of(Object o) {
    Prim e = elementOf(o == null ? null : o.getClass());
    if (e == null) return null;
    int n = o instanceof NativeArray a ? a.getSize() : o instanceof NativeCollection c ? c.getArray().getSize() : o instanceof AtomicInteger ? 1
        : Array.getLength(o);
    return new HostArray(o, e, n);
  }

  /** The element type of an array class kernels take ({@code float[].class}, {@code FloatArray.class}), or null. */
  public static Prim elementOf(Class<?> c) {
    if (c == null) return null;
    if (c == AtomicInteger.class) return Prim.INT;   // a cell of one int: the device's atomics act on it
    if (c.isArray()) return c.getComponentType().isPrimitive() ? Prim.of(c.getComponentType()) : null;
    if (c == FloatArray.class) return Prim.FLOAT;
    if (c == DoubleArray.class) return Prim.DOUBLE;
    if (c == IntArray.class) return Prim.INT;
    if (c == LongArray.class) return Prim.LONG;
    if (c == ShortArray.class) return Prim.SHORT;
    if (c == ByteArray.class || c == dev.loopjit.types.Int8Array.class || c == dev.loopjit.types.FP8Array.class) return Prim.BYTE;
    if (c == dev.loopjit.types.BFloat16Array.class) return Prim.SHORT;
    if (c == HalfFloatArray.class) return Prim.HALF;
    if (c == CharArray.class) return Prim.CHAR;
    // Collections are their storage array with a shape.
    if (dev.loopjit.types.NativeCollection.class.isAssignableFrom(c) && c != dev.loopjit.types.NativeCollection.class) {
      String n = c.getSimpleName();   // Matrix2DFloat, VectorFloat, VectorFloat4, VectorInt8, VectorDouble16, …
      return n.contains("Float") ? Prim.FLOAT : n.contains("Int") ? Prim.INT : n.contains("Double") ? Prim.DOUBLE : n.contains("Long") ? Prim.LONG
          : n.contains("Short") ? Prim.SHORT : n.contains("Byte") ? Prim.BYTE : null;
    }
    return null;
  }

  /**
   * Whether this is an {@code AtomicInteger}: one int that has no memory of its own to copy, read
   * with {@code get()} into {@link #copyTo} and written with {@code set} by {@link #copyFrom}.
   */
  public boolean cell() {
    return array instanceof AtomicInteger;
  }

  /** Whether the memory is off-heap (a NativeArray), so devices may use it in place. */
  public boolean offHeap() {
    return array instanceof NativeArray || array instanceof NativeCollection;
  }

  /**
   * Extent {@code dim} of a matrix (0: rows or x, 1: columns or y, 2: z) or an image or volume (0: X, 1: Y, 2: Z), what {@code Intrinsic.SHAPE} asks at
   * launch; a vector or array has one row of {@link #length()} elements.
   */
  public int extent(int dim) {
    return switch (array) {
      case Matrix2DFloat m -> dim == 0 ? m.getNumRows() : m.getNumColumns();
      case Matrix2DInt m -> dim == 0 ? m.getNumRows() : m.getNumColumns();
      case Matrix2DDouble m -> dim == 0 ? m.getNumRows() : m.getNumColumns();
      case dev.loopjit.types.Matrix2DFloat4 m -> dim == 0 ? m.getNumRows() : m.getNumColumns();
      case dev.loopjit.types.Matrix3DFloat m -> dim == 0 ? m.getSizeX() : dim == 1 ? m.getSizeY() : m.getSizeZ();
      case dev.loopjit.types.Matrix3DInt m -> dim == 0 ? m.getSizeX() : dim == 1 ? m.getSizeY() : m.getSizeZ();
      case dev.loopjit.types.Matrix3DDouble m -> dim == 0 ? m.getSizeX() : dim == 1 ? m.getSizeY() : m.getSizeZ();
      case dev.loopjit.types.Matrix3DLong m -> dim == 0 ? m.getSizeX() : dim == 1 ? m.getSizeY() : m.getSizeZ();
      case dev.loopjit.types.Matrix3DShort m -> dim == 0 ? m.getSizeX() : dim == 1 ? m.getSizeY() : m.getSizeZ();
      case dev.loopjit.types.Matrix3DFloat4 m -> dim == 0 ? m.getSizeX() : dim == 1 ? m.getSizeY() : m.getSizeZ();
      case dev.loopjit.types.ImageFloat m -> dim == 0 ? m.X() : m.Y();
      case dev.loopjit.types.ImageFloat3 m -> dim == 0 ? m.X() : m.Y();
      case dev.loopjit.types.ImageFloat4 m -> dim == 0 ? m.X() : m.Y();
      case dev.loopjit.types.ImageFloat8 m -> dim == 0 ? m.X() : m.Y();
      case dev.loopjit.types.ImageByte3 m -> dim == 0 ? m.X() : m.Y();
      case dev.loopjit.types.ImageByte4 m -> dim == 0 ? m.X() : m.Y();
      case dev.loopjit.types.VolumeShort2 m -> dim == 0 ? m.X() : dim == 1 ? m.Y() : m.Z();
      case dev.loopjit.types.Matrix4x4Float m -> 4;
      default -> dim == 0 ? 1 : length;
    };
  }

  /** A new zeroed host array of the same class and shape (a device's own copy, on the jvm). */
  public Object newZeroed() {
    if (cell()) return new AtomicInteger();
    return array instanceof NativeCollection c ? c.withArray((NativeArray) HostArray.of(c.getArray()).newZeroed()) : newZeroed(length);
  }

  /**
   * A new zeroed host array of the same class and shape whose off-heap memory belongs to
   * {@code arena} (heap arrays: the GC's, as {@link #newZeroed()}): a device's own copy that
   * closing the arena frees at once, rather than when the GC next runs.
   */
  public Object newZeroed(java.lang.foreign.Arena arena) {
    return switch (array) {
      case NativeCollection c -> c.withArray((NativeArray) HostArray.of(c.getArray()).newZeroed(arena));
      case NativeArray a -> {
        long bytes = byteSize();
        MemorySegment memory = arena.allocate(Math.max(1L, bytes), NativeArray.ALIGNMENT).asSlice(0, bytes);   // zeroed
        try {
          yield a.getClass().getMethod("fromSegmentShallow", MemorySegment.class).invoke(null, memory);
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException(e);
        }
      }
      default -> newZeroed();
    };
  }

  /**
   * A new zeroed array of the same class with {@code n} elements (a slice's own, for batches); not
   * for collections, whose shape a length does not give.
   */
  public Object newZeroed(int n) {
    return switch (array) {
      case NativeCollection c -> throw new IllegalArgumentException(describe() + " is a collection, not cut into slices");
      case AtomicInteger c -> throw new IllegalArgumentException("an AtomicInteger is not cut into slices");
      case NativeArray a -> {
        try {
          yield a.getClass().getConstructor(int.class).newInstance(n);
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException(e);
        }
      }
      default -> Array.newInstance(array.getClass().getComponentType(), n);
    };
  }

  /**
   * The memory: the NativeArray's segment, or a heap segment over the Java array; null for
   * {@code boolean[]} and an {@code AtomicInteger}, which have no segment view (use {@link #copyTo}/{@link #copyFrom}).
   */
  public MemorySegment segment() {
    return switch (array) {
      case NativeArray a -> a.getSegment();
      case NativeCollection c -> c.getSegment();
      case float[] a -> MemorySegment.ofArray(a);
      case double[] a -> MemorySegment.ofArray(a);
      case int[] a -> MemorySegment.ofArray(a);
      case long[] a -> MemorySegment.ofArray(a);
      case short[] a -> MemorySegment.ofArray(a);
      case char[] a -> MemorySegment.ofArray(a);
      case byte[] a -> MemorySegment.ofArray(a);
      case boolean[] a -> null;
      case AtomicInteger a -> null;
      default -> throw new IllegalStateException(array.getClass().toString());
    };
  }

  /** Copies the whole array into {@code dst} (at least {@link #byteSize()} bytes); booleans as bytes 0/1, an AtomicInteger's value. */
  public void copyTo(MemorySegment dst) {
    if (array instanceof AtomicInteger a) {
      dst.set(java.lang.foreign.ValueLayout.JAVA_INT, 0, a.get());
    } else if (array instanceof boolean[] a) {
      for (int i = 0; i < a.length; i++) dst.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) (a[i] ? 1 : 0));
    } else {
      MemorySegment.copy(segment(), 0, dst, 0, byteSize());
    }
  }

  /** Copies {@link #byteSize()} bytes from {@code src} into the array; a nonzero byte is {@code true}; an AtomicInteger is set. */
  public void copyFrom(MemorySegment src) {
    if (array instanceof AtomicInteger a) {
      a.set(src.get(java.lang.foreign.ValueLayout.JAVA_INT, 0));
    } else if (array instanceof boolean[] a) {
      for (int i = 0; i < a.length; i++) a[i] = src.get(java.lang.foreign.ValueLayout.JAVA_BYTE, i) != 0;
    } else {
      MemorySegment.copy(src, 0, segment(), 0, byteSize());
    }
  }

  /** Bytes of memory. */
  public long byteSize() {
    return (long) length * element.bytes();
  }

  /** A short description for messages: {@code float[1024]}, {@code FloatArray[1024]}. */
  public String describe() {
    if (cell()) return "AtomicInteger";
    return (offHeap() ? array.getClass().getSimpleName() : element.javaName() + "[]").replace("[]", "") + "[" + length + "]";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof HostArray h && h.array == array;
  }

  @Override
  public int hashCode() {
    return System.identityHashCode(array);
  }
}
