// Conformance kernels with Math.addExact and friends: Java's values, and Java's ArithmeticException where they overflow.
package dev.loopjit.conformance;

import dev.loopjit.api.KernelContext;
import dev.loopjit.api.Parallel;

/** Checked by {@link ExactKernelsTest}: equal to the jvm where nothing overflows, Java's exception where something does. */
public final class ExactKernels {
  private ExactKernels() {}

  /** Every int and long *Exact method of Math, each result in its own slot. */
  public static void everyExact(int[] a, int[] b, long[] la, long[] lb, int[] io, long[] lo) {
    for (@Parallel int i = 0; i < a.length; i++) {
      io[i * 8] = Math.addExact(a[i], b[i]);
      io[i * 8 + 1] = Math.subtractExact(a[i], b[i]);
      io[i * 8 + 2] = Math.multiplyExact(a[i], b[i]);
      io[i * 8 + 3] = Math.incrementExact(a[i]);
      io[i * 8 + 4] = Math.decrementExact(b[i]);
      io[i * 8 + 5] = Math.negateExact(a[i]);
      io[i * 8 + 6] = Math.toIntExact(la[i] >> 20);
      io[i * 8 + 7] = StrictMath.absExact(b[i]);
      lo[i * 7] = Math.addExact(la[i], lb[i]);
      lo[i * 7 + 1] = Math.subtractExact(la[i], lb[i]);
      lo[i * 7 + 2] = Math.multiplyExact(la[i] >> 16, lb[i] >> 16);
      lo[i * 7 + 3] = Math.multiplyExact(la[i] >> 16, b[i]);
      lo[i * 7 + 4] = Math.incrementExact(la[i]) + Math.decrementExact(lb[i]);
      lo[i * 7 + 5] = Math.negateExact(lb[i]);
      lo[i * 7 + 6] = Math.absExact(la[i]);
    }
  }

  /** A running total whose addition overflows at some index of some inputs. */
  public static void sumsOf(int[] a, int[] out) {
    for (@Parallel int i = 0; i < a.length; i++) out[i] = Math.addExact(a[i], 1_000_000_000); // the overflow's line
  }

  /** The same in a KernelContext kernel with a barrier (where the failing work-item goes on, its results discarded). */
  public static void sumsWithBarrier(KernelContext ctx, int[] a, int[] out) {
    int[] tile = ctx.allocateIntLocalArray(16);
    int i = ctx.globalIdx, l = ctx.localIdx;
    tile[l] = i < a.length ? a[i] : 0;
    ctx.localBarrier();
    if (i < a.length) out[i] = Math.multiplyExact(tile[(l + 1) % 16], 3);
  }
}
