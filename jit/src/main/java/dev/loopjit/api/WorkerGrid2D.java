// A 2-dimensional WorkerGrid.
package dev.loopjit.api;

/**
 * A 2-dimensional launch grid: {@code new WorkerGrid2D(x, y)} runs that many work-items.
 *
 * @see WorkerGrid
 */
public final class WorkerGrid2D extends WorkerGrid {
  /** A grid of the given global size; the device picks the local size unless one is set. */
  public WorkerGrid2D(long x, long y) {
    super(x, y);
  }

  @Override
  public int dimension() {
    return 2;
  }
}
