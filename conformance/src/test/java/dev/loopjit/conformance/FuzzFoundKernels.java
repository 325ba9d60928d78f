// Conformance kernels from problems the differential fuzzer found (scripts/fuzz), each with the seed that showed it.
package dev.loopjit.conformance;

import dev.loopjit.api.KernelContext;
import dev.loopjit.api.Parallel;
import dev.loopjit.api.Reduce;
import dev.loopjit.types.FloatArray;

/**
 * Each kernel is a fuzzer reproducer made readable, checked against the jvm by
 * {@link FuzzFoundKernelsTest}. The comment names the seed ({@code scripts/fuzz SEED 1} shows the
 * original) and what went wrong before the fix.
 */
public final class FuzzFoundKernels {
  private FuzzFoundKernels() {}

  static int square(int x) {
    return x * x;
  }

  /**
   * Seeds 18, 104, 114: a reduction whose value calls a method was refused ("the @Reduce array is
   * used except as out[k] = out[k] OP x"): the parser reads {@code out[0]} into a temporary before
   * the call, and the reduce pass did not see the update's shape through it.
   */
  public static void reductionOfACall(int[] a, short[] s, @Reduce long[] sum, @Reduce int[] max) {
    for (@Parallel int i = 0; i < a.length; i++) {
      sum[0] = sum[0] + (long) s[Math.floorMod(a[i], s.length)];
      max[0] = Math.max(max[0], square(a[i] % 1000));
    }
  }

  /**
   * Seed 1031: {@code Math.max(0d, out[0])} as a reduction was refused: the simplify pass turns a
   * max with a constant into {@code x <= 0 ? 0 : x}, which the reduce pass did not recognise.
   */
  public static void reductionWithAConstant(FloatArray a, @Reduce double[] max, @Reduce float[] min) {
    for (@Parallel int i = 0; i < a.getSize(); i++) {
      max[0] = Math.max(0d, max[0]);
      max[0] = Math.max(max[0], a.get(i));
      min[0] = Math.min(-1.5f, min[0]);
    }
  }

  /**
   * Seeds 100198, 100498: {@code out[0] += -37} was refused: the simplify pass writes {@code x + -37}
   * as {@code x - 37}, which the reduce pass did not take for an addition. And {@code out[0] * 1}
   * folds to {@code out[0] = out[0]}, an update that changes nothing (the array gets no other).
   */
  public static void reductionOfFoldedConstants(int[] a, @Reduce int[] sum, @Reduce long[] total, @Reduce long[] nothing) {
    for (@Parallel int i = 0; i < a.length; i++) {
      sum[0] = sum[0] + (int) -37.35;
      sum[0] = sum[0] + a[i];
      total[0] += -4317370055250052886L;
      nothing[0] = nothing[0] * 1;
    }
  }

  /**
   * Seed 100737: a reduction whose value is a {@code ?:} with a call in one branch was refused: the
   * parser carries {@code out[0]} across the branches in a temporary that each branch assigns.
   */
  public static void reductionOfAChoice(float[] a, int[] k, @Reduce float[] min, @Reduce int[] sum) {
    for (@Parallel int i = 0; i < a.length; i++) {
      min[0] = Math.min(min[0], a[i] > 0 ? a[Math.floorMod(k[i], a.length)] : -a[i]);
      sum[0] = sum[0] + (k[i] > 5 ? Math.floorDiv(k[i], 3) : square(k[i] & 15));
      sum[0] = sum[0] + (k[i] < 0 ? Math.abs(k[i] % 7) : 1);
    }
  }

  /**
   * Seed 596: after a switch whose arms continue the loop, the structurer copies the code that
   * follows into each path, so the temporary holding {@code out[0]} is assigned in two places;
   * each copy's update still reads the value its own copy just loaded.
   */
  public static void reductionAfterCopiedCode(int[] a, long[] l, int[] o, @Reduce long[] sum) {
    for (@Parallel int i = 0; i < a.length; i++) {
      int x = a[i];
      switch (x % 4) {
        case 1 -> {
          x += 3;
          switch ((byte) (x * 7)) {
            case 1 -> x ^= 5;
            case 0 -> x = -x;
            default -> {
              if (x > 100) x--;
            }
          }
        }
        case -1 -> {
          continue;
        }
        case 2 -> {
          continue;
        }
        default -> {}
      }
      sum[0] = sum[0] + (Long.MAX_VALUE ^ l[Math.floorMod(i * i, l.length)]);
      o[i] = x;
    }
  }

  static final short[] TABLE = {-23941, 30738, -16832, 23159, 128, 0, -32768, -32768};

  /**
   * Seed 2422 (against a first version of the analysis): a table read in the update's value fills a
   * private array between the read of out[0] and the update, which writes no memory the reduction sees.
   */
  public static void reductionReadingATable(int[] a, @Reduce long[] product) {
    for (@Parallel int i = 0; i < a.length; i++)
      product[0] = product[0] * (Math.unsignedMultiplyHigh(-71261L, 3037000500L) | Short.toUnsignedInt(TABLE[(i + a[i]) & 7]));
  }

  /**
   * Seeds 22 and 30, jvm-mt only: code before the loop with loops of its own (Math.IEEEremainder,
   * inlined from FdLibm), which the chunk pass runs again at the start of every iteration, was
   * copied with its labels ("the IR after chunk breaks its rules: label L15 used twice").
   */
  public static void codeBeforeTheLoopRunInEveryIteration(double[] od, int n) {
    double base = Math.IEEEremainder(0d, 0d);
    for (@Parallel int i = 0; i < n; i++) od[i * 16 + 1] = Math.scalb(0d, 0);
  }

  /**
   * Seed 910447, jvm-mt only: a KernelContext kernel with Math.IEEEremainder (FdLibm's loops) under a
   * condition of nested ?:s that folds to false (dead code); the ClassFile API ran the kernel method's builder twice and the emitter
   * kept the first run's labels ("Unexpected label context").
   */
  public static void contextKernelBuiltTwice(KernelContext ctx, float[] fa, double[] od, int n) {
    int i = ctx.globalIdx;
    if (i < n) {
      double v0 = 0d;
      boolean v2 = false;
      char v5 = (char) (byte) fa[Math.floorMod(0, n)];
      if ((v2 ? false : v2) ? Float.isInfinite(0f) : ((v2 ? v2 : v2) ? v2 : Double.isInfinite(0d))) v0 = Math.IEEEremainder(0d, 0d) % 0d;
      od[i] = v0 + v5;
    }
  }

  /**
   * Seed 30 of the CONTEXT_GROUP shape (scripts/fuzz with -Dfuzz.shapes=CONTEXT_GROUP), opencl:0 and
   * SPIR-V: a group-wide early return, a tree sum in a loop of barriers, then work-item 0's store
   * behind a nested if. With the return turned into a flag (the barriers pass) the loop's exit
   * depended on it, and PoCL 3.1 ran the code after the loop with work-item 0's ids: every work-item
   * stored, past the end too (a false out-of-bounds report). A barrier after such a loop fixed it
   * (docs/DRIVER-WORKAROUNDS.md §2).
   */
  public static void groupReturnThenTreeSum(KernelContext ctx, int[] in, int[] out, int n) {
    int i = ctx.globalIdx;
    int lid = ctx.localIdx;
    int[] shared = ctx.allocateIntLocalArray(64);
    int j = Math.min(i, n - 1);
    if ((ctx.groupIdx + 3) % 3 == 0) return;
    shared[lid] = in[j] * 31 + j;
    ctx.localBarrier();
    for (int step = 32; step > 0; step >>= 1) {
      if (lid < step) shared[lid] += shared[lid + step];
      ctx.localBarrier();
    }
    int total = shared[0];
    if (lid == 0) {
      if (i < n) out[i] = total;
    }
  }
}
