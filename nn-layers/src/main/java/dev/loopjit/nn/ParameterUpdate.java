// An optimizer's update on its own: gradients in, the model's parameters updated in place, the optimizer's state kept on the device.
package dev.loopjit.nn;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Device;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.ExecutionResult;
import dev.loopjit.types.FloatArray;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The second half of a {@link TrainingStep}: the optimizer's kernels over all parameters, given
 * gradients computed elsewhere (by {@link GradientStep}s on other workers, averaged). Each
 * {@link #apply} copies the gradients and the host's {@link Sequential#parameters()} in and the
 * updated parameters back; the optimizer's state (momentum, Adam's moments) stays on the device.
 * The same kernels as the training step's, so the same gradients give the same parameters.
 *
 * <pre>{@code
 * try (ParameterUpdate update = model.parameterUpdate(Optimizer.adam(1e-3f), device)) {
 *   update.apply(averagedGradients);   // model.parameters() now holds the new parameters
 * }
 * }</pre>
 */
public final class ParameterUpdate implements AutoCloseable {
  private final Sequential model;
  private final FloatArray grads;
  private final FloatArray rateScale = FloatArray.fromElements(1f);
  private final OptimizerState optimizerState;
  private final ExecutionPlan plan;
  private ExecutionResult last;

  ParameterUpdate(Sequential model, Optimizer optimizer, Device device) {
    this.model = model;
    int p = model.parameterCount();
    grads = new FloatArray(Math.max(p, 1));
    optimizerState = new OptimizerState(optimizer, p);
    Wiring w = new Wiring("update");
    w.graph().transferToDevice(DataTransferMode.EVERY_EXECUTION, model.parameters(), grads, rateScale);
    if (!optimizerState.arrays.isEmpty()) w.graph().transferToDevice(DataTransferMode.FIRST_EXECUTION, optimizerState.arrays.toArray());
    optimizer.addUpdate(w, model.parameters(), grads, optimizerState.arrays, rateScale, p);
    w.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, model.parameters());
    plan = new ExecutionPlan(w.graph().snapshot()).withDevice(device);
  }

  /**
   * Updates {@link Sequential#parameters()} with {@code gradients} (one value per parameter, the
   * layout of the parameters), on the device, and copies them back to the host.
   */
  public void apply(FloatArray gradients) {
    int p = model.parameterCount();
    if (gradients.getSize() != p)
      throw new IllegalArgumentException(gradients.getSize() + " gradients for a model of " + p + " parameters");
    MemorySegment.copy(gradients.getSegment(), 0, grads.getSegment(), 0, (long) p * Float.BYTES);
    last = plan.execute();
  }

  /** Multiplies the optimizer's learning rate by {@code scale} from the next {@link #apply} on (1 at first): a schedule. */
  public ParameterUpdate learningRateScale(float scale) {
    rateScale.set(0, OptimizerState.checkScale(scale));
    return this;
  }

  /** The host copies of the optimizer's state, in {@link TrainingStep#optimizerState()}'s order; see {@link #pullOptimizerState()}. */
  public List<FloatArray> optimizerState() {
    return optimizerState.arrays;
  }

  /** Copies the optimizer's state from the device into {@link #optimizerState()}. */
  public void pullOptimizerState() {
    optimizerState.pull(last);
  }

  /** Copies {@link #optimizerState()} from the host to the device before the next {@link #apply}. */
  public void pushOptimizerState() {
    optimizerState.push(plan);
  }

  /** The device it runs on. */
  public Device device() {
    return plan.device();
  }

  @Override
  public void close() {
    plan.close();
  }
}
