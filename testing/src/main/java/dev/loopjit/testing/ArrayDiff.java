// Element-wise comparison of one kernel array (any primitive array or dev.loopjit.types array) against the jvm's.
package dev.loopjit.testing;

import dev.loopjit.types.ByteArray;
import dev.loopjit.types.CharArray;
import dev.loopjit.types.DoubleArray;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.HalfFloatArray;
import dev.loopjit.types.IntArray;
import dev.loopjit.types.LongArray;
import dev.loopjit.types.NativeArray;
import dev.loopjit.types.NativeCollection;
import dev.loopjit.types.ShortArray;
import java.lang.reflect.Array;

/**
 * Compares two arrays of the same kernel type: integers, chars and booleans exactly, floating
 * point by a {@link Tolerance}. The message of a difference names the device, the parameter, how
 * many elements differ, the first index and both values with their bits. Kernel arrays are the
 * primitive Java arrays and the off-heap arrays of {@code dev.loopjit.types}.
 *
 * <pre>{@code
 * String why = ArrayDiff.compare("opencl:0", "parameter 2 (y: FloatArray[997])", jvmY, deviceY, Tolerance.ulps(2));
 * if (why != null) fail(why);
 * }</pre>
 */
public final class ArrayDiff {
  private static final int EXAMPLES = 4;

  private ArrayDiff() {}

  /** The element types of kernel arrays. */
  enum Kind {
    BOOLEAN, BYTE, CHAR, SHORT, INT, LONG, FLOAT, DOUBLE, HALF;

    boolean isFloating() {
      return this == FLOAT || this == DOUBLE || this == HALF;
    }
  }

  /** Null when {@code actual} agrees with {@code expected} everywhere; else what differs, in one message. */
  public static String compare(String device, String parameter, Object expected, Object actual, Tolerance tolerance) {
    Kind e = kindOf(expected), a = kindOf(actual);
    if (e == null || a == null) throw new IllegalArgumentException("not kernel arrays: " + expected + ", " + actual);
    String head = device + ": " + parameter;
    if (e != a || expected.getClass() != actual.getClass())
      return head + " has type " + describe(actual) + " on the device but " + describe(expected) + " on the jvm";
    if (length(expected) != length(actual)) return head + " has " + length(actual) + " elements on the device but " + length(expected) + " on the jvm";
    long[] x = bits(expected), y = bits(actual);
    int count = 0, first = -1;
    StringBuilder more = new StringBuilder();
    for (int i = 0; i < x.length; i++) {
      if (agree(e, x[i], y[i], tolerance)) continue;
      if (count == 0) first = i;
      else if (count < EXAMPLES) more.append(String.format("%n  [%d] jvm %s, %s %s", i, show(e, x[i]), device, show(e, y[i])));
      count++;
    }
    if (count == 0) return null;
    return String.format("%s differs from the jvm in %d of %d element(s) (tolerance %s); first at index %d: jvm %s, %s %s%s",
        head, count, x.length, e.isFloating() ? tolerance : "exact", first, show(e, x[first]), device, show(e, y[first]), more);
  }

  /** The first index where {@code actual} and {@code expected} (kernel arrays of one type and length) disagree, or -1. */
  public static int firstDifference(Object expected, Object actual, Tolerance tolerance) {
    Kind k = kindOf(expected);
    if (k == null || k != kindOf(actual) || length(expected) != length(actual)) return -1;
    long[] x = bits(expected), y = bits(actual);
    for (int i = 0; i < x.length; i++) if (!agree(k, x[i], y[i], tolerance)) return i;
    return -1;
  }

  /** Whether {@code o} is an array kernels take: a primitive Java array, an off-heap {@code dev.loopjit.types} array, or an AtomicInteger (one int). */
  public static boolean isKernelArray(Object o) {
    return kindOf(o) != null;
  }

  /** Element {@code i} of kernel array {@code array} for a message: its value and bits ({@code 1.5 (0x3fc00000)}). */
  public static String element(Object array, int i) {
    Kind k = kindOf(array);
    if (k == null) throw new IllegalArgumentException("not a kernel array: " + array);
    return show(k, bits(array)[i]);
  }

  /** A short description for messages: {@code float[1024]}, {@code FloatArray[1024]}. */
  public static String describe(Object array) {
    Kind k = kindOf(array);
    if (k == null) throw new IllegalArgumentException("not a kernel array: " + array);
    if (array instanceof java.util.concurrent.atomic.AtomicInteger) return "AtomicInteger";
    return (array instanceof NativeArray || array instanceof NativeCollection ? array.getClass().getSimpleName() : k.name().toLowerCase(java.util.Locale.ROOT)) + "[" + length(array) + "]";
  }

  /** The number of elements of a kernel array. */
  static int length(Object array) {
    if (array instanceof NativeCollection c) return c.getArray().getSize();
    if (array instanceof java.util.concurrent.atomic.AtomicInteger) return 1;
    return array instanceof NativeArray a ? a.getSize() : Array.getLength(array);
  }

  /** The element type of a kernel array, or null when {@code o} is not one. */
  static Kind kindOf(Object o) {
    return switch (o) {
      case null -> null;
      case float[] a -> Kind.FLOAT;
      case double[] a -> Kind.DOUBLE;
      case int[] a -> Kind.INT;
      case long[] a -> Kind.LONG;
      case short[] a -> Kind.SHORT;
      case byte[] a -> Kind.BYTE;
      case char[] a -> Kind.CHAR;
      case boolean[] a -> Kind.BOOLEAN;
      case FloatArray a -> Kind.FLOAT;
      case DoubleArray a -> Kind.DOUBLE;
      case HalfFloatArray a -> Kind.HALF;
      case IntArray a -> Kind.INT;
      case LongArray a -> Kind.LONG;
      case ShortArray a -> Kind.SHORT;
      case ByteArray a -> Kind.BYTE;
      case CharArray a -> Kind.CHAR;
      case NativeCollection c -> kindOf(c.getArray());   // a matrix or vector: its storage array, element by element
      case java.util.concurrent.atomic.AtomicInteger a -> Kind.INT;   // a counter: one int
      default -> null;
    };
  }

  /** Whether two elements (as {@link #bits} gives them) agree. */
  static boolean agree(Kind kind, long expected, long actual, Tolerance t) {
    return switch (kind) {
      case FLOAT -> t.accepts(Float.intBitsToFloat((int) expected), Float.intBitsToFloat((int) actual));
      case DOUBLE -> t.accepts(Double.longBitsToDouble(expected), Double.longBitsToDouble(actual));
      case HALF -> t.acceptsHalf((short) expected, (short) actual);
      case BOOLEAN, BYTE, CHAR, SHORT, INT, LONG -> expected == actual;
    };
  }

  /** An element for a message: its value and its bits in hex. */
  static String show(Kind kind, long bits) {
    return switch (kind) {
      case FLOAT -> Float.intBitsToFloat((int) bits) + String.format(" (0x%08x)", (int) bits);
      case DOUBLE -> Double.longBitsToDouble(bits) + String.format(" (0x%016x)", bits);
      case HALF -> Float.float16ToFloat((short) bits) + String.format(" (0x%04x)", bits & 0xffff);
      case BOOLEAN -> String.valueOf(bits != 0);
      case BYTE -> bits + String.format(" (0x%02x)", bits & 0xff);
      case CHAR, SHORT -> bits + String.format(" (0x%04x)", bits & 0xffff);
      case INT -> bits + String.format(" (0x%08x)", bits & 0xffffffffL);
      case LONG -> bits + String.format(" (0x%016x)", bits);
    };
  }

  /** Every element as raw bits in a long: floats by their raw IEEE bits, halves by their 16 bits, integers by value. */
  static long[] bits(Object array) {
    int n = length(array);
    long[] out = new long[n];
    switch (array) {
      case float[] a -> { for (int i = 0; i < n; i++) out[i] = Float.floatToRawIntBits(a[i]); }
      case double[] a -> { for (int i = 0; i < n; i++) out[i] = Double.doubleToRawLongBits(a[i]); }
      case int[] a -> { for (int i = 0; i < n; i++) out[i] = a[i]; }
      case long[] a -> System.arraycopy(a, 0, out, 0, n);
      case short[] a -> { for (int i = 0; i < n; i++) out[i] = a[i]; }
      case byte[] a -> { for (int i = 0; i < n; i++) out[i] = a[i]; }
      case char[] a -> { for (int i = 0; i < n; i++) out[i] = a[i]; }
      case boolean[] a -> { for (int i = 0; i < n; i++) out[i] = a[i] ? 1 : 0; }
      case FloatArray a -> { for (int i = 0; i < n; i++) out[i] = Float.floatToRawIntBits(a.get(i)); }
      case DoubleArray a -> { for (int i = 0; i < n; i++) out[i] = Double.doubleToRawLongBits(a.get(i)); }
      case HalfFloatArray a -> { for (int i = 0; i < n; i++) out[i] = a.getHalfBits(i); }
      case IntArray a -> { for (int i = 0; i < n; i++) out[i] = a.get(i); }
      case LongArray a -> { for (int i = 0; i < n; i++) out[i] = a.get(i); }
      case ShortArray a -> { for (int i = 0; i < n; i++) out[i] = a.get(i); }
      case ByteArray a -> { for (int i = 0; i < n; i++) out[i] = a.get(i); }
      case CharArray a -> { for (int i = 0; i < n; i++) out[i] = a.get(i); }
      case NativeCollection c -> System.arraycopy(bits(c.getArray()), 0, out, 0, n);
      case java.util.concurrent.atomic.AtomicInteger a -> out[0] = a.get();
      default -> throw new IllegalArgumentException("not a kernel array: " + array.getClass().getName());
    }
    return out;
  }
}
