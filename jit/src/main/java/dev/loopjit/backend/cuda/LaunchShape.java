// Chooses a launch's block size and the number of blocks that covers the grid; pure arithmetic, no driver calls.
package dev.loopjit.backend.cuda;

import dev.loopjit.runtime.Grid;
import java.util.Arrays;

/**
 * The blocks of a launch. Every kernel guards its extra threads (a {@code @Parallel} kernel with
 * its loop counts, a {@code KernelContext} kernel with its own index checks, as on the jvm
 * reference), so the grid is {@code ceil(global / block)} blocks in each dimension and a prime
 * range never forces blocks of one thread. With no local size given:
 * <ul>
 * <li>{@code @Parallel} kernels: 256 (1-D), 16×16 (2-D) or 8×8×4 (3-D) threads, clamped to the
 *     range and to the device and the kernel (registers may lower a kernel's limit below 1024);
 * <li>{@code KernelContext} kernels see their block shape, so they get the jvm backend's default
 *     (64, 8×8, 4×4×4) and compute the same thing on every device.
 * </ul>
 * A local size the device cannot run, or a range that needs more blocks than the device's grid
 * allows, is an IllegalArgumentException before anything is launched.
 */
final class LaunchShape {
  private static final long[][] PARALLEL = {{256}, {16, 16}, {8, 8, 4}};
  private static final long[][] EXPLICIT = {{64}, {8, 8}, {4, 4, 4}};

  private LaunchShape() {}

  /** Blocks and threads per block in x, y, z (1 in the dimensions the grid does not use), as cuLaunchKernel takes them. */
  record Shape(long[] blocks, long[] threads) {
    @Override
    public String toString() {
      return "grid " + Arrays.toString(blocks) + " × block " + Arrays.toString(threads);
    }
  }

  /** What of the device and kernel the choice depends on. */
  record Limits(long maxThreads, long[] maxBlock, long[] maxGrid) {}

  /** The launch of {@code grid} for a kernel under {@code limits}; {@code task} names it in messages. */
  static Shape choose(Grid grid, boolean explicit, Limits limits, String task) {
    int dims = grid.dims();
    long[] threads = {1, 1, 1}, blocks = {1, 1, 1};
    if (grid.local() != null) {
      System.arraycopy(grid.local(), 0, threads, 0, dims);
      check(Arrays.copyOf(threads, dims), limits, task);
    } else {
      long[] shape = (explicit ? EXPLICIT : PARALLEL)[dims - 1];
      for (int d = 0; d < dims; d++) threads[d] = Math.max(1, Math.min(shape[d], Math.min(grid.global()[d], limits.maxBlock()[d])));
      while (threads[0] * threads[1] * threads[2] > limits.maxThreads()) {   // halve the largest dimension until it fits
        int big = 0;
        for (int d = 1; d < 3; d++) if (threads[d] > threads[big]) big = d;
        threads[big] = (threads[big] + 1) / 2;
      }
    }
    for (int d = 0; d < dims; d++) {
      blocks[d] = Math.max(1, (grid.global()[d] + threads[d] - 1) / threads[d]);
      if (blocks[d] > limits.maxGrid()[d])
        throw new IllegalArgumentException("task \"" + task + "\": " + grid + " needs " + blocks[d] + " blocks of " + threads[d]
            + " threads in dimension " + d + "; the device allows at most " + limits.maxGrid()[d] + " (give a larger local size)");
    }
    return new Shape(blocks, threads);
  }

  private static void check(long[] local, Limits limits, String task) {
    long product = 1;
    for (int d = 0; d < local.length; d++) {
      if (local[d] < 1) throw new IllegalArgumentException(where(task, local) + " must be at least 1 in every dimension");
      if (local[d] > limits.maxBlock()[d])
        throw new IllegalArgumentException(where(task, local) + ": dimension " + d + " exceeds the device's limit of "
            + limits.maxBlock()[d] + " threads (CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM " + Arrays.toString(limits.maxBlock()) + ")");
      product *= local[d];
    }
    if (product > limits.maxThreads())
      throw new IllegalArgumentException(where(task, local) + " has " + product + " threads; this kernel on this device takes at most "
          + limits.maxThreads() + " per block");
  }

  private static String where(String task, long[] local) {
    return "task \"" + task + "\": local work size " + Arrays.toString(local);
  }
}
