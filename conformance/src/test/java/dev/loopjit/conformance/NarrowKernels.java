// Conformance kernels over byte, short, char and boolean: promotion to int, narrowing on store, unsigned char.
package dev.loopjit.conformance;

import dev.loopjit.api.Parallel;
import dev.loopjit.types.ByteArray;
import dev.loopjit.types.IntArray;
import dev.loopjit.types.ShortArray;

/** Narrow-type kernels, checked against the jvm by {@link NarrowKernelsTest}. */
public final class NarrowKernels {
  private NarrowKernels() {}

  public static void byteArithmetic(byte[] a, byte[] b, byte[] out) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = (byte) (a[i] + b[i] * 3);
  }

  public static void shortArithmetic(short[] a, short[] b, short[] out) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = (short) (a[i] * b[i] - 7);
  }

  /** char is unsigned: 0xFFFF * 3 + 40000 wraps at 2^16 when stored. */
  public static void charArithmetic(char[] a, char[] out) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = (char) (a[i] * 3 + 40000);
  }

  /** Non-short-circuit &, |, ^ and ! on booleans. */
  public static void booleanLogic(boolean[] a, boolean[] b, boolean[] out) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = a[i] & !b[i] | a[i] ^ b[i];
  }

  public static void comparisonsToBooleans(int[] a, int[] b, boolean[] less, boolean[] equal) {
    for (@Parallel int i = 0; i < a.length; i++) {
      less[i] = a[i] < b[i];
      equal[i] = a[i] == b[i];
    }
  }

  /** Bytes read as unsigned with & 0xFF, and >>> on a negative byte (which promotes to int first). */
  public static void unsignedBytes(ByteArray a, ByteArray out, IntArray wide) {
    for (@Parallel int i = 0; i < a.getSize(); i++) {
      out.set(i, (byte) (a.get(i) >>> 1));
      wide.set(i, (a.get(i) & 0xFF) + (a.get(i) >>> 4));
    }
  }

  /** Shorts widened to int before they multiply. */
  public static void shortProducts(ShortArray a, ShortArray b, IntArray out) {
    for (@Parallel int i = 0; i < a.getSize(); i++) out.set(i, a.get(i) * b.get(i) + (a.get(i) >> 3));
  }

  /** Compound assignments that narrow implicitly, including >>>= on a negative short. */
  public static void compoundNarrowing(byte[] b, short[] s, char[] c) {
    for (@Parallel int i = 0; i < b.length; i++) {
      b[i] += 100;
      b[i] >>= 1;
      s[i] *= 3;
      s[i] >>>= 2;
      c[i] -= 7;
      c[i] ^= 0x8001;
    }
  }
}
