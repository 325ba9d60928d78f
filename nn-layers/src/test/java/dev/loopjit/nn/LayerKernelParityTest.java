// Every kernel of the image and normalisation layers on the jvm and on each device (KernelCheck), exact unless a math function is in it.
package dev.loopjit.nn;

import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.testing.Tolerance;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import org.junit.jupiter.api.Test;

/**
 * Shapes no multiple of a work-group size or of the strips ({@link ConvKernels#ROWS} rows,
 * {@link ConvKernels#FILTERS} filters, {@link ConvKernels#COLUMNS} columns, {@link ConvKernels#CHANNELS}
 * channels): the second geometry of each convolution check crosses a strip boundary in every
 * direction. Small enough for the simulated CUDA device.
 */
class LayerKernelParityTest {
  // C, H, W, F, K, stride, padding: padding and a stride; then 135 columns, 70 filters, 66 channels
  private static final int[][] CONV = {{3, 7, 6, 10, 3, 2, 1}, {15, 4, 3, 70, 3, 1, 1}};
  private static final int B = 3;
  // 1/√(var + ε) goes through sqrt and a division: correctly rounded everywhere, but the statistics feed it sums whose last bit may differ
  private static final Tolerance NORM = Tolerance.ulps(4);

  private static int out(int n, int k, int s, int p) {
    return ConvKernels.outSize(n, k, s, p);
  }

  @Test
  void convolutionNaive() {
    for (int[] g : CONV) {
      int c = g[0], h = g[1], w = g[2], f = g[3], k = g[4], s = g[5], p = g[6], oh = out(h, k, s, p), ow = out(w, k, s, p), cols = c * k * k;
      KernelCheck.of("convForwardNaive", ConvKernels::convForwardNaive)
          .args(() -> { Inputs in = new Inputs(1);
            return new Object[] {in.floatArray(B * c * h * w, -1, 1), in.floatArray(f * cols + f + 2, -1, 1), 2, 2 + f * cols,
                new FloatArray(B * f * oh * ow), B, c, h, w, f, k, s, p, oh, ow}; })
          .run();
      KernelCheck.of("convBackwardWeightsNaive", ConvKernels::convBackwardWeightsNaive)
          .args(() -> { Inputs in = new Inputs(2);
            return new Object[] {in.floatArray(B * f * oh * ow, -1, 1), in.floatArray(B * c * h * w, -1, 1), new FloatArray(f * cols + 1), 1, B, c,
                h, w, f, k, s, p, oh, ow}; })
          .run();
      KernelCheck.of("convBackwardInputNaive", ConvKernels::convBackwardInputNaive)
          .args(() -> { Inputs in = new Inputs(3);
            return new Object[] {in.floatArray(B * f * oh * ow, -1, 1), in.floatArray(f * cols, -1, 1), 0, new FloatArray(B * c * h * w), B, c, h,
                w, f, k, s, p, oh, ow}; })
          .run();
      KernelCheck.of("convBackwardBias", ConvKernels::convBackwardBias)
          .args(() -> new Object[] {new Inputs(4).floatArray(B * f * oh * ow, -1, 1), new FloatArray(f + 3), 3, B, f, oh * ow}).run();
    }
  }

  @Test
  void convolutionStrips() {
    for (int[] g : CONV) {
      int c = g[0], h = g[1], w = g[2], f = g[3], k = g[4], s = g[5], p = g[6], oh = out(h, k, s, p), ow = out(w, k, s, p), cols = c * k * k;
      int positions = oh * ow;
      KernelCheck.of("im2col", ConvKernels::im2col)
          .args(() -> new Object[] {new Inputs(5).floatArray(B * c * h * w, -1, 1), new FloatArray(B * positions * cols), B, c, h, w, k, s, p, oh, ow})
          .run();
      KernelCheck.of("weightsByColumn", ConvKernels::weightsByColumn)
          .args(() -> new Object[] {new Inputs(6).floatArray(f * cols + 4, -1, 1), 4, new FloatArray(cols * f), f, cols}).run();
      KernelCheck.of("weightsByChannel", ConvKernels::weightsByChannel)
          .args(() -> new Object[] {new Inputs(7).floatArray(f * cols + 4, -1, 1), 4, new FloatArray(cols * f), c, f, k}).run();
      KernelCheck.of("convForwardStrips", ConvKernels::convForwardStrips)
          .args(() -> { Inputs in = new Inputs(8);
            return new Object[] {in.floatArray(B * positions * cols, -1, 1), in.floatArray(cols * f, -1, 1), in.floatArray(f, -1, 1), 0,
                new FloatArray(B * f * positions), B, f, cols, positions}; })
          .run();
      KernelCheck.of("convWeightPartials", ConvKernels::convWeightPartials)
          .args(() -> { Inputs in = new Inputs(9);
            return new Object[] {in.floatArray(B * f * positions, -1, 1), in.floatArray(B * positions * cols, -1, 1), new FloatArray(B * f * cols), B,
                f, cols, positions}; })
          .run();
      KernelCheck.of("convWeightSum", ConvKernels::convWeightSum)
          .args(() -> new Object[] {new Inputs(27).floatArray(B * f * cols, -1, 1), new FloatArray(f * cols + 2), 2, B, f * cols}).run();
      KernelCheck.of("convForwardRows", ConvKernels::convForwardRows)
          .args(() -> { Inputs in = new Inputs(29);
            return new Object[] {in.floatArray(B * positions * cols, -1, 1), in.floatArray(cols * f, -1, 1), in.floatArray(f + 1, -1, 1), 1,
                new FloatArray(B * positions * f), B, f, cols, positions}; })
          .run();
      KernelCheck.of("rowsToPlanes", ConvKernels::rowsToPlanes)
          .args(() -> new Object[] {new Inputs(30).floatArray(B * positions * f, -1, 1), new FloatArray(B * f * positions), B, f, positions}).run();
      KernelCheck.of("convWeightImages", ConvKernels::convWeightImages)
          .args(() -> { Inputs in = new Inputs(31);
            return new Object[] {in.floatArray(B * f * positions, -1, 1), in.floatArray(B * positions * cols, -1, 1), new FloatArray(B * f * cols), B,
                f, cols, positions}; })
          .run();
      KernelCheck.of("weightsByPosition", ConvKernels::weightsByPosition)
          .args(() -> new Object[] {new Inputs(32).floatArray(f * cols + 4, -1, 1), 4, new FloatArray(cols * f), c, f, k}).run();
      KernelCheck.of("convInputColumns", ConvKernels::convInputColumns)
          .args(() -> { Inputs in = new Inputs(33);
            return new Object[] {in.floatArray(B * f * positions, -1, 1), in.floatArray(f * cols, -1, 1), new FloatArray(B * positions * cols), B, f,
                cols, positions}; })
          .run();
      if (s == 1)
        KernelCheck.of("columnsToImageRows", ConvKernels::columnsToImageRows)
            .args(() -> new Object[] {new Inputs(34).floatArray(B * positions * cols, -1, 1), new FloatArray(B * h * w * c), B, c, h, w, k, p, oh, ow})
            .run();
      KernelCheck.of("convBackwardInputStrips", ConvKernels::convBackwardInputStrips)
          .args(() -> { Inputs in = new Inputs(10);
            return new Object[] {in.floatArray(B * f * positions, -1, 1), in.floatArray(cols * f, -1, 1), new FloatArray(B * c * h * w), B, c, h, w,
                f, k, s, p, oh, ow}; })
          .run();
    }
    // 66 channels: the input gradient's second strip of channels
    int c = 66, h = 3, w = 4, f = 3, k = 2, oh = out(h, k, 1, 0), ow = out(w, k, 1, 0);
    KernelCheck.of("convBackwardInputStrips", ConvKernels::convBackwardInputStrips)
        .args(() -> { Inputs in = new Inputs(11);
          return new Object[] {in.floatArray(2 * f * oh * ow, -1, 1), in.floatArray(c * k * k * f, -1, 1), new FloatArray(2 * c * h * w), 2, c, h, w,
              f, k, 1, 0, oh, ow}; })
        .run();
  }

  @Test
  void pooling() {
    // C, H, W, size, stride: overlapping windows that leave a row out
    int c = 3, h = 7, w = 6, size = 3, stride = 2, oh = (h - size) / stride + 1, ow = (w - size) / stride + 1;
    KernelCheck.of("maxPoolForward", PoolKernels::maxPoolForward)
        .args(() -> new Object[] {new Inputs(12).floatArray(B * c * h * w, -1, 1), new FloatArray(B * c * oh * ow), new IntArray(B * c * oh * ow), B,
            c, h, w, size, stride, oh, ow})
        .run();
    KernelCheck.of("maxPoolBackward", PoolKernels::maxPoolBackward)
        .args(() -> { Inputs in = new Inputs(13);
          return new Object[] {in.floatArray(B * c * oh * ow, -1, 1), in.intArray(B * c * oh * ow, 0, h * w), new FloatArray(B * c * h * w), B, c, h, w,
              size, stride, oh, ow}; })
        .run();
    // windows that do not overlap, rows and columns left out: 7×6 in 2×2 windows 3 apart
    KernelCheck.of("maxPoolBackwardDisjoint", PoolKernels::maxPoolBackwardDisjoint)
        .args(() -> { Inputs in = new Inputs(28);
          return new Object[] {in.floatArray(B * c * 2 * 2, -1, 1), in.intArray(B * c * 2 * 2, 0, h * w), new FloatArray(B * c * h * w), B, c, h, w,
              2, 3, 2, 2}; })
        .run();
    KernelCheck.of("maxPoolForwardPlanes", PoolKernels::maxPoolForwardPlanes)
        .args(() -> new Object[] {new Inputs(12).floatArray(B * c * h * w, -1, 1), new FloatArray(B * c * oh * ow), new IntArray(B * c * oh * ow), B,
            c, h, w, size, stride, oh, ow})
        .run();
    KernelCheck.of("maxPoolBackwardDisjointPlanes", PoolKernels::maxPoolBackwardDisjointPlanes)
        .args(() -> { Inputs in = new Inputs(28);
          return new Object[] {in.floatArray(B * c * 2 * 2, -1, 1), in.intArray(B * c * 2 * 2, 0, h * w), new FloatArray(B * c * h * w), B, c, h, w,
              2, 3, 2, 2}; })
        .run();
    KernelCheck.of("avgPoolForward", PoolKernels::avgPoolForward)
        .args(() -> new Object[] {new Inputs(14).floatArray(B * c * h * w, -1, 1), new FloatArray(B * c * oh * ow), B, c, h, w, size, stride, oh, ow})
        .run();
    KernelCheck.of("avgPoolBackward", PoolKernels::avgPoolBackward)
        .args(() -> new Object[] {new Inputs(15).floatArray(B * c * oh * ow, -1, 1), new FloatArray(B * c * h * w), B, c, h, w, size, stride, oh, ow})
        .run();
  }

  @Test
  void dropout() {
    int n = 1013;
    KernelCheck.of("dropoutTick", DropoutKernels::dropoutTick).args(() -> new Object[] {IntArray.fromElements(41)}).run();
    KernelCheck.of("dropoutForward", DropoutKernels::dropoutForward)
        .args(() -> new Object[] {new Inputs(16).floatArray(n, -1, 1), new FloatArray(n), new FloatArray(n), IntArray.fromElements(3), 12345,
            new Dropout(0.3f).threshold(), 1f / 0.7f, n})
        .run();
    KernelCheck.of("dropoutBackward", DropoutKernels::dropoutBackward)
        .args(() -> { Inputs in = new Inputs(17); return new Object[] {in.floatArray(n, -1, 1), in.floatArray(n, 0, 2), new FloatArray(n), n}; })
        .run();
  }

  @Test
  void batchNorm() {
    int c = 5, s = 7, valid = B - 1;
    KernelCheck.of("batchNormStats", NormKernels::batchNormStats).tolerance(NORM)
        .args(() -> { Inputs in = new Inputs(18);
          return new Object[] {in.floatArray(B * c * s, -2, 2), batchOf(valid), new FloatArray(2 * c), in.floatArray(2 * c + 1, 0.5f, 1), 1, B, c, s,
              0.1f, 1e-5f}; })
        .run();
    KernelCheck.of("batchNormForward", NormKernels::batchNormForward)
        .args(() -> { Inputs in = new Inputs(19);
          return new Object[] {in.floatArray(B * c * s, -2, 2), in.floatArray(2 * c, 0.5f, 1.5f), in.floatArray(2 * c, -1, 1), 0,
              new FloatArray(B * c * s), B, c, s}; })
        .run();
    KernelCheck.of("batchNormInference", NormKernels::batchNormInference).tolerance(NORM)
        .args(() -> { Inputs in = new Inputs(20);
          return new Object[] {in.floatArray(B * c * s, -2, 2), in.floatArray(2 * c, 0.5f, 1.5f), 0, in.floatArray(2 * c, -1, 1), 0,
              new FloatArray(B * c * s), B, c, s, 1e-5f}; })
        .run();
    KernelCheck.of("batchNormBackwardParams", NormKernels::batchNormBackwardParams)
        .args(() -> { Inputs in = new Inputs(21);
          return new Object[] {in.floatArray(B * c * s, -1, 1), in.floatArray(B * c * s, -2, 2), in.floatArray(2 * c, 0.5f, 1.5f), batchOf(valid),
              new FloatArray(2 * c), 0, B, c, s}; })
        .run();
    KernelCheck.of("batchNormBackwardInput", NormKernels::batchNormBackwardInput)
        .args(() -> { Inputs in = new Inputs(22);
          return new Object[] {in.floatArray(B * c * s, -1, 1), in.floatArray(B * c * s, -2, 2), in.floatArray(2 * c, 0.5f, 1.5f),
              in.floatArray(2 * c, -1, 1), in.floatArray(2 * c, -1, 1), 0, batchOf(valid), new FloatArray(B * c * s), B, c, s}; })
        .run();
    KernelCheck.of("batchNormForwardPlanes", NormKernels::batchNormForwardPlanes)
        .args(() -> { Inputs in = new Inputs(19);
          return new Object[] {in.floatArray(B * c * s, -2, 2), in.floatArray(2 * c, 0.5f, 1.5f), in.floatArray(2 * c, -1, 1), 0,
              new FloatArray(B * c * s), B, c, s}; })
        .run();
    KernelCheck.of("batchNormInferencePlanes", NormKernels::batchNormInferencePlanes).tolerance(NORM)
        .args(() -> { Inputs in = new Inputs(20);
          return new Object[] {in.floatArray(B * c * s, -2, 2), in.floatArray(2 * c, 0.5f, 1.5f), 0, in.floatArray(2 * c, -1, 1), 0,
              new FloatArray(B * c * s), B, c, s, 1e-5f}; })
        .run();
    KernelCheck.of("batchNormBackwardInputPlanes", NormKernels::batchNormBackwardInputPlanes)
        .args(() -> { Inputs in = new Inputs(22);
          return new Object[] {in.floatArray(B * c * s, -1, 1), in.floatArray(B * c * s, -2, 2), in.floatArray(2 * c, 0.5f, 1.5f),
              in.floatArray(2 * c, -1, 1), in.floatArray(2 * c, -1, 1), 0, batchOf(valid), new FloatArray(B * c * s), B, c, s}; })
        .run();
  }

  @Test
  void layerNorm() {
    int d = 37, valid = B - 1;
    KernelCheck.of("layerNormStats", NormKernels::layerNormStats).tolerance(NORM)
        .args(() -> new Object[] {new Inputs(23).floatArray(B * d, -2, 2), new FloatArray(2 * B), B, d, 1e-5f}).run();
    KernelCheck.of("layerNormForward", NormKernels::layerNormForward)
        .args(() -> { Inputs in = new Inputs(24);
          return new Object[] {in.floatArray(B * d, -2, 2), in.floatArray(2 * B, 0.5f, 1.5f), in.floatArray(2 * d, -1, 1), 0, new FloatArray(B * d), B, d}; })
        .run();
    KernelCheck.of("layerNormBackwardParams", NormKernels::layerNormBackwardParams)
        .args(() -> { Inputs in = new Inputs(25);
          return new Object[] {in.floatArray(B * d, -1, 1), in.floatArray(B * d, -2, 2), in.floatArray(2 * B, 0.5f, 1.5f), batchOf(valid),
              new FloatArray(2 * d), 0, B, d}; })
        .run();
    KernelCheck.of("layerNormBackwardInput", NormKernels::layerNormBackwardInput)
        .args(() -> { Inputs in = new Inputs(26);
          return new Object[] {in.floatArray(B * d, -1, 1), in.floatArray(B * d, -2, 2), in.floatArray(2 * B, 0.5f, 1.5f), in.floatArray(2 * d, -1, 1),
              0, batchOf(valid), new FloatArray(B * d), B, d}; })
        .run();
  }

  private static IntArray batchOf(int valid) {
    IntArray a = new IntArray(1 + B);
    a.set(0, valid);
    return a;
  }
}
