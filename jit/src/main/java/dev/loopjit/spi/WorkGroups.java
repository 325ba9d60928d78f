// Chooses a launch's work-group (block) size and rounds its global size up to whole groups; pure arithmetic, no device calls.
package dev.loopjit.spi;

import java.util.Arrays;

/**
 * The shape of a launch on any device: an OpenCL NDRange, or CUDA blocks × threads. Every kernel guards its extra work-items (a {@code @Parallel} kernel with
 * its loop counts, a {@code KernelContext} kernel with its own index checks, as on the jvm
 * reference), so the global size is rounded up to whole work-groups: a prime range never forces a
 * work-group of one. With no local size given:
 * <ul>
 * <li>{@code @Parallel} kernels on a GPU: 256 (1-D), 16×16 (2-D) or 8×8×4 (3-D) work-items,
 *     clamped to the range and the device;
 * <li>{@code @Parallel} kernels on a CPU (where PoCL vectorises across a work-group): in 1-D, about
 *     32 groups per compute unit, so that the driver's threads can balance uneven work (one group
 *     for the whole range leaves a core idle, ARCHITECTURE §6), of 8 to 4096 work-items, since every
 *     group costs a dispatch (the LocalSize benchmark: matvec of 4096 rows fastest with groups of
 *     64, a 16M vector add with groups of 4096, docs/performance-log.md); in 2-D, rows of up to 64
 *     along x and up to 256 work-items per group, at least two groups per compute unit (for naive
 *     matmul and dense every shape with enough groups measured within 10% of the others);
 * <li>{@code KernelContext} kernels see their work-group shape, so they get the jvm backend's
 *     default (64, 8×8, 4×4×4) and compute the same thing on every device.
 * </ul>
 * A grid-stride kernel (a reduction) gets enough groups to fill every compute unit a few times
 * over, not one work-item per iteration. A local size the device cannot run, or a range that needs
 * more groups than the device allows, is an IllegalArgumentException before anything is launched.
 */
public final class WorkGroups {
  private static final long[][] GPU = {{256}, {16, 16}, {8, 8, 4}};
  private static final long[][] EXPLICIT = {{64}, {8, 8}, {4, 4, 4}};
  private static final int CPU_GROUP = 256, CPU_ROW = 64, VECTOR = 8, CPU_GROUPS_PER_UNIT = 32, CPU_MAX_1D = 4096;

  private WorkGroups() {}

  /**
   * The work-group shape a launch of {@code grid} will have as far as the device does not limit it:
   * the grid's own, or for a KernelContext kernel without one the default above (clamped to the range).
   */
  public static long[] expectedLocal(Grid grid, boolean explicit) {
    if (grid.local() != null) return grid.local();
    if (!explicit) return null;
    long[] local = new long[grid.dims()];
    for (int d = 0; d < local.length; d++) local[d] = Math.max(1, Math.min(EXPLICIT[grid.dims() - 1][d], grid.global()[d]));
    return local;
  }

  /** The global and local size, {@code dims} entries each (the global size a whole number of groups). */
  public record Shape(int dims, long[] global, long[] local) {
    /** Groups in x, y, z (1 in the dimensions the launch does not use), as cuLaunchKernel takes them. */
    public long[] groups() {
      long[] g = {1, 1, 1};
      for (int d = 0; d < dims; d++) g[d] = global[d] / local[d];
      return g;
    }

    /** Work-items per group in x, y, z (1 in the dimensions the launch does not use). */
    public long[] groupSize() {
      long[] t = {1, 1, 1};
      System.arraycopy(local, 0, t, 0, dims);
      return t;
    }

    @Override
    public String toString() {
      return "global " + Arrays.toString(global) + ", local " + Arrays.toString(local);
    }
  }

  /**
   * What of the device and kernel the choice depends on.
   *
   * @param cpu          the device is a CPU (PoCL): the CPU policy above
   * @param computeUnits compute units (cores, multiprocessors)
   * @param maxGroup     work-items per group this kernel may have on this device
   * @param maxItems     work-items per group in each dimension
   * @param maxGroups    groups in each dimension, or null for no limit
   * @param itemsName    the driver's name for {@code maxItems}, for messages
   */
  public record Limits(boolean cpu, int computeUnits, long maxGroup, long[] maxItems, long[] maxGroups, String itemsName) {
    /** Limits of an OpenCL device (no limit on the number of groups). */
    public Limits(boolean cpu, int computeUnits, long maxGroup, long[] maxItems) {
      this(cpu, computeUnits, maxGroup, maxItems, null, "CL_DEVICE_MAX_WORK_ITEM_SIZES");
    }
  }

  /**
   * The launch shape of {@code grid}. Throws IllegalArgumentException when a given local size
   * exceeds the device's limits.
   */
  public static Shape choose(Grid grid, boolean explicit, Limits limits, String task) {
    return choose(grid, explicit, false, limits, task);
  }

  /** As {@link #choose(Grid, boolean, Limits, String)}; {@code gridStride} kernels get enough groups to fill the device, not one item per iteration. */
  public static Shape choose(Grid grid, boolean explicit, boolean gridStride, Limits limits, String task) {
    int dims = grid.dims();
    long[] global = Arrays.copyOf(grid.global(), dims);
    long[] local;
    if (grid.local() != null) {
      local = Arrays.copyOf(grid.local(), dims);
      check(local, limits, task);
    } else if (explicit) {
      local = clamped(EXPLICIT[dims - 1], global, limits);
    } else {
      local = limits.cpu() ? cpu(global, limits) : gpu(global, limits);
    }
    for (int d = 0; d < dims; d++) global[d] = Math.max(1, (global[d] + local[d] - 1) / local[d]) * local[d];
    if (gridStride) global[0] = Grid.strided(global[0], local[0], limits.computeUnits(), limits.cpu());
    if (limits.maxGroups() != null)
      for (int d = 0; d < dims; d++)
        if (global[d] / local[d] > limits.maxGroups()[d])
          throw new IllegalArgumentException("task \"" + task + "\": " + grid + " needs " + global[d] / local[d] + " groups of " + local[d]
              + " in dimension " + d + "; the device allows at most " + limits.maxGroups()[d] + " (give a larger local size)");
    return new Shape(dims, global, local);
  }

  /**
   * {@code grid} with the work-group shape for a coarsened kernel (a block of lanes × rows per
   * work-item, the {@code coarsen} pass) on a CPU: 4 × 16 work-items, tall, so that the work-items
   * one core runs in turn (y) read the same block of columns while it is in cache (naive matmul
   * 2048: 42 → 50 GFLOP/s against the default 64 × 4; 1024: 63 → 74; docs/performance-log.md).
   */
  public static Grid coarsened(Grid grid) {
    long[] local = new long[grid.dims()];
    java.util.Arrays.fill(local, 1);
    local[0] = Math.min(grid.global()[0], 4);
    local[1] = Math.min(grid.global()[1], 16);
    return new Grid(grid.dims(), grid.global(), local, grid.counts());
  }

  private static void check(long[] local, Limits limits, String task) {
    long product = 1;
    for (int d = 0; d < local.length; d++) {
      if (local[d] < 1) throw new IllegalArgumentException(where(task, local) + " must be at least 1 in every dimension");
      if (local[d] > limits.maxItems()[d])
        throw new IllegalArgumentException(where(task, local) + ": dimension " + d + " exceeds the device's limit of "
            + limits.maxItems()[d] + " work-items (" + limits.itemsName() + " " + Arrays.toString(limits.maxItems()) + ")");
      product *= local[d];
    }
    if (product > limits.maxGroup())
      throw new IllegalArgumentException(where(task, local) + " has " + product + " work-items; this kernel on this device takes at most "
          + limits.maxGroup() + " per work-group");
  }

  private static String where(String task, long[] local) {
    return "task \"" + task + "\": local work size " + Arrays.toString(local);
  }

  private static long[] gpu(long[] global, Limits limits) {
    return clamped(GPU[global.length - 1], global, limits);
  }

  /** {@code shape} clamped to the range and to the device. */
  private static long[] clamped(long[] shape, long[] global, Limits limits) {
    long[] local = new long[global.length];
    for (int d = 0; d < local.length; d++) local[d] = Math.max(1, Math.min(shape[d], Math.min(global[d], limits.maxItems()[d])));
    return fit(local, limits);
  }

  private static long[] cpu(long[] global, Limits limits) {
    long[] local = new long[global.length];
    long wanted = 2L * Math.max(1, limits.computeUnits());
    if (global.length == 1) {
      long l = ceil(global[0], (long) CPU_GROUPS_PER_UNIT * Math.max(1, limits.computeUnits()));
      l = Math.min(CPU_MAX_1D, ceil(Math.max(l, VECTOR), VECTOR) * VECTOR);   // whole vector lanes
      while (l > VECTOR && ceil(global[0], l) < wanted) l -= VECTOR;         // a small range still feeds every core
      local[0] = Math.max(1, Math.min(Math.min(l, global[0]), limits.maxItems()[0]));
      return fit(local, limits);
    }
    // Rows along x (PoCL vectorises the innermost dimension), then fill up to CPU_GROUP items.
    local[0] = Math.max(1, Math.min(Math.min(global[0], CPU_ROW), limits.maxItems()[0]));
    long room = CPU_GROUP / local[0];
    for (int d = 1; d < local.length; d++) {
      local[d] = Math.max(1, Math.min(Math.min(global[d], room), limits.maxItems()[d]));
      room = Math.max(1, room / local[d]);
    }
    // Enough groups for every core: shrink the outermost dimension first.
    for (int d = local.length - 1; d >= 0; d--)
      while (local[d] > 1 && groups(global, local) < wanted) local[d] = ceil(local[d], 2);
    return fit(local, limits);
  }

  /** Halves the largest dimension until the group fits the device (and the kernel's own limit). */
  private static long[] fit(long[] local, Limits limits) {
    while (product(local) > limits.maxGroup()) {
      int big = largest(local);
      local[big] = ceil(local[big], 2);
    }
    return local;
  }

  private static long groups(long[] global, long[] local) {
    long g = 1;
    for (int d = 0; d < global.length; d++) g *= ceil(global[d], local[d]);
    return g;
  }

  private static long product(long[] a) {
    long p = 1;
    for (long x : a) p *= x;
    return p;
  }

  private static int largest(long[] a) {
    int big = 0;
    for (int d = 1; d < a.length; d++) if (a[d] > a[big]) big = d;
    return big;
  }

  private static long ceil(long a, long b) {
    return (a + b - 1) / b;
  }
}
