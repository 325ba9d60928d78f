// A training step without its update: a batch's loss and the gradient of every parameter, brought back to the host for someone else to apply.
package dev.loopjit.nn;

import dev.loopjit.api.Device;
import dev.loopjit.types.FloatArray;

/**
 * The first half of a {@link TrainingStep}: gather, forward, loss and backward of one batch, as
 * one task graph, without the optimizer. Each {@link #run} copies the host's
 * {@link Sequential#parameters()} and {@link Sequential#state()} to the device and brings back the
 * mean gradient over the batch's rows ({@link #gradients()}) and the state (batch norm's running
 * statistics, updated by the batch). Data-parallel training uses it: each worker computes its
 * batch's gradient, the gradients are averaged, and a {@link ParameterUpdate} applies them.
 *
 * <pre>{@code
 * try (GradientStep g = model.gradientStep(data, 32, Loss.SOFTMAX_CROSS_ENTROPY, device, 0)) {
 *   float loss = g.run(rows, 0, 32);
 *   FloatArray grad = g.gradients();   // (parameterCount), the layout of model.parameters()
 * }
 * }</pre>
 * The gradients are those the training step would apply, bit for bit, on the same device.
 */
public final class GradientStep implements AutoCloseable {
  private final TrainingStep step;

  GradientStep(Sequential model, Dataset data, int rows, Loss loss, Device device, long seed) {
    step = new TrainingStep(model, data, rows, loss, null, device, seed);
  }

  /**
   * Computes the loss and gradients of dataset rows {@code order[from..from+count)} ({@code count ≤}
   * the batch size) at the host's current parameters; returns their mean loss.
   */
  public float run(int[] order, int from, int count) {
    return step.run(order, from, count);
  }

  /** The mean gradient over the last run's rows, one value per parameter (the host array; the next run overwrites it). */
  public FloatArray gradients() {
    return step.gradients();
  }

  /** The batch size the graph was built for. */
  public int rows() {
    return step.rows();
  }

  /** The device it runs on. */
  public Device device() {
    return step.device();
  }

  @Override
  public void close() {
    step.close();
  }
}
