// How a kernel is launched: one work-item, a grid from @Parallel loop bounds, or an explicit WorkerGrid.
package dev.loopjit.ir;

import java.util.List;

/** A kernel's launch shape. */
public sealed interface Launch {
  /** No {@code @Parallel} loop: one work-item runs the whole method. */
  record Single() implements Launch {}

  /**
   * A {@code @Parallel} nest: {@code counts.get(d)} is the trip count of the loop mapped to
   * dimension d (x = innermost loop), an expression of scalar parameters and array lengths that
   * the host evaluates at launch. Never specialised: a new size never recompiles.
   */
  record Loops(List<Expr> counts, int maxGroupSize, boolean gridStride) implements Launch {
    public Loops {
      counts = List.copyOf(counts);
    }

    public Loops(List<Expr> counts) {
      this(counts, 0, false);
    }
  }

  /** A KernelContext kernel; the grid comes from the plan's GridScheduler. */
  record Explicit() implements Launch {}
}
