// Inference as one task graph: gather, forward, per-row loss and right predictions, over a dataset kept on the device.
package dev.loopjit.nn;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Device;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.ExecutionResult;
import dev.loopjit.api.ImmutableTaskGraph;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.util.Arrays;

/**
 * The forward pass of a {@link Sequential} model over a dataset, {@code rows} rows per
 * execution, with the loss and, where it means something, the count of right predictions.
 * Layers run in inference mode (dropout passes through, batch norm uses its running statistics).
 * The dataset stays on the device; the parameters and state are copied in on every execution, so
 * that evaluation sees the host's latest copy (after {@link TrainingStep#pullParameters()}); on a
 * CPU OpenCL device that copy is the host memory itself.
 */
public final class Inference implements AutoCloseable {
  /** A dataset's mean loss and accuracy (NaN where the loss has no notion of a right answer). */
  public record Evaluation(double loss, double accuracy, int rows) {}

  private final Sequential model;
  private final Dataset data;
  private final Batch batch;
  private final boolean counts;
  private final FloatArray lossSum = new FloatArray(1);
  private final IntArray correct = new IntArray(1);
  private final FloatArray outputs;
  private final ImmutableTaskGraph graph;
  private final ExecutionPlan plan;

  Inference(Sequential model, Dataset data, int rows, Loss loss, Device device) {
    if (data.width() != model.inputs())
      throw new IllegalArgumentException("the model takes " + model.inputs() + " features (" + model.inputShape() + "); " + data.name() + " has "
          + data.width());
    loss.check(data, model.outputs());
    this.model = model;
    this.data = data;
    batch = new Batch(data, rows);
    counts = loss.hasAccuracy(model.outputs());
    int width = model.outputs();
    FloatArray probs = new FloatArray(loss == Loss.SOFTMAX_CROSS_ENTROPY ? rows * width : 1);
    FloatArray losses = new FloatArray(rows);

    Wiring w = new Wiring("infer").on(device);
    Sequential.Pass pass = model.wire(w, batch.x, batch.index, rows, false, null, LayerSite.kernelsFor(device), 0);
    outputs = pass.output();
    w.graph().transferToDevice(DataTransferMode.FIRST_EXECUTION, data.features(), data.labels() != null ? data.labels() : data.targets())
        .transferToDevice(DataTransferMode.EVERY_EXECUTION, batch.index, model.parameters(), model.state(), correct);
    batch.addGather(w, data);
    model.addForward(pass);
    loss.addForward(w, outputs, batch, probs, losses, width);
    w.graph().task(w.id("loss_sum"), LossKernels::lossSum, losses, batch.index, lossSum);
    if (counts) loss.addCorrectCount(w, outputs, batch, correct, width);
    w.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, lossSum, correct)
        .transferToHost(DataTransferMode.UNDER_DEMAND, outputs);
    graph = w.graph().snapshot();
    plan = new ExecutionPlan(graph).withDevice(device);
  }

  /** Mean loss and accuracy over the whole dataset, in order, {@code rows} rows per execution. */
  public Evaluation evaluate() {
    double lossTotal = 0;
    long right = 0;
    for (int from = 0; from < data.size(); from += batch.rows) {
      int count = Math.min(batch.rows, data.size() - from);
      execute(from, count);
      lossTotal += lossSum.get(0);
      right += correct.get(0);
    }
    return new Evaluation(lossTotal / data.size(), counts ? (double) right / data.size() : Double.NaN, data.size());
  }

  /** The model's outputs (logits) for dataset rows {@code [from, from + count)}, {@code count ≤ rows}: (count, outputs). */
  public float[] outputs(int from, int count) {
    if (count <= 0 || count > batch.rows || from < 0 || from + count > data.size())
      throw new IllegalArgumentException("rows [" + from + ", " + (from + count) + ") of " + data.size() + ", at most " + batch.rows + " at once");
    execute(from, count).transferToHost(outputs);
    return Arrays.copyOf(outputs.toArray(), count * model.outputs());
  }

  private ExecutionResult execute(int from, int count) {
    int[] order = new int[count];
    for (int b = 0; b < count; b++) order[b] = from + b;
    batch.select(order, 0, count);
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
