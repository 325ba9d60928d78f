// A host array a task uses: a primitive Java array or an off-heap NativeArray, seen as bytes.
package dev.loopjit.spi;

import dev.loopjit.ir.Prim;
import dev.loopjit.types.ByteArray;
import dev.loopjit.types.DoubleArray;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.HalfFloatArray;
import dev.loopjit.types.IntArray;
import dev.loopjit.types.LongArray;
import dev.loopjit.types.NativeArray;
import dev.loopjit.types.ShortArray;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Array;

/**
 * A host array as the runtime sees it: its element type, length and memory. Identity is the
 * wrapped object's identity.
 */
public record HostArray(Object array, Prim element, int length) {

  /** The host array for {@code o}, or null when {@code o} is not an array kernels can take. */
  public static HostArray of(Object o) {
    Prim e = elementOf(o == null ? null : o.getClass());
    if (e == null) return null;
    int n = o instanceof NativeArray a ? a.getSize() : Array.getLength(o);
    return new HostArray(o, e, n);
  }

  /** The element type of an array class kernels take ({@code float[].class}, {@code FloatArray.class}), or null. */
  public static Prim elementOf(Class<?> c) {
    if (c == null) return null;
    if (c.isArray()) return c.getComponentType().isPrimitive() ? Prim.of(c.getComponentType()) : null;
    if (c == FloatArray.class) return Prim.FLOAT;
    if (c == DoubleArray.class) return Prim.DOUBLE;
    if (c == IntArray.class) return Prim.INT;
    if (c == LongArray.class) return Prim.LONG;
    if (c == ShortArray.class) return Prim.SHORT;
    if (c == ByteArray.class) return Prim.BYTE;
    if (c == HalfFloatArray.class) return Prim.HALF;
    return null;
  }

  /** Whether the memory is off-heap (a NativeArray), so devices may use it in place. */
  public boolean offHeap() {
    return array instanceof NativeArray;
  }

  /**
   * The memory: the NativeArray's segment, or a heap segment over the Java array; null for
   * {@code boolean[]}, which has no segment view (use {@link #copyTo}/{@link #copyFrom}).
   */
  public MemorySegment segment() {
    return switch (array) {
      case NativeArray a -> a.getSegment();
      case float[] a -> MemorySegment.ofArray(a);
      case double[] a -> MemorySegment.ofArray(a);
      case int[] a -> MemorySegment.ofArray(a);
      case long[] a -> MemorySegment.ofArray(a);
      case short[] a -> MemorySegment.ofArray(a);
      case char[] a -> MemorySegment.ofArray(a);
      case byte[] a -> MemorySegment.ofArray(a);
      case boolean[] a -> null;
      default -> throw new IllegalStateException(array.getClass().toString());
    };
  }

  /** Copies the whole array into {@code dst} (at least {@link #byteSize()} bytes); booleans as bytes 0/1. */
  public void copyTo(MemorySegment dst) {
    if (array instanceof boolean[] a) {
      for (int i = 0; i < a.length; i++) dst.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) (a[i] ? 1 : 0));
    } else {
      MemorySegment.copy(segment(), 0, dst, 0, byteSize());
    }
  }

  /** Copies {@link #byteSize()} bytes from {@code src} into the array; a nonzero byte is {@code true}. */
  public void copyFrom(MemorySegment src) {
    if (array instanceof boolean[] a) {
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
