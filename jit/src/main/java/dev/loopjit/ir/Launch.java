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
   * the host evaluates at launch. Never specialised: a new size never recompiles. In the body the
   * counts are the variables {@code countVars} (device arguments), and the work-item's iteration
   * is the {@code Labeled} block {@code frame} (which a break leaves to end the iteration).
   *
   * @param maxGroupSize the largest work-group the kernel may run with (0: the device's)
   * @param gridStride   work-items stride over the range (a reduction) rather than one per iteration
   * @param prologue     the kernel has statements Java runs once, before the loop (a reduction's
   *                     initial value): the host first launches one work-item with every count at
   *                     {@link #PROLOGUE} (the body tests {@code count_x == -1}), then the iterations
   * @param epilogue     the kernel has statements Java runs once, after every iteration: after the
   *                     iterations the host launches one work-item with every count at {@link #EPILOGUE}
   * @param lanes        iterations of dimension x each work-item computes (the {@code coarsen} pass): the
   *                     host launches {@code counts[0] / lanes} work-items in x; 1 for one iteration each
   * @param rows         iterations of dimension y each work-item computes: {@code counts[1] / rows} work-items in y
   */
  record Loops(List<Expr> counts, List<Var> countVars, Label frame, int maxGroupSize, boolean gridStride, boolean prologue,
      boolean epilogue, int lanes, int rows) implements Launch {
    /** The trip count a prologue launch passes (a real count is never negative). */
    public static final int PROLOGUE = -1;
    /** The trip count an epilogue launch passes. */
    public static final int EPILOGUE = -2;

    public Loops {
      counts = List.copyOf(counts);
      countVars = List.copyOf(countVars);
    }

    /** A launch with one iteration per work-item. */
    public Loops(List<Expr> counts, List<Var> countVars, Label frame, int maxGroupSize, boolean gridStride, boolean prologue, boolean epilogue) {
      this(counts, countVars, frame, maxGroupSize, gridStride, prologue, epilogue, 1, 1);
    }

    /** A launch with no prologue or epilogue. */
    public Loops(List<Expr> counts, List<Var> countVars, Label frame, int maxGroupSize, boolean gridStride) {
      this(counts, countVars, frame, maxGroupSize, gridStride, false, false);
    }

    /** A launch over {@code counts}, for code that names no variables for them (tests, hand-written kernels). */
    public Loops(List<Expr> counts) {
      this(counts, List.of(), null, 0, false);
    }

    /** This launch with a group-size limit and a grid-stride flag. */
    public Loops withShape(int maxGroupSize, boolean gridStride) {
      return new Loops(counts, countVars, frame, maxGroupSize, gridStride, prologue, epilogue, lanes, rows);
    }

    /** This launch with {@code lanes} iterations of x and {@code rows} of y per work-item, the iteration now in {@code frame}. */
    public Loops withLanes(int lanes, int rows, Label frame) {
      return new Loops(counts, countVars, frame, maxGroupSize, gridStride, prologue, epilogue, lanes, rows);
    }

    /** This launch with a prologue launch before the iterations. */
    public Loops withPrologue() {
      return new Loops(counts, countVars, frame, maxGroupSize, gridStride, true, epilogue, lanes, rows);
    }

    /** {@code count_x == phase}: true only in the launch of that phase ({@link #PROLOGUE}, {@link #EPILOGUE}). */
    public Expr inPhase(int phase) {
      return new Expr.Compare(Op.Compare.EQ, new Expr.Read(countVars.get(0)), Expr.Const.of(phase));
    }
  }

  /** A KernelContext kernel; the grid comes from the plan's GridScheduler. */
  record Explicit() implements Launch {}
}
