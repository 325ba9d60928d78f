// The task graph a Spark partition runs: the user wires tasks from a partition's packed records to its packed results.
package dev.loopjit.spark;

import dev.loopjit.api.TaskGraph;
import java.io.Serializable;

/**
 * Adds the tasks that turn a partition's records into its results, for
 * {@link LoopJitSpark#mapPartitions} ({@code FloatArray}s) and {@link LoopJitSpark#mapIntPartitions}
 * ({@code IntArray}s): {@code in} holds the partition's {@code rows} records of {@code width} values
 * (row-major), {@code out} must receive {@code rows} records of the output width. It is
 * {@link Serializable} (Spark ships it to the executors): capture plain arrays ({@code float[]}
 * weights) or Spark broadcasts, and wrap them in a {@code FloatArray} inside.
 *
 * <pre>{@code
 * float[] w = …, b = …;   // a dense layer, 784 → 10
 * LoopJitSpark.mapPartitions(images, 10, (graph, in, out, rows, width) ->
 *     graph.task("dense", MyKernels::dense, in, FloatArray.fromArray(w), FloatArray.fromArray(b), out, rows, width, 10));
 * }</pre>
 */
@FunctionalInterface
public interface PartitionGraph<I, O> extends Serializable {
  void wire(TaskGraph graph, I in, O out, int rows, int width);
}
