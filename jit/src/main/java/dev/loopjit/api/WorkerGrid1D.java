// A 1-dimensional WorkerGrid.
package dev.loopjit.api;

/**
 * A 1-dimensional launch grid: {@code new WorkerGrid1D(x)} runs that many work-items.
 *
 * @see WorkerGrid
 */
public final class WorkerGrid1D extends WorkerGrid {
  /** A grid of the given global size; the device picks the local size unless one is set. */
  public WorkerGrid1D(long x) {
    super(x);
  }

  @Override
  public int dimension() {
    return 1;
  }
}
