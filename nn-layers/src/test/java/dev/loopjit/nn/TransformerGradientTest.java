// Each transformer block's backward kernels against central differences of a double-precision forward, and on every device (KernelCheck).
package dev.loopjit.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.testing.Tolerance;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The loss is {@code L = Σ w · y} for a random w, so that dL/dy = w is what each backward kernel
 * gets; its result is compared with {@code (L(θ + h) - L(θ - h)) / 2h} of the block's forward
 * written here in double, for every input. Shapes as in {@link TransformerKernelsTest}: three
 * sequences of 5 tokens (lengths 5, 2, 0), 12 features in 3 heads.
 */
class TransformerGradientTest {
  private static final int B = 3, T = 5, D = 12, H = 3, E = D / H, N = B * T, V = 9, Y = 2;
  private static final int[] LENGTHS = {5, 2, 0};
  private static final float SCALE = 2f;
  private static final Tolerance MATH = Tolerance.ulps(16);

  private static IntArray mask() {
    IntArray m = new IntArray(N);
    for (int b = 0; b < B; b++)
      for (int t = 0; t < LENGTHS[b]; t++) m.set(b * T + t, 1);
    return m;
  }

  private static double[] doubles(FloatArray a) {
    double[] d = new double[a.getSize()];
    for (int i = 0; i < d.length; i++) d[i] = a.get(i);
    return d;
  }

  /** Central differences of {@code Σ w · f(θ)} at every element of θ. */
  private static double[] numeric(double[] theta, double[] w, Function<double[], double[]> f) {
    double[] g = new double[theta.length];
    double h = 1e-4;
    for (int k = 0; k < theta.length; k++) {
      double keep = theta[k];
      theta[k] = keep + h;
      double up = dot(w, f.apply(theta));
      theta[k] = keep - h;
      double down = dot(w, f.apply(theta));
      theta[k] = keep;
      g[k] = (up - down) / (2 * h);
    }
    return g;
  }

  private static double dot(double[] a, double[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) s += a[i] * b[i];
    return s;
  }

  private static void close(double[] expected, FloatArray actual, String what) {
    for (int i = 0; i < expected.length; i++)
      assertEquals(expected[i], actual.get(i), 2e-3 * Math.max(1, Math.abs(expected[i])), what + " [" + i + "]");
  }

  /** Attention in double: context (N, D) from qkv (N, 3D), keys masked, a sequence with no keys giving 0. */
  private static double[] attention(double[] qkv) {
    double[] out = new double[N * D];
    for (int b = 0; b < B; b++)
      for (int h = 0; h < H; h++)
        for (int i = 0; i < T; i++) {
          int keys = LENGTHS[b];
          if (keys == 0) continue;
          double[] p = new double[keys];
          double max = Double.NEGATIVE_INFINITY, sum = 0;
          for (int j = 0; j < keys; j++) {
            for (int d = 0; d < E; d++) p[j] += qkv[(b * T + i) * 3 * D + h * E + d] * qkv[(b * T + j) * 3 * D + D + h * E + d];
            p[j] /= SCALE;
            max = Math.max(max, p[j]);
          }
          for (int j = 0; j < keys; j++) sum += p[j] = Math.exp(p[j] - max);
          for (int d = 0; d < E; d++)
            for (int j = 0; j < keys; j++) out[(b * T + i) * D + h * E + d] += p[j] / sum * qkv[(b * T + j) * 3 * D + 2 * D + h * E + d];
        }
    return out;
  }

  @Test
  void attentionsGradientEqualsCentralDifferences() {
    FloatArray qkv = new Inputs(50).floatArray(N * 3 * D, -1, 1), w = new Inputs(51).floatArray(N * D, -1, 1);
    FloatArray scores = new FloatArray(B * H * T * T), context = new FloatArray(N * D), dScores = new FloatArray(B * H * T * T);
    FloatArray dqkv = new FloatArray(N * 3 * D);
    TransformerKernels.attentionScores(qkv, scores, B, T, D, H, SCALE);
    TransformerKernels.attentionSoftmax(scores, mask(), B, T, H);
    TransformerKernels.attentionContext(scores, qkv, context, B, T, D, H);
    TransformerBackwardKernels.attentionBackwardProbabilities(w, qkv, dScores, B, T, D, H);
    TransformerBackwardKernels.attentionBackwardSoftmax(scores, dScores, B, T, H, SCALE);
    TransformerBackwardKernels.attentionBackwardInputs(scores, dScores, qkv, w, dqkv, B, T, D, H);
    close(numeric(doubles(qkv), doubles(w), TransformerGradientTest::attention), dqkv, "dqkv");
  }

  @Test
  void embeddingsGradientEqualsCentralDifferences() {
    int word = 0, position = V * D, type = position + T * D, total = type + Y * D;
    IntArray ids = new Inputs(52).intArray(N, 0, V), types = new Inputs(53).intArray(N, 0, Y);
    FloatArray params = new Inputs(54).floatArray(total, -1, 1), w = new Inputs(55).floatArray(N * D, -1, 1), grads = new FloatArray(total);
    TransformerBackwardKernels.embedBackwardWords(ids, w, grads, word, N, D);
    TransformerBackwardKernels.embedBackwardPositions(w, grads, position, B, T, D);
    TransformerBackwardKernels.embedBackwardTypes(types, w, grads, type, N, Y, D);
    close(numeric(doubles(params), doubles(w), p -> {
      double[] x = new double[N * D];
      for (int r = 0; r < N; r++)
        for (int i = 0; i < D; i++) x[r * D + i] = p[word + ids.get(r) * D + i] + p[type + types.get(r) * D + i] + p[position + (r % T) * D + i];
      return x;
    }), grads, "d(word, position, type)");
  }

  @Test
  void poolingsAndNormalisationsGradientsEqualCentralDifferences() {
    FloatArray x = new Inputs(56).floatArray(N * D, -1, 1), w = new Inputs(57).floatArray(B * D, -1, 1), dx = new FloatArray(N * D);
    TransformerBackwardKernels.meanPoolBackward(w, mask(), dx, B, T, D);
    close(numeric(doubles(x), doubles(w), v -> {
      double[] y = new double[B * D];
      for (int b = 0; b < B; b++)
        for (int i = 0; i < D; i++)
          for (int t = 0; t < LENGTHS[b]; t++) y[b * D + i] += v[(b * T + t) * D + i] / LENGTHS[b];
      return y;
    }), dx, "mean pooling");

    FloatArray pooled = new Inputs(58).floatArray(B * D, -1, 1), dPooled = new FloatArray(B * D);
    TransformerBackwardKernels.l2NormalizeBackward(pooled, w, dPooled, B, D);
    close(numeric(doubles(pooled), doubles(w), v -> {
      double[] y = new double[B * D];
      for (int b = 0; b < B; b++) {
        double n = 0;
        for (int i = 0; i < D; i++) n += v[b * D + i] * v[b * D + i];
        for (int i = 0; i < D; i++) y[b * D + i] = v[b * D + i] / Math.sqrt(n);
      }
      return y;
    }), dPooled, "L2 normalisation");
  }

  @Test
  void everyBackwardKernelOnEveryDevice() {
    KernelCheck.of("embedBackwardWords", TransformerBackwardKernels::embedBackwardWords)
        .args(() -> { Inputs in = new Inputs(60);
          return new Object[] {in.intArray(N, 0, V), in.floatArray(N * D, -1, 1), in.floatArray(V * D + 3, -1, 1), 3, N, D}; })
        .run();
    KernelCheck.of("embedBackwardPositions", TransformerBackwardKernels::embedBackwardPositions)
        .args(() -> new Object[] {new Inputs(61).floatArray(N * D, -1, 1), new FloatArray(T * D + 2), 2, B, T, D}).run();
    KernelCheck.of("embedBackwardTypes", TransformerBackwardKernels::embedBackwardTypes)
        .args(() -> { Inputs in = new Inputs(62);
          return new Object[] {in.intArray(N, 0, Y), in.floatArray(N * D, -1, 1), new FloatArray(Y * D + 1), 1, N, Y, D}; })
        .run();
    KernelCheck.of("attentionBackwardProbabilities", TransformerBackwardKernels::attentionBackwardProbabilities)
        .args(() -> { Inputs in = new Inputs(63);
          return new Object[] {in.floatArray(N * D, -1, 1), in.floatArray(N * 3 * D, -1, 1), new FloatArray(B * H * T * T), B, T, D, H}; })
        .run();
    KernelCheck.of("attentionBackwardSoftmax", TransformerBackwardKernels::attentionBackwardSoftmax)
        .args(() -> { Inputs in = new Inputs(64);
          return new Object[] {in.floatArray(B * H * T * T, 0, 1), in.floatArray(B * H * T * T, -1, 1), B, T, H, SCALE}; })
        .run();
    KernelCheck.of("attentionBackwardInputs", TransformerBackwardKernels::attentionBackwardInputs)
        .args(() -> { Inputs in = new Inputs(65);
          return new Object[] {in.floatArray(B * H * T * T, 0, 1), in.floatArray(B * H * T * T, -1, 1), in.floatArray(N * 3 * D, -1, 1),
              in.floatArray(N * D, -1, 1), new FloatArray(N * 3 * D), B, T, D, H}; })
        .run();
    KernelCheck.of("meanPoolBackward", TransformerBackwardKernels::meanPoolBackward)
        .args(() -> new Object[] {new Inputs(66).floatArray(B * D, -1, 1), mask(), new FloatArray(N * D), B, T, D}).run();
    KernelCheck.of("l2NormalizeBackward", TransformerBackwardKernels::l2NormalizeBackward).tolerance(MATH)
        .args(() -> { Inputs in = new Inputs(67);
          FloatArray x = in.floatArray(B * D, -1, 1);
          for (int i = 0; i < D; i++) x.set(D + i, 0f);
          return new Object[] {x, in.floatArray(B * D, -1, 1), new FloatArray(B * D), B, D}; })
        .run();
  }
}
