// One training step as ONE task graph: gather, forward, loss, backward, update; only row numbers in and the loss out per step.
package dev.loopjit.nn;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Device;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.ExecutionResult;
import dev.loopjit.api.ImmutableTaskGraph;
import dev.loopjit.api.Profile;
import dev.loopjit.types.FloatArray;
import java.util.ArrayList;
import java.util.List;

/**
 * A compiled training step of a {@link Sequential} model on one dataset and device. The dataset,
 * the parameters and state, their gradients, the optimizer's state and every activation stay on
 * the device ({@code FIRST_EXECUTION}, or never transferred); per {@link #run} the host sends the
 * batch's row numbers ({@code 1 + B} ints) and receives the batch's summed loss (one float).
 *
 * <p>Task arguments are fixed when the graph is built, so what changes per step travels in an
 * array: {@code batch[0]} is how many rows are in use (the last batch of an epoch may be short),
 * {@code batch[1..]} are their dataset rows. Dropout masks come from the step's seed and a step
 * counter on the device.
 */
public final class TrainingStep implements AutoCloseable {
  private final Sequential model;
  private final Batch batch;
  private final FloatArray lossSum = new FloatArray(1);
  private final FloatArray rateScale = FloatArray.fromElements(1f);
  private final FloatArray grads;
  private final OptimizerState optimizerState;
  private final List<String> tasks;
  private final ImmutableTaskGraph graph;
  private final ExecutionPlan plan;
  private ExecutionResult last;

  TrainingStep(Sequential model, Dataset data, int rows, Loss loss, Optimizer optimizer, Device device, long seed) {
    this(model, data, rows, loss, optimizer, device, seed, LayerSite.kernelsFor(device));
  }

  /** As above, with the kernels chosen as for a device of kind {@code kernels} (tests run the GPU kernels on the jvm with it). */
  TrainingStep(Sequential model, Dataset data, int rows, Loss loss, Optimizer optimizer, Device device, long seed, Device.Kind kernels) {
    if (data.width() != model.inputs())
      throw new IllegalArgumentException("the model takes " + model.inputs() + " features (" + model.inputShape() + "); " + data.name() + " has "
          + data.width());
    loss.check(data, model.outputs());
    this.model = model;
    batch = new Batch(data, rows);
    int outputs = model.outputs(), p = model.parameterCount();
    grads = new FloatArray(Math.max(p, 1));
    FloatArray probs = new FloatArray(loss == Loss.SOFTMAX_CROSS_ENTROPY ? rows * outputs : 1);
    FloatArray losses = new FloatArray(rows);
    // Without an optimizer (a GradientStep) the step only computes gradients: the parameters and state come from the
    // host on every run and the gradients and state go back, for someone else (a Spark driver) to apply.
    boolean update = optimizer != null;
    optimizerState = new OptimizerState(optimizer, p);

    Wiring w = new Wiring("train").on(device);
    Sequential.Pass pass = model.wire(w, batch.x, batch.index, rows, true, grads, kernels, Long.hashCode(seed));
    List<Object> resident = new ArrayList<>(List.of(data.features(), data.labels() != null ? data.labels() : data.targets()));
    if (update) resident.addAll(List.of(model.parameters(), model.state()));
    resident.addAll(optimizerState.arrays);
    w.graph().transferToDevice(DataTransferMode.FIRST_EXECUTION, resident.toArray())
        .transferToDevice(DataTransferMode.EVERY_EXECUTION, batch.index, rateScale);
    if (!update) w.graph().transferToDevice(DataTransferMode.EVERY_EXECUTION, model.parameters(), model.state());
    batch.addGather(w, data);
    model.addForward(pass);
    loss.addForward(w, pass.output(), batch, probs, losses, outputs);
    w.graph().task(w.id("loss_sum"), LossKernels::lossSum, losses, batch.index, lossSum);
    loss.addBackward(w, pass.output(), batch, probs, pass.outputGradient(), outputs);
    model.addBackward(pass);
    if (update) optimizer.addUpdate(w, model.parameters(), grads, optimizerState.arrays, rateScale, p);
    w.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, lossSum);
    if (update) w.graph().transferToHost(DataTransferMode.UNDER_DEMAND, model.parameters(), model.state());
    else w.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, grads, model.state());
    tasks = w.ids();
    graph = w.graph().snapshot();
    plan = new ExecutionPlan(graph).withDevice(device);
  }

  /**
   * Trains on dataset rows {@code order[from..from+count)} ({@code count ≤} the batch size) and
   * returns their mean loss before the update.
   */
  public float run(int[] order, int from, int count) {
    batch.select(order, from, count);
    last = plan.execute();
    return lossSum.get(0) / count;
  }

  /** Multiplies the optimizer's learning rate by {@code scale} from the next {@link #run} on (1 at first): a schedule. */
  public TrainingStep learningRateScale(float scale) {
    rateScale.set(0, OptimizerState.checkScale(scale));
    return this;
  }

  /** Times every kernel and copy from now on, for {@link #lastProfile()} (costs a little per step). */
  public TrainingStep withProfiler() {
    plan.withProfiler();
    return this;
  }

  /** Copies the parameters and state (running statistics) from the device into {@link Sequential#parameters()} and {@link Sequential#state()}. */
  public void pullParameters() {
    if (last != null) last.transferToHost(model.parameters(), model.state());
  }

  /**
   * Copies {@link Sequential#parameters()} and {@link Sequential#state()} from the host to the
   * device before the next {@link #run}: after they were changed on the host (e.g. set to the
   * average of several workers' parameters).
   */
  public void pushParameters() {
    plan.transferToDevice(model.parameters(), model.state());
  }

  /**
   * The host copies of the optimizer's state, in a fixed order: none for SGD, the velocity for
   * momentum, Adam's first and second moments (one value per parameter each) then its two β powers.
   * They hold what {@link #pullOptimizerState()} last copied (zeros at first); change them and call
   * {@link #pushOptimizerState()} to continue from another state.
   */
  public List<FloatArray> optimizerState() {
    return optimizerState.arrays;
  }

  /** Copies the optimizer's state from the device into {@link #optimizerState()}. */
  public void pullOptimizerState() {
    optimizerState.pull(last);
  }

  /** Copies {@link #optimizerState()} from the host to the device before the next {@link #run}. */
  public void pushOptimizerState() {
    optimizerState.push(plan);
  }

  /** The host copy of the gradients: what the last run of a step without optimizer brought back. */
  FloatArray gradients() {
    return grads;
  }

  /** The gradients of the last step, copied from the device (for tests: the chain rule through the whole graph). */
  FloatArray pullGradients() {
    if (last != null) last.transferToHost(grads);
    return grads;
  }

  /** The batch size the graph was built for. */
  public int rows() {
    return batch.rows;
  }

  /** The profile of the last {@link #run}: compile, copy and (after {@link #withProfiler()}) kernel times; null before the first. */
  public Profile lastProfile() {
    return last == null ? null : last.profile();
  }

  /** The ids of the step's tasks, in the order they run: {@code gather_x, gather_y, L0_conv_im2col, …, adam}. */
  public List<String> tasks() {
    return tasks;
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
