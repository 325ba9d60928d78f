// A stack of layers over one flat parameter array; builds the task graphs of a training step and of inference.
package dev.loopjit.nn;

import dev.loopjit.api.Device;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.types.FloatArray;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A feed-forward model: layers applied in order to rows of {@code inputs} features. All weights
 * and biases live in one {@link FloatArray} (llm.c's layout): for each dense layer in order, W
 * (OUT, IN) row-major, then b (OUT).
 *
 * <pre>{@code
 * Sequential model = Sequential.of(784, Layer.dense(256), Layer.relu(), Layer.dense(10)).initialize(42);
 * try (TrainingStep step = model.trainingStep(train, 128, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(1e-3f), device)) {
 *   float loss = step.run(rows, 0, 128);
 * }
 * }</pre>
 *
 * The parameter array on the host is what {@link #initialize}, {@link Weights#load} and
 * {@link TrainingStep#pullParameters()} write; a training step copies it to the device once, so
 * make a new step after changing it on the host.
 */
public final class Sequential {
  private final int inputs;
  private final List<Layer> layers;
  private final int[] widths;           // widths[k]: features into layer k; widths[layers]: the outputs
  private final int[] weightAt, biasAt; // offsets in parameters, -1 for activations
  private final int parameterCount;
  private final FloatArray parameters;  // at least one element: a device buffer cannot be empty

  private Sequential(int inputs, List<Layer> layers) {
    if (inputs <= 0) throw new IllegalArgumentException("a model needs at least one input, not " + inputs);
    if (layers.isEmpty()) throw new IllegalArgumentException("a model needs at least one layer");
    this.inputs = inputs;
    this.layers = List.copyOf(layers);
    int n = layers.size();
    widths = new int[n + 1];
    weightAt = new int[n];
    biasAt = new int[n];
    widths[0] = inputs;
    long p = 0;
    for (int k = 0; k < n; k++) {
      switch (layers.get(k)) {
        case Layer.Dense d -> {
          weightAt[k] = (int) p;
          p += (long) d.units() * widths[k];
          biasAt[k] = (int) p;
          p += d.units();
          widths[k + 1] = d.units();
        }
        case Layer.Activation a -> {
          weightAt[k] = -1;
          biasAt[k] = -1;
          widths[k + 1] = widths[k];
        }
      }
      if (p > Integer.MAX_VALUE) throw new IllegalArgumentException("more than " + Integer.MAX_VALUE + " parameters");
    }
    parameterCount = (int) p;
    parameters = new FloatArray(Math.max(parameterCount, 1));
  }

  /** A model taking rows of {@code inputs} features through {@code layers}; its parameters are zero until {@link #initialize}. */
  public static Sequential of(int inputs, Layer... layers) {
    return new Sequential(inputs, List.of(layers));
  }

  /** As {@link #of(int, Layer...)}. */
  public static Sequential of(int inputs, List<Layer> layers) {
    return new Sequential(inputs, layers);
  }

  /**
   * Seeded initialisation: a dense layer followed by ReLU or GELU gets He-uniform weights
   * ({@code U(±√(6/IN))}), any other Xavier-uniform ({@code U(±√(6/(IN+OUT)))}); biases are zero.
   * The same seed gives the same parameters on every machine ({@link Random} is specified).
   */
  public Sequential initialize(long seed) {
    Random r = new Random(seed);
    for (int k = 0; k < layers.size(); k++) {
      if (!(layers.get(k) instanceof Layer.Dense d)) continue;
      int in = widths[k], out = d.units();
      boolean rectified = k + 1 < layers.size()
          && (layers.get(k + 1) == Layer.Activation.RELU || layers.get(k + 1) == Layer.Activation.GELU);
      double limit = rectified ? Math.sqrt(6.0 / in) : Math.sqrt(6.0 / (in + out));
      for (int i = 0; i < out * in; i++) parameters.set(weightAt[k] + i, (float) ((2 * r.nextDouble() - 1) * limit));
      for (int o = 0; o < out; o++) parameters.set(biasAt[k] + o, 0f);
    }
    return this;
  }

  public int inputs() {
    return inputs;
  }

  public int outputs() {
    return widths[layers.size()];
  }

  public List<Layer> layers() {
    return layers;
  }

  /** Features into layer {@code k} ({@code k = layers().size()}: the outputs). */
  public int width(int k) {
    return widths[k];
  }

  /** Where layer {@code k}'s W starts in {@link #parameters()}, or -1 for an activation. */
  public int weightOffset(int k) {
    return weightAt[k];
  }

  /** Where layer {@code k}'s b starts in {@link #parameters()}, or -1 for an activation. */
  public int biasOffset(int k) {
    return biasAt[k];
  }

  /** How many weights and biases the model has. */
  public int parameterCount() {
    return parameterCount;
  }

  /** The host copy of all weights and biases (see the class comment for the layout). */
  public FloatArray parameters() {
    return parameters;
  }

  /** The task graph of one training step on {@code data}, {@code rows} rows at a time, planned for {@code device}. */
  public TrainingStep trainingStep(Dataset data, int rows, Loss loss, Optimizer optimizer, Device device) {
    return new TrainingStep(this, data, rows, loss, optimizer, device);
  }

  /** The task graph of inference (outputs, loss, right predictions) on {@code data}, {@code rows} rows at a time. */
  public Inference inference(Dataset data, int rows, Loss loss, Device device) {
    return new Inference(this, data, rows, loss, device);
  }

  /** Buffers for the activations of a batch of {@code rows}: a[k] (rows, width(k)) for k = 0..layers. */
  FloatArray[] activations(int rows) {
    FloatArray[] a = new FloatArray[layers.size() + 1];
    for (int k = 0; k <= layers.size(); k++) a[k] = new FloatArray(rows * widths[k]);
    return a;
  }

  /** Adds the forward pass a[0] → a[layers] to {@code g}, one task per layer. */
  void addForward(TaskGraph g, FloatArray[] a, int rows) {
    for (int k = 0; k < layers.size(); k++) {
      String id = "L" + k + "_";
      int in = widths[k], out = widths[k + 1], n = rows * in;
      switch (layers.get(k)) {
        case Layer.Dense d -> g.task(id + "dense", DenseKernels::denseForward, a[k], parameters, weightAt[k], biasAt[k], a[k + 1], rows, in, out);
        case Layer.Activation act -> {
          switch (act) {
            case RELU -> g.task(id + "relu", ActivationKernels::reluForward, a[k], a[k + 1], n);
            case SIGMOID -> g.task(id + "sigmoid", ActivationKernels::sigmoidForward, a[k], a[k + 1], n);
            case TANH -> g.task(id + "tanh", ActivationKernels::tanhForward, a[k], a[k + 1], n);
            case GELU -> g.task(id + "gelu", ActivationKernels::geluForward, a[k], a[k + 1], n);
          }
        }
      }
    }
  }

  /**
   * Adds the backward pass to {@code g}: from d[layers] (the loss gradient of the outputs) down,
   * the parameter gradients into {@code grads} and d[k] (rows, width(k)) for k ≥ 1; nothing
   * computes d[0], the gradient of the data.
   */
  void addBackward(TaskGraph g, FloatArray[] a, FloatArray[] d, FloatArray grads, int rows) {
    for (int k = layers.size() - 1; k >= 0; k--) {
      String id = "L" + k + "_";
      int in = widths[k], out = widths[k + 1], n = rows * in;
      switch (layers.get(k)) {
        case Layer.Dense dense -> {
          g.task(id + "dense_dw", DenseKernels::denseBackwardWeights, d[k + 1], a[k], grads, weightAt[k], rows, in, out);
          g.task(id + "dense_db", DenseKernels::denseBackwardBias, d[k + 1], grads, biasAt[k], rows, out);
          if (k > 0) g.task(id + "dense_dx", DenseKernels::denseBackwardInput, d[k + 1], parameters, weightAt[k], d[k], rows, in, out);
        }
        case Layer.Activation act -> {
          if (k == 0) continue;
          switch (act) {
            case RELU -> g.task(id + "relu_dx", ActivationKernels::reluBackward, a[k], d[k + 1], d[k], n);
            case SIGMOID -> g.task(id + "sigmoid_dx", ActivationKernels::sigmoidBackward, a[k + 1], d[k + 1], d[k], n);
            case TANH -> g.task(id + "tanh_dx", ActivationKernels::tanhBackward, a[k + 1], d[k + 1], d[k], n);
            case GELU -> g.task(id + "gelu_dx", ActivationKernels::geluBackward, a[k], d[k + 1], d[k], n);
          }
        }
      }
    }
  }

  /** "784 → dense 256 → relu → dense 10 (203,530 parameters)". */
  @Override
  public String toString() {
    List<String> parts = new ArrayList<>(List.of(String.valueOf(inputs)));
    for (Layer l : layers)
      parts.add(switch (l) {
        case Layer.Dense d -> "dense " + d.units();
        case Layer.Activation a -> a.label();
      });
    return String.join(" → ", parts) + String.format(" (%,d parameters)", parameterCount());
  }
}
