// A stack of layers over one flat parameter array: checks the shapes when built, and wires the layers into training and inference graphs.
package dev.loopjit.nn;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A feed-forward model: layers applied in order to rows of one {@link Shape}. All trained
 * parameters live in one {@link FloatArray} (llm.c's layout): each layer's in order, laid out as
 * the layer's class says (a dense layer: W (OUT, IN) row-major, then b (OUT)). Layers with
 * non-trained state (batch norm's running statistics) keep it in a second array, {@link #state()}.
 *
 * <pre>{@code
 * import static dev.loopjit.nn.Layer.*;
 * Sequential mlp = Sequential.of(784, dense(256), relu(), dense(10)).initialize(42);
 * Sequential cnn = Sequential.of(shape(1, 28, 28), conv(32, 3), relu(), maxPool(2), conv(64, 3), relu(), maxPool(2),
 *     flatten(), dense(128), relu(), dropout(0.25f), dense(10)).initialize(42);
 * try (TrainingStep step = cnn.trainingStep(train, 128, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(1e-3f), device)) {
 *   float loss = step.run(rows, 0, 128);
 * }
 * }</pre>
 *
 * Building a model checks every layer against the shape the layer before makes, so a model that
 * does not fit fails here, naming the layer and both shapes, before anything runs. The arrays
 * on the host are what {@link #initialize}, {@link Weights#load} and
 * {@link TrainingStep#pullParameters()} write; a training step copies them to the device once, so
 * make a new step after changing them on the host.
 */
public final class Sequential {
  private final List<Layer> layers;
  private final Shape[] shapes;           // shapes[k]: into layer k; shapes[layers]: the output
  private final int[] paramAt, stateAt;   // each layer's offsets in parameters and state
  private final int parameterCount, stateCount;
  private final FloatArray parameters, state;   // at least one element each: a device buffer cannot be empty

  private Sequential(Shape input, List<Layer> layers) {
    if (layers.isEmpty()) throw new IllegalArgumentException("a model needs at least one layer");
    this.layers = List.copyOf(layers);
    int n = layers.size();
    shapes = new Shape[n + 1];
    paramAt = new int[n];
    stateAt = new int[n];
    shapes[0] = input;
    long p = 0, s = 0;
    for (int k = 0; k < n; k++) {
      Layer l = this.layers.get(k);
      try {
        shapes[k + 1] = l.outputShape(shapes[k]);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("layer " + k + " (" + l.describe() + "), after "
            + (k == 0 ? "the input" : "layer " + (k - 1) + " (" + this.layers.get(k - 1).describe() + ")") + ": " + e.getMessage(), e);
      }
      paramAt[k] = (int) p;
      stateAt[k] = (int) s;
      p += l.parameterCount(shapes[k]);
      s += l.stateCount(shapes[k]);
      if (p > Integer.MAX_VALUE || s > Integer.MAX_VALUE) throw new IllegalArgumentException("more than " + Integer.MAX_VALUE + " parameters");
    }
    parameterCount = (int) p;
    stateCount = (int) s;
    parameters = new FloatArray(Math.max(parameterCount, 1));
    state = new FloatArray(Math.max(stateCount, 1));
  }

  /** A model taking rows of {@code inputs} features through {@code layers}; its parameters are zero until {@link #initialize}. */
  public static Sequential of(int inputs, Layer... layers) {
    return of(inputs, List.of(layers));
  }

  /** As {@link #of(int, Layer...)}. */
  public static Sequential of(int inputs, List<Layer> layers) {
    if (inputs <= 0) throw new IllegalArgumentException("a model needs at least one input, not " + inputs);
    return new Sequential(Shape.of(inputs), layers);
  }

  /** A model taking rows of shape {@code input} (e.g. images {@code shape(1, 28, 28)}) through {@code layers}. */
  public static Sequential of(Shape input, Layer... layers) {
    return new Sequential(input, List.of(layers));
  }

  /** As {@link #of(Shape, Layer...)}. */
  public static Sequential of(Shape input, List<Layer> layers) {
    return new Sequential(input, layers);
  }

  /**
   * Seeded initialisation, layer by layer in order ({@link Layer#initialize}: a dense or conv
   * layer followed by ReLU or GELU gets He-uniform weights, any other Xavier-uniform; biases are
   * zero; normalisations start as the identity). The same seed gives the same parameters on every
   * machine and for every device ({@link Random} is specified).
   */
  public Sequential initialize(long seed) {
    Random r = new Random(seed);
    for (int k = 0; k < layers.size(); k++)
      layers.get(k).initialize(shapes[k], parameters, paramAt[k], state, stateAt[k], r, k + 1 < layers.size() ? layers.get(k + 1) : null);
    return this;
  }

  /** A model with the same layers and a copy of the parameters and state. */
  public Sequential copy() {
    Sequential c = new Sequential(shapes[0], layers);
    c.parameters.getSegment().copyFrom(parameters.getSegment());
    c.state.getSegment().copyFrom(state.getSegment());
    return c;
  }

  /** Features per input row (the input shape's size). */
  public int inputs() {
    return shapes[0].size();
  }

  /** The shape of an input row. */
  public Shape inputShape() {
    return shapes[0];
  }

  /** Outputs per row. */
  public int outputs() {
    return shapes[layers.size()].size();
  }

  public List<Layer> layers() {
    return layers;
  }

  /** The shape into layer {@code k} ({@code k = layers().size()}: the output). */
  public Shape shape(int k) {
    return shapes[k];
  }

  /** Elements into layer {@code k} per row ({@code k = layers().size()}: the outputs). */
  public int width(int k) {
    return shapes[k].size();
  }

  /** Where layer {@code k}'s parameters start in {@link #parameters()}. */
  public int parameterOffset(int k) {
    return paramAt[k];
  }

  /** Where layer {@code k}'s state starts in {@link #state()}. */
  public int stateOffset(int k) {
    return stateAt[k];
  }

  /** How many trained parameters the model has. */
  public int parameterCount() {
    return parameterCount;
  }

  /** The host copy of all trained parameters (see the class comment for the layout). */
  public FloatArray parameters() {
    return parameters;
  }

  /** How many floats of non-trained state (running statistics) the model keeps. */
  public int stateCount() {
    return stateCount;
  }

  /** The host copy of the non-trained state, layer by layer. */
  public FloatArray state() {
    return state;
  }

  /** The task graph of one training step on {@code data}, {@code rows} rows at a time, planned for {@code device}; dropout seed 0. */
  public TrainingStep trainingStep(Dataset data, int rows, Loss loss, Optimizer optimizer, Device device) {
    return new TrainingStep(this, data, rows, loss, optimizer, device, 0);
  }

  /** As {@link #trainingStep(Dataset, int, Loss, Optimizer, Device)}, with the seed of the dropout masks. */
  public TrainingStep trainingStep(Dataset data, int rows, Loss loss, Optimizer optimizer, Device device, long seed) {
    return new TrainingStep(this, data, rows, loss, optimizer, device, seed);
  }

  /**
   * A training step without its update, {@code rows} rows at a time: the loss and mean gradient of
   * a batch at the host's current parameters ({@link GradientStep}); {@code seed} seeds dropout.
   */
  public GradientStep gradientStep(Dataset data, int rows, Loss loss, Device device, long seed) {
    return new GradientStep(this, data, rows, loss, device, seed);
  }

  /** The optimizer's update of this model's parameters from gradients computed elsewhere ({@link ParameterUpdate}). */
  public ParameterUpdate parameterUpdate(Optimizer optimizer, Device device) {
    return new ParameterUpdate(this, optimizer, device);
  }

  /** The task graph of inference (outputs, loss, right predictions) on {@code data}, {@code rows} rows at a time. */
  public Inference inference(Dataset data, int rows, Loss loss, Device device) {
    return new Inference(this, data, rows, loss, device);
  }

  /** A reusable graph that runs the model on up to {@code rows} rows at a time on {@code device}. */
  public Predictor predictor(int rows, Device device) {
    return new Predictor(this, rows, device);
  }

  /** The model's outputs for the rows of {@code batch} ((N, inputs), row-major), on {@link Devices#best()}. */
  public Predictions predict(FloatArray batch) {
    return predict(batch, Devices.best());
  }

  /** The model's outputs for the rows of {@code batch} ((N, inputs), row-major), on {@code device}. */
  public Predictions predict(FloatArray batch, Device device) {
    if (batch.getSize() == 0 || batch.getSize() % inputs() != 0)
      throw new IllegalArgumentException("a batch of " + batch.getSize() + " floats is no whole number of rows of " + shapes[0]);
    try (Predictor p = predictor(batch.getSize() / inputs(), device)) {
      return p.predict(batch);
    }
  }

  /** One graph's activations and gradients of a batch and the site of each layer in it. */
  record Pass(FloatArray[] activations, FloatArray[] gradients, LayerSite[] sites) {
    FloatArray output() {
      return activations[activations.length - 1];
    }

    FloatArray outputGradient() {
      return gradients[gradients.length - 1];
    }
  }

  /**
   * Allocates the buffers of a batch of {@code rows} (activation k: (rows, width(k)); in training
   * also the gradients that something needs) and makes each layer's site in {@code wiring}. A layer
   * that passes its input through shares its input's buffers. {@code x} is activation 0, the batch.
   */
  Pass wire(Wiring wiring, FloatArray x, IntArray batch, int rows, boolean training, FloatArray grads, Device.Kind device, int seed) {
    int n = layers.size();
    FloatArray[] a = new FloatArray[n + 1], d = new FloatArray[n + 1];
    a[0] = x;
    for (int k = 0; k < n; k++) a[k + 1] = layers.get(k).passesThrough(training) ? a[k] : new FloatArray(rows * shapes[k + 1].size());
    if (training) {
      // The gradient into layer k is needed only when a layer before it has parameters.
      boolean[] needed = new boolean[n + 1];
      for (int k = 1; k <= n; k++) needed[k] = needed[k - 1] || layers.get(k - 1).parameterCount(shapes[k - 1]) > 0;
      d[n] = new FloatArray(rows * shapes[n].size());
      for (int k = n - 1; k >= 0; k--)
        d[k] = !needed[k] ? null : layers.get(k).passesThrough(true) ? d[k + 1] : new FloatArray(rows * shapes[k].size());
    }
    LayerSite[] sites = new LayerSite[n];
    for (int k = 0; k < n; k++)
      sites[k] = new LayerSite(wiring, k, shapes[k], shapes[k + 1], rows, training, device, a[k], a[k + 1], d[k], d[k + 1], parameters,
          grads, paramAt[k], state, stateAt[k], batch, seed);
    return new Pass(a, d, sites);
  }

  /** Adds the forward pass, activation 0 → the output, one or more tasks per layer. */
  void addForward(Pass pass) {
    for (int k = 0; k < layers.size(); k++)
      if (!layers.get(k).passesThrough(pass.sites()[k].training)) layers.get(k).addForward(pass.sites()[k]);
  }

  /** Adds the backward pass, from the output gradient down: parameter gradients, and each input gradient something needs. */
  void addBackward(Pass pass) {
    for (int k = layers.size() - 1; k >= 0; k--)
      if (!layers.get(k).passesThrough(true)) layers.get(k).addBackward(pass.sites()[k]);
  }

  /** {@code "784 → dense 256 → relu → dense 10 (203,530 parameters)"}; an image input prints as {@code 1×28×28}. */
  @Override
  public String toString() {
    Shape in = shapes[0];
    StringBuilder input = new StringBuilder();
    for (int i = 0; i < in.rank(); i++) input.append(i > 0 ? "×" : "").append(in.dim(i));
    List<String> parts = new ArrayList<>(List.of(input.toString()));
    for (Layer l : layers) parts.add(l.describe());
    return String.join(" → ", parts) + String.format(" (%,d parameters)", parameterCount());
  }
}
