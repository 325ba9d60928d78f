// The dense (fully connected) layer: y = x · Wᵀ + b on rows of features; its shape rule, parameters, initialisation and tasks.
package dev.loopjit.nn;

import dev.loopjit.types.FloatArray;
import java.util.Random;

/**
 * A fully connected layer with {@code units} outputs ({@link DenseKernels}). It takes a vector
 * of features; put {@link Flatten} after images. Parameters: W (OUT, IN) row-major, then b (OUT).
 *
 * @param units  outputs per row
 * @param inputs the features it must be given, or 0 to take whatever the layer before makes;
 *               a model whose layer before makes another width is refused when it is built
 */
public record Dense(int units, int inputs) implements Layer {
  static final int CODE = 0;

  public Dense {
    if (units <= 0) throw new IllegalArgumentException("a dense layer needs at least one unit, not " + units);
    if (inputs < 0) throw new IllegalArgumentException("a dense layer's inputs must be positive (or 0: any), not " + inputs);
  }

  /** {@code units} outputs from whatever width the layer before makes. */
  public Dense(int units) {
    this(units, 0);
  }

  /** The same layer, declaring the features it takes (checked when the model is built). */
  public Dense withInputs(int features) {
    return new Dense(units, features);
  }

  @Override
  public String describe() {
    return "dense " + units;
  }

  @Override
  public Shape outputShape(Shape in) {
    if (in.rank() != 1)
      throw new IllegalArgumentException("takes a vector of features but gets " + in + "; put flatten() before it (it would give " + Shape.of(in.size())
          + ")");
    if (inputs > 0 && in.size() != inputs) throw new IllegalArgumentException("takes " + Shape.of(inputs) + " but gets " + in);
    return Shape.of(units);
  }

  @Override
  public int parameterCount(Shape in) {
    long n = (long) units * in.size() + units;
    if (n > Integer.MAX_VALUE) throw new IllegalArgumentException("more than " + Integer.MAX_VALUE + " parameters");
    return (int) n;
  }

  /** He-uniform weights {@code U(±√(6/IN))} before a rectifier, else Xavier-uniform {@code U(±√(6/(IN+OUT)))}; zero biases. */
  @Override
  public void initialize(Shape in, FloatArray params, int at, FloatArray state, int stateAt, Random random, Layer next) {
    int n = in.size();
    double limit = Layer.rectified(next) ? Math.sqrt(6.0 / n) : Math.sqrt(6.0 / (n + units));
    for (int i = 0; i < units * n; i++) params.set(at + i, (float) ((2 * random.nextDouble() - 1) * limit));
    for (int o = 0; o < units; o++) params.set(at + units * n + o, 0f);
  }

  /**
   * Below this many 4×4 tiles of outputs a GPU runs the forward pass one output per work-item: 16
   * times the work-items. On an H200 the tiles ran at 210 GFLOP/s in the MLP's step (2,048 of them,
   * batch 128, 784 → 256) and the CNN's (1,024), too few threads to hide the loads; the
   * one-output kernel ran at 854 GFLOP/s over 65,536 outputs (`DenseForward`, batch 256).
   */
  static final int FEW_TILES = 1 << 14;

  /**
   * On jvm-mt the weights transposed, then the naive kernel over them (a matrix product's shape,
   * {@link LayerSite#transposesDenseWeights()}), on CPU OpenCL devices the naive kernel (both
   * coarsened by the compiler), on the jvm the strips, else (GPUs) the 4×4 tiles, or the naive
   * kernel when there are {@link #FEW_TILES} tiles or fewer; all give the naive kernel's bits.
   */
  @Override
  public void addForward(LayerSite s) {
    int in = s.in.size(), bias = s.paramAt + units * in;
    long tiles = (long) ((s.rows + DenseKernels.TILE - 1) / DenseKernels.TILE) * ((units + DenseKernels.TILE - 1) / DenseKernels.TILE);
    if (s.transposesDenseWeights()) {
      FloatArray wt = s.floats("wt", in * units);
      s.graph().task(s.id("dense_wt"), DenseKernels::weightsTransposed, s.params, s.paramAt, wt, in, units)
          .task(s.id("dense"), DenseKernels::denseForwardTransposedNaive, s.x, wt, s.params, bias, s.y, s.rows, in, units);
    } else if (s.compilerCoarsens() || (!s.prefersStrips() && tiles <= FEW_TILES)) {
      s.graph().task(s.id("dense"), DenseKernels::denseForwardNaive, s.x, s.params, s.paramAt, bias, s.y, s.rows, in, units);
    } else if (s.prefersStrips()) {
      FloatArray wt = s.floats("wt", in * units);
      s.graph().task(s.id("dense_wt"), DenseKernels::weightsTransposed, s.params, s.paramAt, wt, in, units)
          .task(s.id("dense"), DenseKernels::denseForwardStrips, s.x, wt, s.params, bias, s.y, s.rows, in, units);
    } else {
      s.graph().task(s.id("dense"), DenseKernels::denseForward, s.x, s.params, s.paramAt, bias, s.y, s.rows, in, units);
    }
  }

  @Override
  public void addBackward(LayerSite s) {
    int in = s.in.size();
    if (s.compilerCoarsens()) s.graph().task(s.id("dense_dw"), DenseKernels::denseBackwardWeightsNaive, s.dy, s.x, s.grads, s.paramAt, s.rows, in, units);
    else if (s.prefersStrips()) s.graph().task(s.id("dense_dw"), DenseKernels::denseBackwardWeightsStrips, s.dy, s.x, s.grads, s.paramAt, s.rows, in, units);
    else s.graph().task(s.id("dense_dw"), DenseKernels::denseBackwardWeights, s.dy, s.x, s.grads, s.paramAt, s.rows, in, units);
    s.graph().task(s.id("dense_db"), DenseKernels::denseBackwardBias, s.dy, s.grads, s.paramAt + units * in, s.rows, units);
    if (!s.needsInputGradient()) return;
    if (s.compilerCoarsens()) s.graph().task(s.id("dense_dx"), DenseKernels::denseBackwardInputNaive, s.dy, s.params, s.paramAt, s.dx, s.rows, in, units);
    else if (s.prefersStrips()) s.graph().task(s.id("dense_dx"), DenseKernels::denseBackwardInputStrips, s.dy, s.params, s.paramAt, s.dx, s.rows, in, units);
    else s.graph().task(s.id("dense_dx"), DenseKernels::denseBackwardInput, s.dy, s.params, s.paramAt, s.dx, s.rows, in, units);
  }

  @Override
  public int code() {
    return CODE;
  }

  @Override
  public int[] config() {
    return new int[] {units, inputs};
  }

  static Dense fromConfig(int[] c) {
    Layer.expect(c, 2, "dense");
    return new Dense(c[0], c[1]);
  }
}
