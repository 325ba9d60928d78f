// The launch shape of a task: a global size and an optional local (work-group) size in 1 to 3 dimensions.
package dev.loopjit.api;

import java.util.Arrays;

/**
 * How many work-items a task runs (the global size) and how they are grouped (the local size).
 * A global size that is not a multiple of the local size is rounded up, so kernels must guard
 * their index ({@code if (ctx.globalIdx < n)}). Without a local size the device picks one.
 *
 * <pre>{@code
 * WorkerGrid grid = new WorkerGrid1D(4096);
 * grid.setLocalWork(128, 1, 1);
 * GridScheduler scheduler = new GridScheduler("graph.reduce", grid);
 * }</pre>
 */
public abstract sealed class WorkerGrid permits WorkerGrid1D, WorkerGrid2D, WorkerGrid3D {
  private final long[] global;
  private long[] local;

  WorkerGrid(long... global) {
    this.global = new long[] {1, 1, 1};
    setGlobalWork(global[0], global.length > 1 ? global[1] : 1, global.length > 2 ? global[2] : 1);
  }

  /** Number of dimensions, 1 to 3. */
  public abstract int dimension();

  /** Sets the global size; unused dimensions must be 1. */
  public WorkerGrid setGlobalWork(long x, long y, long z) {
    long[] g = {x, y, z};
    check("global", g);
    System.arraycopy(g, 0, global, 0, 3);
    return this;
  }

  /** Sets the local (work-group) size; unused dimensions must be 1. */
  public WorkerGrid setLocalWork(long x, long y, long z) {
    long[] l = {x, y, z};
    check("local", l);
    local = l;
    return this;
  }

  /** Lets the device choose the local size. */
  public WorkerGrid setLocalWorkToNull() {
    local = null;
    return this;
  }

  /** The global size, always three entries. */
  public long[] getGlobalWork() {
    return global.clone();
  }

  /** The local size (three entries), or null when the device chooses. */
  public long[] getLocalWork() {
    return local == null ? null : local.clone();
  }

  private void check(String what, long[] size) {
    for (int d = 0; d < 3; d++) {
      if (size[d] < 1) throw new IllegalArgumentException(what + " size must be >= 1 in every dimension: " + Arrays.toString(size));
      if (d >= dimension() && size[d] != 1)
        throw new IllegalArgumentException(what + " size " + Arrays.toString(size) + " has more than " + dimension() + " dimension(s)");
      if (size[d] > Integer.MAX_VALUE) throw new IllegalArgumentException(what + " size too large: " + Arrays.toString(size));
    }
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "(global=" + Arrays.toString(global) + ", local="
        + (local == null ? "auto" : Arrays.toString(local)) + ")";
  }
}
