// Maps "graph.task" names to the WorkerGrid each task is launched with.
package dev.loopjit.api;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The launch grids of tasks, by {@code "graphName.taskId"}. {@code KernelContext} tasks need one;
 * for {@code @Parallel} tasks a grid's local size overrides the device's choice (its global size
 * is derived from the loop bounds and must not be set).
 *
 * <pre>{@code
 * GridScheduler s = new GridScheduler("g.reduce", new WorkerGrid1D(n).setLocalWork(256, 1, 1));
 * plan.withGridScheduler(s).execute();
 * }</pre>
 */
public final class GridScheduler {
  private final Map<String, WorkerGrid> grids = new LinkedHashMap<>();

  /** An empty scheduler. */
  public GridScheduler() {}

  /** A scheduler with one grid. */
  public GridScheduler(String taskName, WorkerGrid grid) {
    addWorkerGrid(taskName, grid);
  }

  /** Sets the grid of {@code taskName} ({@code "graphName.taskId"}). */
  public GridScheduler addWorkerGrid(String taskName, WorkerGrid grid) {
    Objects.requireNonNull(taskName, "taskName");
    Objects.requireNonNull(grid, "grid");
    if (taskName.indexOf('.') < 1)
      throw new IllegalArgumentException("task name must be \"graphName.taskId\", got \"" + taskName + "\"");
    grids.put(taskName, grid);
    return this;
  }

  /** The grid of {@code taskName}, or null. */
  public WorkerGrid get(String taskName) {
    return grids.get(taskName);
  }

  /** Whether {@code taskName} has a grid. */
  public boolean contains(String taskName) {
    return grids.containsKey(taskName);
  }

  /** The task names that have grids. */
  public java.util.Set<String> taskNames() {
    return java.util.Collections.unmodifiableSet(grids.keySet());
  }

  @Override
  public String toString() {
    return "GridScheduler" + grids;
  }
}
