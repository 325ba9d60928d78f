// One tornado-tasks kernel as a benchmark workload: its graph over inputs shared by the benchmark, and plain Java's result.
package dev.loopjit.bench;

import dev.loopjit.api.TaskGraph;
import dev.loopjit.types.FloatArray;
import java.util.function.UnaryOperator;

/**
 * A {@link Workload} assembled from parts, so that each Library* benchmark states only what differs
 * between its kernels: the tasks, the array they write, and what plain Java leaves in it.
 *
 * @param graph      the graph's name (a KernelContext task's grid is named {@code graph.task})
 * @param inputs     arrays the kernel reads, copied once for kernel-only runs
 * @param output     the array it writes
 * @param expected   plain Java's result in {@code output} after one call on the initial data
 * @param tasks      adds the kernel's task(s) to the graph
 * @param repeatable whether a second run leaves the same output (false for in-place updates and reductions)
 */
record LibraryKernel(String graph, Object[] inputs, FloatArray output, FloatArray expected, UnaryOperator<TaskGraph> tasks,
    boolean repeatable) implements Workload {
  @Override
  public TaskGraph graph(Transfers transfers) {
    return transfers.around(graph, inputs, output, tasks);
  }
}
