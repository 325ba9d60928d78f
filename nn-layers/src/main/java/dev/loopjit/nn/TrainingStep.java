// One training step as ONE task graph: gather, forward, loss, backward, update; only row numbers in and the loss out per step.
package dev.loopjit.nn;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Device;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.ExecutionResult;
import dev.loopjit.api.ImmutableTaskGraph;
import dev.loopjit.api.Profile;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.util.ArrayList;
import java.util.List;

/**
 * A compiled training step of a {@link Sequential} model on one dataset and device. The dataset,
 * the parameters, their gradients, the optimizer's state and every activation stay on the device
 * ({@code FIRST_EXECUTION}, or never transferred); per {@link #run} the host sends the batch's row
 * numbers ({@code 1 + B} ints) and receives the batch's summed loss (one float).
 *
 * <p>Task arguments are fixed when the graph is built, so what changes per step travels in an
 * array: {@code batch[0]} is how many rows are in use (the last batch of an epoch may be short),
 * {@code batch[1..]} are their dataset rows.
 */
public final class TrainingStep implements AutoCloseable {
  private final Sequential model;
  private final int rows, datasetRows;
  private final IntArray batch;
  private final FloatArray lossSum = new FloatArray(1);
  private final FloatArray grads;
  private final List<FloatArray> state;
  private final ImmutableTaskGraph graph;
  private final ExecutionPlan plan;
  private ExecutionResult last;

  TrainingStep(Sequential model, Dataset data, int rows, Loss loss, Optimizer optimizer, Device device) {
    if (rows <= 0) throw new IllegalArgumentException("batch size must be positive, not " + rows);
    if (data.width() != model.inputs())
      throw new IllegalArgumentException("the model takes " + model.inputs() + " features; " + data.name() + " has " + data.width());
    loss.check(data, model.outputs());
    this.model = model;
    this.rows = rows;
    datasetRows = data.size();
    batch = new IntArray(1 + rows);
    int top = model.layers().size(), outputs = model.outputs(), p = model.parameterCount();
    FloatArray[] a = model.activations(rows);
    FloatArray[] d = model.activations(rows);   // d[0] is never written
    grads = new FloatArray(Math.max(p, 1));
    FloatArray probs = new FloatArray(loss == Loss.SOFTMAX_CROSS_ENTROPY ? rows * outputs : 1);
    FloatArray losses = new FloatArray(rows);
    Object answers = data.labels() != null ? new IntArray(rows) : new FloatArray(rows * data.targetWidth());
    state = optimizer.newState(Math.max(p, 1));

    List<Object> resident = new ArrayList<>(List.of(data.features(), data.answers(), model.parameters()));
    resident.addAll(state);
    TaskGraph g = new TaskGraph("train")
        .transferToDevice(DataTransferMode.FIRST_EXECUTION, resident.toArray())
        .transferToDevice(DataTransferMode.EVERY_EXECUTION, batch)
        .task("gather_x", BatchKernels::gatherRows, data.features(), batch, a[0], rows, data.width());
    if (answers instanceof IntArray labels) g.task("gather_y", BatchKernels::gatherLabels, data.labels(), batch, labels, rows);
    else g.task("gather_y", BatchKernels::gatherRows, data.targets(), batch, (FloatArray) answers, rows, data.targetWidth());
    model.addForward(g, a, rows);
    loss.addForward(g, a[top], answers, batch, probs, losses, rows, outputs);
    g.task("loss_sum", LossKernels::lossSum, losses, batch, lossSum);
    loss.addBackward(g, a[top], answers, batch, probs, d[top], rows, outputs);
    model.addBackward(g, a, d, grads, rows);
    optimizer.addUpdate(g, model.parameters(), grads, state, p);
    g.transferToHost(DataTransferMode.EVERY_EXECUTION, lossSum)
        .transferToHost(DataTransferMode.UNDER_DEMAND, model.parameters());
    graph = g.snapshot();
    plan = new ExecutionPlan(graph).withDevice(device);
  }

  /**
   * Trains on dataset rows {@code order[from..from+count)} ({@code count ≤} the batch size) and
   * returns their mean loss before the update.
   */
  public float run(int[] order, int from, int count) {
    if (count <= 0 || count > rows) throw new IllegalArgumentException("a step takes 1.." + rows + " rows, not " + count);
    for (int b = 0; b < count; b++)   // the kernels index the dataset with these unchecked
      if (order[from + b] < 0 || order[from + b] >= datasetRows)
        throw new IndexOutOfBoundsException("row " + order[from + b] + " of a dataset of " + datasetRows);
    batch.set(0, count);
    for (int b = 0; b < rows; b++) batch.set(1 + b, b < count ? order[from + b] : 0);
    last = plan.execute();
    return lossSum.get(0) / count;
  }

  /** Times every kernel and copy from now on, for {@link #lastProfile()} (costs a little per step). */
  public TrainingStep withProfiler() {
    plan.withProfiler();
    return this;
  }

  /** Copies the parameters from the device into {@link Sequential#parameters()}. */
  public void pullParameters() {
    if (last != null) last.transferToHost(model.parameters());
  }

  /** The gradients of the last step, copied from the device (for tests: the chain rule through the whole graph). */
  FloatArray pullGradients() {
    if (last != null) last.transferToHost(grads);
    return grads;
  }

  /** The batch size the graph was built for. */
  public int rows() {
    return rows;
  }

  /** The profile of the last {@link #run}: compile, copy and (after {@link #withProfiler()}) kernel times; null before the first. */
  public Profile lastProfile() {
    return last == null ? null : last.profile();
  }

  /** The step's task graph. */
  public ImmutableTaskGraph graph() {
    return graph;
  }

  /** The device the step runs on. */
  public Device device() {
    return plan.device();
  }

  @Override
  public void close() {
    plan.close();
  }
}
