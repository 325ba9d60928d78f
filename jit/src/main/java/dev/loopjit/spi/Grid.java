// A launch shape: global size, optional local size, and the @Parallel trip counts the kernel guards with.
package dev.loopjit.spi;

import java.util.Arrays;

/**
 * A launch: {@code dims} dimensions, the global size and the local size (null: the device picks).
 * For {@code @Parallel} kernels {@code counts} are the loop trip counts (the global size before
 * rounding up to the local size); the kernel receives them to guard its extra work-items.
 */
public record Grid(int dims, long[] global, long[] local, long[] counts) {
  /**
   * How many work-items a grid-stride kernel needs in dimension x: enough groups to fill every
   * compute unit a few times over (more on a GPU, to hide memory latency), never more than the
   * rounded-up iteration count.
   */
  public static long strided(long global, long local, int computeUnits, boolean cpu) {
    long groups = (long) Math.max(1, computeUnits) * (cpu ? 4 : 32);
    return Math.min(global, groups * local);
  }

  /**
   * The launch of a kernel's prologue or epilogue: one work-item, every trip count {@code phase}
   * ({@code Launch.Loops.PROLOGUE} or {@code EPILOGUE}, which the kernel tests for).
   */
  public static Grid once(int dims, int phase) {
    long[] one = new long[dims], counts = new long[dims];
    Arrays.fill(one, 1);
    Arrays.fill(counts, phase);
    return new Grid(dims, one, one.clone(), counts);
  }

  @Override
  public String toString() {
    return "Grid(" + dims + "D global=" + Arrays.toString(global) + " local=" + (local == null ? "auto" : Arrays.toString(local)) + ")";
  }
}
