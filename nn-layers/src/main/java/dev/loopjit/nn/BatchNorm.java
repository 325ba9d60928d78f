// Batch normalisation as a layer: per channel (per feature for vectors), batch statistics in training, running ones at inference.
package dev.loopjit.nn;

import dev.loopjit.types.FloatArray;
import java.util.Random;

/**
 * Normalises each channel of an image (each feature of a vector) over the batch:
 * {@code y = γ (x - mean) / √(var + ε) + β} ({@link NormKernels}). In training, mean and
 * variance are the batch's (over the rows in use and every position of the channel) and the
 * layer updates running averages, {@code r = (1 - momentum) r + momentum · batch value}; at
 * inference it uses those. Parameters: γ (C), then β (C), starting at 1 and 0. State: running
 * mean (C), then running variance (C), starting at 0 and 1; saved with the weights.
 */
public record BatchNorm(float momentum, float epsilon) implements Layer {
  static final int CODE = 10;

  public BatchNorm {
    if (!(momentum >= 0f && momentum <= 1f) || !(epsilon > 0f))
      throw new IllegalArgumentException("batch norm needs momentum in [0, 1] and ε > 0, not " + momentum + " and " + epsilon);
  }

  @Override
  public String describe() {
    return "batch norm";
  }

  @Override
  public Shape outputShape(Shape in) {
    return in;
  }

  @Override
  public int parameterCount(Shape in) {
    return 2 * in.channels();
  }

  @Override
  public int stateCount(Shape in) {
    return 2 * in.channels();
  }

  @Override
  public void initialize(Shape in, FloatArray params, int at, FloatArray state, int stateAt, Random random, Layer next) {
    int c = in.channels();
    for (int i = 0; i < c; i++) {
      params.set(at + i, 1f);
      params.set(at + c + i, 0f);
      state.set(stateAt + i, 0f);
      state.set(stateAt + c + i, 1f);
    }
  }

  @Override
  public void addForward(LayerSite s) {
    int c = s.in.channels(), spatial = s.in.spatial();
    if (s.training) {
      FloatArray stats = s.floats("stats", 2 * c);
      if (s.prefersStrips()) {
        s.graph().task(s.id("batchnorm_stats"), NormKernels::batchNormStats, s.x, s.batch, stats, s.state, s.stateAt, s.rows, c, spatial,
            momentum, epsilon);
      } else {   // GPUs: the same sums, each (image, channel)'s on a work-item of its own, then the images in order
        FloatArray partial = s.floats("image_sums", s.rows * c);
        s.graph().task(s.id("batchnorm_sums"), NormKernels::batchNormImageSums, s.x, partial, s.rows, c, spatial)
            .task(s.id("batchnorm_mean"), NormKernels::batchNormMean, partial, s.batch, stats, c, spatial)
            .task(s.id("batchnorm_squares"), NormKernels::batchNormImageSquares, s.x, stats, partial, s.rows, c, spatial)
            .task(s.id("batchnorm_stats"), NormKernels::batchNormVariance, partial, s.batch, stats, s.state, s.stateAt, c, spatial, momentum,
                epsilon);
      }
      // Images on CPUs: the elementwise kernels one (image, channel) plane per work-item; the same bits.
      if (planes(s, spatial))
        s.graph().task(s.id("batchnorm"), NormKernels::batchNormForwardPlanes, s.x, stats, s.params, s.paramAt, s.y, s.rows, c, spatial);
      else s.graph().task(s.id("batchnorm"), NormKernels::batchNormForward, s.x, stats, s.params, s.paramAt, s.y, s.rows, c, spatial);
    } else if (planes(s, spatial)) {
      s.graph().task(s.id("batchnorm"), NormKernels::batchNormInferencePlanes, s.x, s.state, s.stateAt, s.params, s.paramAt, s.y, s.rows, c,
          spatial, epsilon);
    } else {
      s.graph().task(s.id("batchnorm"), NormKernels::batchNormInference, s.x, s.state, s.stateAt, s.params, s.paramAt, s.y, s.rows, c, spatial,
          epsilon);
    }
  }

  @Override
  public void addBackward(LayerSite s) {
    int c = s.in.channels(), spatial = s.in.spatial();
    FloatArray stats = s.floats("stats", 2 * c);
    if (s.prefersStrips()) {
      s.graph().task(s.id("batchnorm_dparams"), NormKernels::batchNormBackwardParams, s.dy, s.x, stats, s.batch, s.grads, s.paramAt, s.rows, c,
          spatial);
    } else {   // GPUs: each (image, channel)'s sums on a work-item of its own, then the images in order; the same bits
      FloatArray partial = s.floats("param_images", 2 * s.rows * c);
      s.graph().task(s.id("batchnorm_dparam_images"), NormKernels::batchNormParamImages, s.dy, s.x, stats, partial, s.rows, c, spatial)
          .task(s.id("batchnorm_dparams"), NormKernels::batchNormParamsSum, partial, s.batch, s.grads, s.paramAt, s.rows, c);
    }
    if (s.needsInputGradient() && planes(s, spatial))
      s.graph().task(s.id("batchnorm_dx"), NormKernels::batchNormBackwardInputPlanes, s.dy, s.x, stats, s.params, s.grads, s.paramAt, s.batch,
          s.dx, s.rows, c, spatial);
    else if (s.needsInputGradient())
      s.graph().task(s.id("batchnorm_dx"), NormKernels::batchNormBackwardInput, s.dy, s.x, stats, s.params, s.grads, s.paramAt, s.batch, s.dx,
          s.rows, c, spatial);
  }

  /** Whether the elementwise kernels run one plane per work-item: images, on devices whose compiler runs a group's work-items side by side. */
  private static boolean planes(LayerSite s, int spatial) {
    return spatial > 1 && s.compilerCoarsens();
  }

  @Override
  public int code() {
    return CODE;
  }

  @Override
  public int[] config() {
    return new int[] {Float.floatToIntBits(momentum), Float.floatToIntBits(epsilon)};
  }

  static BatchNorm fromConfig(int[] c) {
    Layer.expect(c, 2, "batch norm");
    return new BatchNorm(Float.intBitsToFloat(c[0]), Float.intBitsToFloat(c[1]));
  }
}
