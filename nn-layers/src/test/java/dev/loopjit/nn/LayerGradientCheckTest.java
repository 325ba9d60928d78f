// Every new layer's kernels against central finite differences of the double-precision Reference, on the jvm; strips against naive, bit for bit.
package dev.loopjit.nn;

import static dev.loopjit.nn.GradientCheckTest.assertClose;
import static dev.loopjit.nn.GradientCheckTest.floats;
import static dev.loopjit.nn.GradientCheckTest.random;
import static dev.loopjit.nn.Layer.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.util.Random;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * As {@link GradientCheckTest}, for the image and normalisation layers: for a one-layer model,
 * the float kernels (called as plain Java) against {@link Reference}'s double forward and its
 * central differences ({@code h = 1e-6}), with {@code L = Σ dy·y} so that the backward kernels'
 * outputs are ∂L/∂x and ∂L/∂parameters. Shapes include padding, strides, windows that overlap or
 * leave rows out, filters and channels past one strip, and padding rows in the batch.
 */
class LayerGradientCheckTest {

  private static double[] numeric(double[] x, ToDoubleFunction<double[]> f) {
    return GradientCheckTest.numeric(x, f);
  }

  /** The reference outputs of the first {@code valid} rows of x (rows of m's input), flattened. */
  private static double[] ref(Sequential m, double[] params, double[] x, int valid) {
    int n = m.inputs(), o = m.outputs();
    double[][] rows = new double[valid][n];
    for (int r = 0; r < valid; r++) System.arraycopy(x, r * n, rows[r], 0, n);
    double[][] y = Reference.forward(m, params, rows, 0);
    double[] flat = new double[valid * o];
    for (int r = 0; r < valid; r++) System.arraycopy(y[r], 0, flat, r * o, o);
    return flat;
  }

  /** {@code L = Σ dy·y} over the first {@code valid} rows. */
  private static double loss(Sequential m, double[] params, double[] x, double[] dy, int valid) {
    double[] y = ref(m, params, x, valid);
    double s = 0;
    for (int i = 0; i < y.length; i++) s += dy[i] * y[i];
    return s;
  }

  private static void assertSameBits(String what, FloatArray expected, FloatArray actual) {
    assertArrayEquals(expected.toArray(), actual.toArray(), what + ": strips and naive differ");
  }

  private static IntArray batch(int rows, int valid) {
    IntArray a = new IntArray(1 + rows);
    a.set(0, valid);
    return a;
  }

  @Test
  void convolution() {
    // C, H, W, F, K, stride, padding, bias
    int[][] cases = {{2, 7, 6, 3, 3, 1, 1, 1}, {3, 8, 8, 10, 2, 2, 0, 0}, {1, 5, 5, 2, 5, 1, 0, 1}, {2, 9, 7, 3, 3, 2, 2, 1}, {15, 4, 3, 2, 3, 1, 1, 1}, {66, 2, 2, 70, 1, 1, 0, 1}};
    for (int[] c : cases) {
      int ch = c[0], h = c[1], w = c[2], f = c[3], k = c[4], s = c[5], pad = c[6], b = 3;
      Conv2D conv = new Conv2D(f, k, s, pad, c[7] != 0, 0);
      Sequential m = Sequential.of(shape(ch, h, w), conv);
      int oh = m.shape(1).dim(1), ow = m.shape(1).dim(2), p = oh * ow, cols = ch * k * k, np = m.parameterCount(), bAt = conv.bias() ? f * cols : -1;
      String what = conv.describe() + " on " + m.inputShape();
      Random rnd = new Random(ch * 100 + h);
      double[] x = random(rnd, b * ch * h * w, -1, 1), params = random(rnd, np, -1, 1), dy = random(rnd, b * f * p, -1, 1);
      FloatArray fx = floats(x), fp = floats(params), fdy = floats(dy);

      FloatArray y1 = new FloatArray(b * f * p), y2 = new FloatArray(b * f * p), colT = new FloatArray(b * p * cols), wt = new FloatArray(cols * f);
      ConvKernels.convForwardNaive(fx, fp, 0, bAt, y1, b, ch, h, w, f, k, s, pad, oh, ow);
      ConvKernels.im2col(fx, colT, b, ch, h, w, k, s, pad, oh, ow);
      ConvKernels.weightsByColumn(fp, 0, wt, f, cols);
      ConvKernels.convForwardStrips(colT, wt, fp, bAt, y2, b, f, cols, p);
      assertSameBits(what + " y", y1, y2);
      FloatArray yRows = new FloatArray(b * p * f), y3 = new FloatArray(b * f * p);
      ConvKernels.convForwardRows(colT, wt, fp, bAt, yRows, b, f, cols, p);
      ConvKernels.rowsToPlanes(yRows, y3, b, f, p);
      assertSameBits(what + " y (rows)", y1, y3);
      assertClose(what + " y", ref(m, params, x, b), y1, 0);

      FloatArray g1 = new FloatArray(np), g2 = new FloatArray(np), dx1 = new FloatArray(b * ch * h * w), dx2 = new FloatArray(b * ch * h * w);
      FloatArray wr = new FloatArray(cols * f);
      ConvKernels.convBackwardWeightsNaive(fdy, fx, g1, 0, b, ch, h, w, f, k, s, pad, oh, ow);
      FloatArray partial = new FloatArray(b * f * cols);
      ConvKernels.convWeightPartials(fdy, colT, partial, b, f, cols, p);
      ConvKernels.convWeightSum(partial, g2, 0, b, f * cols);
      if (conv.bias()) {
        ConvKernels.convBackwardBias(fdy, g1, bAt, b, f, p);
        ConvKernels.convBackwardBias(fdy, g2, bAt, b, f, p);
      }
      ConvKernels.convBackwardInputNaive(fdy, fp, 0, dx1, b, ch, h, w, f, k, s, pad, oh, ow);
      ConvKernels.weightsByChannel(fp, 0, wr, ch, f, k);
      ConvKernels.convBackwardInputStrips(fdy, wr, dx2, b, ch, h, w, f, k, s, pad, oh, ow);
      assertSameBits(what + " dW", g1, g2);
      assertSameBits(what + " dx", dx1, dx2);
      FloatArray g3 = new FloatArray(np), images = new FloatArray(b * f * cols);
      ConvKernels.convWeightImages(fdy, colT, images, b, f, cols, p);
      ConvKernels.convWeightSum(images, g3, 0, b, f * cols);
      if (conv.bias()) ConvKernels.convBackwardBias(fdy, g3, bAt, b, f, p);
      assertSameBits(what + " dW (images)", g1, g3);
      if (s == 1) {
        FloatArray wp = new FloatArray(cols * f), dcolT = new FloatArray(b * p * cols), dxRows = new FloatArray(b * h * w * ch);
        FloatArray dx3 = new FloatArray(b * ch * h * w);
        ConvKernels.weightsByPosition(fp, 0, wp, ch, f, k);
        ConvKernels.convInputColumns(fdy, wp, dcolT, b, f, cols, p);
        ConvKernels.columnsToImageRows(dcolT, dxRows, b, ch, h, w, k, pad, oh, ow);
        ConvKernels.rowsToPlanes(dxRows, dx3, b, ch, h * w);
        assertSameBits(what + " dx (columns)", dx1, dx3);
      }
      assertClose(what + " dparams", numeric(params, v -> loss(m, v, x, dy, b)), g1, 0);
      assertClose(what + " dx", numeric(x, v -> loss(m, params, v, dy, b)), dx1, 0);
    }
  }

  @Test
  void pooling() {
    // C, H, W, size, stride: non-overlapping, overlapping with rows left out, stride 1
    int[][] cases = {{2, 6, 6, 2, 2}, {2, 7, 5, 3, 2}, {1, 5, 4, 2, 1}, {3, 5, 5, 2, 2}, {2, 7, 8, 2, 3}};
    for (int[] c : cases)
      for (boolean max : new boolean[] {true, false}) {
        int ch = c[0], h = c[1], w = c[2], size = c[3], stride = c[4], b = 2;
        Layer pool = max ? maxPool(size, stride) : avgPool(size, stride);
        Sequential m = Sequential.of(shape(ch, h, w), pool);
        int oh = m.shape(1).dim(1), ow = m.shape(1).dim(2);
        String what = pool.describe() + " on " + m.inputShape();
        Random rnd = new Random(h * 10 + size);
        double[] x = random(rnd, b * ch * h * w, -1, 1), dy = random(rnd, b * ch * oh * ow, -1, 1);
        FloatArray y = new FloatArray(b * ch * oh * ow), dx = new FloatArray(x.length);
        if (max) {
          IntArray choice = new IntArray(y.getSize());
          PoolKernels.maxPoolForward(floats(x), y, choice, b, ch, h, w, size, stride, oh, ow);
          PoolKernels.maxPoolBackward(floats(dy), choice, dx, b, ch, h, w, size, stride, oh, ow);
          FloatArray y2 = new FloatArray(y.getSize());
          IntArray choice2 = new IntArray(y.getSize());
          PoolKernels.maxPoolForwardPlanes(floats(x), y2, choice2, b, ch, h, w, size, stride, oh, ow);
          assertSameBits(what + " y (planes)", y, y2);
          assertArrayEquals(choice.toArray(), choice2.toArray(), what + " choice (planes)");
          if (stride >= size) {
            FloatArray dx2 = new FloatArray(x.length), dx3 = new FloatArray(x.length);
            PoolKernels.maxPoolBackwardDisjoint(floats(dy), choice, dx2, b, ch, h, w, size, stride, oh, ow);
            PoolKernels.maxPoolBackwardDisjointPlanes(floats(dy), choice, dx3, b, ch, h, w, size, stride, oh, ow);
            assertSameBits(what + " dx", dx, dx2);
            assertSameBits(what + " dx (planes)", dx, dx3);
          }
        } else {
          PoolKernels.avgPoolForward(floats(x), y, b, ch, h, w, size, stride, oh, ow);
          PoolKernels.avgPoolBackward(floats(dy), dx, b, ch, h, w, size, stride, oh, ow);
        }
        assertClose(what + " y", ref(m, new double[0], x, b), y, 0);
        assertClose(what + " dx", numeric(x, v -> loss(m, new double[0], v, dy, b)), dx, 0);
      }
  }

  @Test
  void dropout() {
    int n = 40_000;
    Dropout d = new Dropout(0.25f);
    IntArray step = new IntArray(1);
    FloatArray x = new FloatArray(n), mask = new FloatArray(n), y = new FloatArray(n), dy = new FloatArray(n), dx = new FloatArray(n);
    Random rnd = new Random(1);
    for (int i = 0; i < n; i++) {
      x.set(i, (float) rnd.nextGaussian());
      dy.set(i, (float) rnd.nextGaussian());
    }
    DropoutKernels.dropoutTick(step);
    DropoutKernels.dropoutForward(x, mask, y, step, 7, d.threshold(), 1f / 0.75f, n);
    DropoutKernels.dropoutBackward(dy, mask, dx, n);
    int dropped = 0;
    for (int i = 0; i < n; i++) {
      float m = mask.get(i);
      assertTrue(m == 0f || m == 1f / 0.75f, "mask " + m);
      if (m == 0f) dropped++;
      assertEquals(x.get(i) * m, y.get(i));
      assertEquals(dy.get(i) * m, dx.get(i));   // y is linear in x with the mask fixed: ∂L/∂x = dy · mask
    }
    // 25 % of 40,000 give or take 4σ (σ = √(n p (1-p)) ≈ 87)
    assertTrue(Math.abs(dropped - n / 4) < 350, dropped + " of " + n + " dropped");
    float[] first = mask.toArray();
    DropoutKernels.dropoutTick(step);
    DropoutKernels.dropoutForward(x, mask, y, step, 7, d.threshold(), 1f / 0.75f, n);
    int same = 0;
    for (int i = 0; i < n; i++) if ((first[i] == 0f) == (mask.get(i) == 0f)) same++;
    assertTrue(same < n * 0.7, "the next step draws a new mask: " + same + " of " + n + " agree");
  }

  @Test
  void batchNormOnImagesAndVectors() {
    for (Shape in : new Shape[] {Shape.of(3, 4, 3), Shape.of(5)}) {
      int b = 5, valid = 4, c = in.channels(), s = in.spatial(), n = in.size();
      BatchNorm bn = new BatchNorm(0.1f, 1e-5f);
      Sequential m = Sequential.of(in, bn);
      Random rnd = new Random(n);
      double[] x = random(rnd, b * n, -2, 2), params = random(rnd, 2 * c, 0.5, 1.5), dy = random(rnd, b * n, -1, 1);
      for (int i = valid * n; i < b * n; i++) dy[i] = 0;     // the loss gives padding rows no gradient
      FloatArray fx = floats(x), fp = floats(params), stats = new FloatArray(2 * c), state = new FloatArray(2 * c + 3), y = new FloatArray(b * n);
      for (int i = 0; i < c; i++) state.set(3 + c + i, 1f);
      IntArray batch = batch(b, valid);
      NormKernels.batchNormStats(fx, batch, stats, state, 3, b, c, s, 0.1f, 1e-5f);
      NormKernels.batchNormForward(fx, stats, fp, 0, y, b, c, s);
      assertClose("batch norm " + in + " y", ref(m, params, x, valid), y, 0);
      for (int ch = 0; ch < c; ch++) {
        double sum = 0, sq = 0;
        for (int r = 0; r < valid; r++) for (int i = 0; i < s; i++) sum += x[(r * c + ch) * s + i];
        double mean = sum / (valid * s);
        for (int r = 0; r < valid; r++) for (int i = 0; i < s; i++) sq += Math.pow(x[(r * c + ch) * s + i] - mean, 2);
        assertEquals(0.1 * mean, state.get(3 + ch), 1e-6, "running mean");
        assertEquals(0.9 + 0.1 * sq / (valid * s - 1), state.get(3 + c + ch), 1e-6, "running variance (unbiased)");
      }
      FloatArray grads = new FloatArray(2 * c), dx = new FloatArray(b * n);
      NormKernels.batchNormBackwardParams(floats(dy), fx, stats, batch, grads, 0, b, c, s);
      NormKernels.batchNormBackwardInput(floats(dy), fx, stats, fp, grads, 0, batch, dx, b, c, s);
      assertClose("batch norm " + in + " dparams", numeric(params, v -> loss(m, v, x, dy, valid)), grads, 0);
      double[] dxRef = numeric(x, v -> loss(m, params, v, dy, valid));   // 0 for the padding rows: they are not in the statistics
      assertClose("batch norm " + in + " dx", dxRef, dx, 0);

      // one work-item per (image, channel) plane gives the same bits as one per element
      FloatArray y3 = new FloatArray(b * n), dx3 = new FloatArray(b * n);
      NormKernels.batchNormForwardPlanes(fx, stats, fp, 0, y3, b, c, s);
      NormKernels.batchNormBackwardInputPlanes(floats(dy), fx, stats, fp, grads, 0, batch, dx3, b, c, s);
      assertArrayEquals(y.toArray(), y3.toArray(), "batchNormForwardPlanes");
      assertArrayEquals(dx.toArray(), dx3.toArray(), "batchNormBackwardInputPlanes");

      // inference: the running statistics instead of the batch's
      FloatArray yi = new FloatArray(b * n), yi3 = new FloatArray(b * n);
      NormKernels.batchNormInference(fx, state, 3, fp, 0, yi, b, c, s, 1e-5f);
      NormKernels.batchNormInferencePlanes(fx, state, 3, fp, 0, yi3, b, c, s, 1e-5f);
      assertArrayEquals(yi.toArray(), yi3.toArray(), "batchNormInferencePlanes");
      for (int r = 0; r < b; r++)
        for (int i = 0; i < n; i++) {
          int ch = i / s;
          double expected = params[ch] * (x[r * n + i] - state.get(3 + ch)) / Math.sqrt(state.get(3 + c + ch) + 1e-5) + params[c + ch];
          assertEquals(expected, yi.get(r * n + i), 2e-5, "inference");
        }
    }
  }

  @Test
  void layerNorm() {
    for (Shape in : new Shape[] {Shape.of(2, 3, 3), Shape.of(7)}) {
      int b = 4, valid = 3, n = in.size();
      Sequential m = Sequential.of(in, new LayerNorm(1e-5f));
      Random rnd = new Random(n + 1);
      double[] x = random(rnd, b * n, -2, 2), params = random(rnd, 2 * n, 0.5, 1.5), dy = random(rnd, b * n, -1, 1);
      for (int i = valid * n; i < b * n; i++) dy[i] = 0;
      FloatArray fx = floats(x), fp = floats(params), stats = new FloatArray(2 * b), y = new FloatArray(b * n);
      NormKernels.layerNormStats(fx, stats, b, n, 1e-5f);
      NormKernels.layerNormForward(fx, stats, fp, 0, y, b, n);
      assertClose("layer norm " + in + " y", ref(m, params, x, b), y, 0);
      FloatArray grads = new FloatArray(2 * n), dx = new FloatArray(b * n);
      IntArray batch = batch(b, valid);
      NormKernels.layerNormBackwardParams(floats(dy), fx, stats, batch, grads, 0, b, n);
      NormKernels.layerNormBackwardInput(floats(dy), fx, stats, fp, 0, batch, dx, b, n);
      assertClose("layer norm " + in + " dparams", numeric(params, v -> loss(m, v, x, dy, valid)), grads, 0);
      assertClose("layer norm " + in + " dx", numeric(x, v -> loss(m, params, v, dy, valid)), dx, 0);
    }
  }
}
