// Inference as one task graph: gather, forward, per-row loss and right predictions, over a dataset kept on the device.
package dev.loopjit.nn;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Device;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.ExecutionResult;
import dev.loopjit.api.ImmutableTaskGraph;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.util.Arrays;

/**
 * The forward pass of a {@link Sequential} model over a dataset, {@code rows} rows per
 * execution, with the loss and, where it means something, the count of right predictions.
 * The dataset stays on the device; the parameters are copied in on every execution, so that
 * evaluation sees the host's latest copy (after {@link TrainingStep#pullParameters()}); on a CPU
 * OpenCL device that copy is the host memory itself.
 */
public final class Inference implements AutoCloseable {
  /** A dataset's mean loss and accuracy (NaN where the loss has no notion of a right answer). */
  public record Evaluation(double loss, double accuracy, int rows) {}

  private final Sequential model;
  private final Dataset data;
  private final int rows;
  private final boolean counts;
  private final IntArray batch;
  private final FloatArray lossSum = new FloatArray(1);
  private final IntArray correct = new IntArray(1);
  private final FloatArray outputs;
  private final ImmutableTaskGraph graph;
  private final ExecutionPlan plan;

  Inference(Sequential model, Dataset data, int rows, Loss loss, Device device) {
    if (rows <= 0) throw new IllegalArgumentException("batch size must be positive, not " + rows);
    if (data.width() != model.inputs())
      throw new IllegalArgumentException("the model takes " + model.inputs() + " features; " + data.name() + " has " + data.width());
    loss.check(data, model.outputs());
    this.model = model;
    this.data = data;
    this.rows = rows;
    counts = loss.hasAccuracy(model.outputs());
    batch = new IntArray(1 + rows);
    int last = model.layers().size(), width = model.outputs();
    FloatArray[] a = model.activations(rows);
    outputs = a[last];
    FloatArray probs = new FloatArray(loss == Loss.SOFTMAX_CROSS_ENTROPY ? rows * width : 1);
    FloatArray losses = new FloatArray(rows);
    Object answers = data.labels() != null ? new IntArray(rows) : new FloatArray(rows * data.targetWidth());

    TaskGraph g = new TaskGraph("infer")
        .transferToDevice(DataTransferMode.FIRST_EXECUTION, data.features(), data.answers())
        .transferToDevice(DataTransferMode.EVERY_EXECUTION, batch, model.parameters(), correct)
        .task("gather_x", BatchKernels::gatherRows, data.features(), batch, a[0], rows, data.width());
    if (answers instanceof IntArray labels) g.task("gather_y", BatchKernels::gatherLabels, data.labels(), batch, labels, rows);
    else g.task("gather_y", BatchKernels::gatherRows, data.targets(), batch, (FloatArray) answers, rows, data.targetWidth());
    model.addForward(g, a, rows);
    loss.addForward(g, outputs, answers, batch, probs, losses, rows, width);
    g.task("loss_sum", LossKernels::lossSum, losses, batch, lossSum);
    if (counts) loss.addCorrectCount(g, outputs, answers, batch, correct, rows, width);
    g.transferToHost(DataTransferMode.EVERY_EXECUTION, lossSum, correct)
        .transferToHost(DataTransferMode.UNDER_DEMAND, outputs);
    graph = g.snapshot();
    plan = new ExecutionPlan(graph).withDevice(device);
  }

  /** Mean loss and accuracy over the whole dataset, in order, {@code rows} rows per execution. */
  public Evaluation evaluate() {
    double lossTotal = 0;
    long right = 0;
    for (int from = 0; from < data.size(); from += rows) {
      int count = Math.min(rows, data.size() - from);
      execute(from, count);
      lossTotal += lossSum.get(0);
      right += correct.get(0);
    }
    return new Evaluation(lossTotal / data.size(), counts ? (double) right / data.size() : Double.NaN, data.size());
  }

  /** The model's outputs (logits) for dataset rows {@code [from, from + count)}, {@code count ≤ rows}: (count, outputs). */
  public float[] outputs(int from, int count) {
    if (count <= 0 || count > rows || from < 0 || from + count > data.size())
      throw new IllegalArgumentException("rows [" + from + ", " + (from + count) + ") of " + data.size() + ", at most " + rows + " at once");
    execute(from, count).transferToHost(outputs);
    return Arrays.copyOf(outputs.toArray(), count * model.outputs());
  }

  private ExecutionResult execute(int from, int count) {
    batch.set(0, count);
    for (int b = 0; b < rows; b++) batch.set(1 + b, b < count ? from + b : 0);
    correct.set(0, 0);
    return plan.execute();
  }

  /** The inference task graph. */
  public ImmutableTaskGraph graph() {
    return graph;
  }

  @Override
  public void close() {
    plan.close();
  }
}
