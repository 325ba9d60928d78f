// Layer normalisation as a layer: each row normalised over all its elements, then scaled and shifted element-wise.
package dev.loopjit.nn;

import dev.loopjit.types.FloatArray;
import java.util.Random;

/**
 * Normalises each row over all its D elements (every channel and position of an image):
 * {@code y = γ (x - mean) / √(var + ε) + β}, with γ and β of D elements each, starting at 1 and
 * 0 ({@link NormKernels}). The same in training and inference.
 */
public record LayerNorm(float epsilon) implements Layer {
  static final int CODE = 11;

  public LayerNorm {
    if (!(epsilon > 0f)) throw new IllegalArgumentException("layer norm needs ε > 0, not " + epsilon);
  }

  @Override
  public String describe() {
    return "layer norm";
  }

  @Override
  public Shape outputShape(Shape in) {
    return in;
  }

  @Override
  public int parameterCount(Shape in) {
    return 2 * in.size();
  }

  @Override
  public void initialize(Shape in, FloatArray params, int at, FloatArray state, int stateAt, Random random, Layer next) {
    int d = in.size();
    for (int i = 0; i < d; i++) {
      params.set(at + i, 1f);
      params.set(at + d + i, 0f);
    }
  }

  @Override
  public void addForward(LayerSite s) {
    int d = s.in.size();
    FloatArray stats = s.floats("stats", 2 * s.rows);
    s.graph().task(s.id("layernorm_stats"), NormKernels::layerNormStats, s.x, stats, s.rows, d, epsilon)
        .task(s.id("layernorm"), NormKernels::layerNormForward, s.x, stats, s.params, s.paramAt, s.y, s.rows, d);
  }

  @Override
  public void addBackward(LayerSite s) {
    int d = s.in.size();
    FloatArray stats = s.floats("stats", 2 * s.rows);
    s.graph().task(s.id("layernorm_dparams"), NormKernels::layerNormBackwardParams, s.dy, s.x, stats, s.batch, s.grads, s.paramAt, s.rows, d);
    if (s.needsInputGradient())
      s.graph().task(s.id("layernorm_dx"), NormKernels::layerNormBackwardInput, s.dy, s.x, stats, s.params, s.paramAt, s.batch, s.dx, s.rows, d);
  }

  @Override
  public int code() {
    return CODE;
  }

  @Override
  public int[] config() {
    return new int[] {Float.floatToIntBits(epsilon)};
  }

  static LayerNorm fromConfig(int[] c) {
    Layer.expect(c, 1, "layer norm");
    return new LayerNorm(Float.intBitsToFloat(c[0]));
  }
}
