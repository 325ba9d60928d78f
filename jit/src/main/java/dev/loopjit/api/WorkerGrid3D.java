// A 3-dimensional WorkerGrid.
package dev.loopjit.api;

/**
 * A 3-dimensional launch grid: {@code new WorkerGrid3D(x, y, z)} runs that many work-items.
 *
 * @see WorkerGrid
 */
public final class WorkerGrid3D extends WorkerGrid {
  /** A grid of the given global size; the device picks the local size unless one is set. */
  public WorkerGrid3D(long x, long y, long z) {
    super(x, y, z);
  }

  @Override
  public int dimension() {
    return 3;
  }
}
