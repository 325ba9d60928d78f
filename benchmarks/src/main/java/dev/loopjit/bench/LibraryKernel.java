// One tornado-tasks kernel as a benchmark workload: its graph over the family's arrays, the plain Java that computes the same, and that Java's result.
package dev.loopjit.bench;

import dev.loopjit.api.GridScheduler;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.types.FloatArray;
import java.util.function.UnaryOperator;

/**
 * A {@link Workload} assembled from parts, so that each {@link LibraryBenchmarks} family states only
 * what differs between its kernels: the tasks, the array they write, and the Java that gives the same.
 *
 * @param graph      the graph's name (a KernelContext task's grid is named {@code graph.task})
 * @param inputs     arrays the kernel reads, copied once for kernel-only runs
 * @param output     the array it writes
 * @param expected   plain Java's result in {@code output} after one call on the initial data
 * @param tasks      adds the kernel's task(s) to the graph
 * @param java       the plain Java loop that computes the kernel's result into {@code output}
 * @param repeatable whether a second run leaves the same output (false for in-place updates and reductions)
 * @param grids      the grid of a KernelContext task, or null
 */
record LibraryKernel(String graph, Object[] inputs, FloatArray output, FloatArray expected, UnaryOperator<TaskGraph> tasks,
    Runnable java, boolean repeatable, GridScheduler grids) implements Workload {
  /** The kernel {@code tasks}, whose result plain Java's {@code java} gives: run once here for {@link #expected}, leaving {@code output} as it was. */
  static LibraryKernel of(String graph, Object[] inputs, FloatArray output, Runnable java, UnaryOperator<TaskGraph> tasks) {
    FloatArray before = Workload.copy(output);
    java.run();
    FloatArray expected = Workload.copy(output);
    output.getSegment().copyFrom(before.getSegment());
    return new LibraryKernel(graph, inputs, output, expected, tasks, java, true, null);
  }

  /** The same kernel, marked as one that updates its output (in place, or adding into it): checked after its first run only. */
  LibraryKernel updating() {
    return new LibraryKernel(graph, inputs, output, expected, tasks, java, false, grids);
  }

  /** The same kernel, launched with {@code grid} (a KernelContext task). */
  LibraryKernel with(GridScheduler grid) {
    return new LibraryKernel(graph, inputs, output, expected, tasks, java, repeatable, grid);
  }

  @Override
  public TaskGraph graph(Transfers transfers) {
    return transfers.around(graph, inputs, output, tasks);
  }
}
