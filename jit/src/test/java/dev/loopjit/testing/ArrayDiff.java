// Element-wise comparison of one kernel array (any primitive array or dev.loopjit.types array) against the jvm's.
package dev.loopjit.testing;

import dev.loopjit.ir.Prim;
import dev.loopjit.spi.HostArray;
import dev.loopjit.types.ByteArray;
import dev.loopjit.types.DoubleArray;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.HalfFloatArray;
import dev.loopjit.types.IntArray;
import dev.loopjit.types.LongArray;
import dev.loopjit.types.ShortArray;

/**
 * Compares two arrays of the same kernel type: integers, chars and booleans exactly, floating
 * point by a {@link Tolerance}. The message of a difference names the device, the parameter, how
 * many elements differ, the first index and both values with their bits.
 *
 * <pre>{@code
 * String why = ArrayDiff.compare("opencl:0", "parameter 2 (y: FloatArray[997])", jvmY, deviceY, Tolerance.ulps(2));
 * if (why != null) fail(why);
 * }</pre>
 */
public final class ArrayDiff {
  private static final int EXAMPLES = 4;

  private ArrayDiff() {}

  /** Null when {@code actual} agrees with {@code expected} everywhere; else what differs, in one message. */
  public static String compare(String device, String parameter, Object expected, Object actual, Tolerance tolerance) {
    HostArray e = HostArray.of(expected), a = HostArray.of(actual);
    if (e == null || a == null) throw new IllegalArgumentException("not kernel arrays: " + expected + ", " + actual);
    String head = device + ": " + parameter;
    if (e.element() != a.element() || expected.getClass() != actual.getClass())
      return head + " has type " + a.describe() + " on the device but " + e.describe() + " on the jvm";
    if (e.length() != a.length()) return head + " has " + a.length() + " elements on the device but " + e.length() + " on the jvm";
    Prim kind = e.element();
    long[] x = bits(expected), y = bits(actual);
    int count = 0, first = -1;
    StringBuilder more = new StringBuilder();
    for (int i = 0; i < x.length; i++) {
      if (agree(kind, x[i], y[i], tolerance)) continue;
      if (count == 0) first = i;
      else if (count < EXAMPLES) more.append(String.format("%n  [%d] jvm %s, %s %s", i, show(kind, x[i]), device, show(kind, y[i])));
      count++;
    }
    if (count == 0) return null;
    return String.format("%s differs from the jvm in %d of %d element(s) (tolerance %s); first at index %d: jvm %s, %s %s%s",
        head, count, x.length, kind.isFloating() ? tolerance : "exact", first, show(kind, x[first]), device, show(kind, y[first]), more);
  }

  /** Whether two elements (as {@link #bits} gives them) agree. */
  static boolean agree(Prim kind, long expected, long actual, Tolerance t) {
    return switch (kind) {
      case FLOAT -> t.accepts(Float.intBitsToFloat((int) expected), Float.intBitsToFloat((int) actual));
      case DOUBLE -> t.accepts(Double.longBitsToDouble(expected), Double.longBitsToDouble(actual));
      case HALF -> t.acceptsHalf((short) expected, (short) actual);
      case BOOLEAN, BYTE, CHAR, SHORT, INT, LONG -> expected == actual;
    };
  }

  /** An element for a message: its value and its bits in hex. */
  static String show(Prim kind, long bits) {
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
    int n = HostArray.of(array).length();
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
      default -> throw new IllegalArgumentException("not a kernel array: " + array.getClass().getName());
    }
    return out;
  }
}
