// A task's code ready to launch on one device, with what the runner must know to call it.
package dev.loopjit.spi;

/** A compiled (or, on the jvm, resolved) kernel. */
public interface DeviceKernel {
  /** How a kernel touches an array parameter. */
  enum Access { NONE, READ, WRITE, READ_WRITE;
    public boolean writes() {
      return this == WRITE || this == READ_WRITE;
    }
  }

  /** How the kernel uses parameter {@code i}; READ_WRITE when unknown. */
  Access access(int param);

  /** Whether this is a KernelContext kernel, launched on a WorkerGrid from the GridScheduler. */
  boolean explicit();

  /**
   * For {@code @Parallel} kernels: the trip count of each parallel loop (1 to 3 entries, x first),
   * computed from the task's arguments; {@code {1}} for a kernel with no parallel loop.
   */
  long[] loopCounts(Object[] args);

  /**
   * Iterations of the innermost parallel loop each work-item computes (the {@code coarsen} pass):
   * the runner launches {@code loopCounts[0] / lanes()} work-items in x. 1 for most kernels.
   */
  default int lanes() {
    return 1;
  }

  /** Iterations of the second parallel loop (y) each work-item computes, with {@link #lanes()}: {@code loopCounts[1] / rows()} in y. */
  default int rows() {
    return 1;
  }

  /**
   * Bytes of local memory a launch with these task arguments and work-group shape needs (its
   * local arrays, those sized at run time included); 0 where the device does not reserve any (the jvm).
   */
  default long localMemoryBytes(Object[] args, long[] localSize) {
    return 0;
  }

  /**
   * The array accesses the kernel checks itself (the {@code bounds} pass): when not empty, a launch
   * takes one more argument after the task's, a {@code long[1]} report buffer the runner zeroes
   * before and reads after ({@link BoundsReports}). Empty for code that needs no report (the jvm).
   */
  default java.util.List<dev.loopjit.ir.BoundsSite> boundsSites() {
    return java.util.List.of();
  }

  /**
   * Whether a launch with these task arguments may report an out-of-bounds index: false when the
   * kernel checks nothing, or when the host rules out every site it checks (its index is below a
   * trip count no larger than the array). The runner then neither reads the report nor keeps the
   * kernel's outputs out of host memory.
   */
  default boolean mayFail(Object[] args) {
    return false;
  }

  /**
   * Whether the kernel has a prologue: what Java runs once before the {@code @Parallel} loop (a
   * reduction's initial value), launched first on {@link Grid#once}. A kernel that runs Java's
   * own code (the jvm) has none.
   */
  default boolean prologue() {
    return false;
  }

  /**
   * The lowered kernel a launch's work is counted from ({@code runtime.KernelWork}): one
   * {@code @Parallel} iteration per work-item, from the kernel's variants (lowered once, the first time
   * it is asked for; a coarsened or chunked kernel's own loops depend on the work-item); null where there
   * is none (a prebuilt kernel, a method only the jvm runs).
   */
  default dev.loopjit.ir.KernelIR workIr() {
    return null;
  }

  /**
   * Which of its kernel's variants this is, and how many the kernel has, for the profile:
   * {@code "unchecked, lanes 16 × 8 (1 of 4)"}; empty where a device has one code per kernel.
   */
  default String variant() {
    return "";
  }

  /** Whether the kernel has an epilogue: what Java runs once after the loop, launched last on {@link Grid#once}. */
  default boolean epilogue() {
    return false;
  }
}
