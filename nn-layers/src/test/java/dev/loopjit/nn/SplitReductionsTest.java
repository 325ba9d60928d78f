// The GPUs' split reductions (each image's sums on a work-item of its own, then the images in order) give the one-kernel versions' bits.
package dev.loopjit.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import org.junit.jupiter.api.Test;

/**
 * On a GPU, {@link Conv2D} and {@link BatchNorm} split their sums over the batch in two: the
 * per-image sums, B·C (or B·F·CKK) work-items side by side, then one sum of those per channel in
 * image order. The CPU kernels sum in the same order in one loop. Here, as plain Java: every split
 * sequence against its one-kernel version, bit for bit (padding rows included: V < B); and each new
 * kernel on every device against the JVM (KernelCheck).
 */
class SplitReductionsTest {
  private static final int B = 5, V = 4, C = 3, H = 6, W = 7, F = 4, K = 3, STRIDE = 1, PAD = 1, S = H * W;

  private static IntArray valid() {
    IntArray batch = new IntArray(1 + B);
    batch.set(0, V);
    return batch;
  }

  @Test
  void batchNormStatistics() {
    FloatArray x = new Inputs(11).floatArray(B * C * S, -2, 3), one = new FloatArray(2 * C), split = new FloatArray(2 * C);
    FloatArray stateOne = new Inputs(12).floatArray(2 * C + 1, 0, 1), stateSplit = new FloatArray(2 * C + 1), partial = new FloatArray(B * C);
    for (int i = 0; i < 2 * C + 1; i++) stateSplit.set(i, stateOne.get(i));
    NormKernels.batchNormStats(x, valid(), one, stateOne, 1, B, C, S, 0.1f, 1e-5f);
    NormKernels.batchNormImageSums(x, partial, B, C, S);
    NormKernels.batchNormMean(partial, valid(), split, C, S);
    NormKernels.batchNormImageSquares(x, split, partial, B, C, S);
    NormKernels.batchNormVariance(partial, valid(), split, stateSplit, 1, C, S, 0.1f, 1e-5f);
    assertArrayEquals(one.toHeapArray(), split.toHeapArray());
    assertArrayEquals(stateOne.toHeapArray(), stateSplit.toHeapArray());
  }

  @Test
  void batchNormParameterGradients() {
    Inputs in = new Inputs(13);
    FloatArray dy = in.floatArray(B * C * S, -1, 1), x = in.floatArray(B * C * S, -2, 3), stats = in.floatArray(2 * C, 0.5f, 2);
    FloatArray one = new FloatArray(2 * C + 2), split = new FloatArray(2 * C + 2), partial = new FloatArray(2 * B * C);
    NormKernels.batchNormBackwardParams(dy, x, stats, valid(), one, 2, B, C, S);
    NormKernels.batchNormParamImages(dy, x, stats, partial, B, C, S);
    NormKernels.batchNormParamsSum(partial, valid(), split, 2, B, C);
    assertArrayEquals(one.toHeapArray(), split.toHeapArray());
  }

  @Test
  void convolutionWeightAndBiasGradients() {
    int oh = ConvKernels.outSize(H, K, STRIDE, PAD), ow = ConvKernels.outSize(W, K, STRIDE, PAD), cols = C * K * K;
    Inputs in = new Inputs(14);
    FloatArray dy = in.floatArray(B * F * oh * ow, -1, 1), x = in.floatArray(B * C * H * W, -1, 1);
    FloatArray one = new FloatArray(F * cols + F + 1), split = new FloatArray(F * cols + F + 1);
    FloatArray partial = new FloatArray(B * F * cols), biasPartial = new FloatArray(B * F);
    ConvKernels.convBackwardWeightsNaive(dy, x, one, 1, B, C, H, W, F, K, STRIDE, PAD, oh, ow);
    ConvKernels.convBackwardBias(dy, one, 1 + F * cols, B, F, oh * ow);
    ConvKernels.convWeightImagesNaive(dy, x, partial, B, C, H, W, F, K, STRIDE, PAD, oh, ow);
    ConvKernels.convWeightSum(partial, split, 1, B, F * cols);
    ConvKernels.convBiasImages(dy, biasPartial, B, F, oh * ow);
    ConvKernels.convWeightSum(biasPartial, split, 1 + F * cols, B, F);
    assertArrayEquals(one.toHeapArray(), split.toHeapArray());
  }

  @Test
  void everyNewKernelOnEveryDevice() {
    int oh = ConvKernels.outSize(H, K, 2, PAD), ow = ConvKernels.outSize(W, K, 2, PAD);
    KernelCheck.of("batchNormImageSums", NormKernels::batchNormImageSums)
        .args(() -> new Object[] {new Inputs(21).floatArray(B * C * S, -1, 1), new FloatArray(B * C), B, C, S}).run();
    KernelCheck.of("batchNormMean", NormKernels::batchNormMean)
        .args(() -> new Object[] {new Inputs(22).floatArray(B * C, -9, 9), valid(), new FloatArray(2 * C), C, S}).run();
    KernelCheck.of("batchNormImageSquares", NormKernels::batchNormImageSquares)
        .args(() -> new Object[] {new Inputs(23).floatArray(B * C * S, -1, 1), new Inputs(24).floatArray(2 * C, -1, 1), new FloatArray(B * C), B, C,
            S}).run();
    KernelCheck.of("batchNormVariance", NormKernels::batchNormVariance)
        .args(() -> new Object[] {new Inputs(25).floatArray(B * C, 0, 9), valid(), new Inputs(26).floatArray(2 * C, -1, 1),
            new Inputs(27).floatArray(2 * C, 0, 1), 0, C, S, 0.1f, 1e-5f}).run();
    KernelCheck.of("batchNormParamImages", NormKernels::batchNormParamImages)
        .args(() -> { Inputs in = new Inputs(28);
          return new Object[] {in.floatArray(B * C * S, -1, 1), in.floatArray(B * C * S, -1, 1), in.floatArray(2 * C, 0.5f, 2),
              new FloatArray(2 * B * C), B, C, S}; }).run();
    KernelCheck.of("batchNormParamsSum", NormKernels::batchNormParamsSum)
        .args(() -> new Object[] {new Inputs(29).floatArray(2 * B * C, -1, 1), valid(), new FloatArray(2 * C + 1), 1, B, C}).run();
    KernelCheck.of("convBiasImages", ConvKernels::convBiasImages)
        .args(() -> new Object[] {new Inputs(30).floatArray(B * F * S, -1, 1), new FloatArray(B * F), B, F, S}).run();
    KernelCheck.of("convWeightImagesNaive", ConvKernels::convWeightImagesNaive)
        .args(() -> { Inputs in = new Inputs(31);
          return new Object[] {in.floatArray(B * F * oh * ow, -1, 1), in.floatArray(B * C * H * W, -1, 1), new FloatArray(B * F * C * K * K), B, C, H,
              W, F, K, 2, PAD, oh, ow}; }).run();
  }
}
