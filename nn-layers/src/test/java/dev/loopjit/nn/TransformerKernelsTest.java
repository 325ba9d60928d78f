// The transformer kernels on the jvm and on each device (KernelCheck), and against double-precision references written here.
package dev.loopjit.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.testing.Tolerance;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import org.junit.jupiter.api.Test;

/**
 * Small shapes (B = 3 sequences of T = 5 tokens, D = 12 features in H = 3 heads), the last
 * sequence all padding and the others padded differently, so that the mask matters everywhere.
 */
class TransformerKernelsTest {
  private static final int B = 3, T = 5, D = 12, H = 3, N = B * T, V = 17;
  private static final int[] LENGTHS = {5, 2, 0};
  // exp, sqrt and the division by a sum: correctly rounded or within an ulp everywhere, but the sums that feed them may differ in a last bit
  private static final Tolerance MATH = Tolerance.ulps(8);

  private static IntArray mask() {
    IntArray m = new IntArray(N);
    for (int b = 0; b < B; b++)
      for (int t = 0; t < LENGTHS[b]; t++) m.set(b * T + t, 1);
    return m;
  }

  @Test
  void everyKernelOnEveryDevice() {
    KernelCheck.of("embed", TransformerKernels::embed)
        .args(() -> { Inputs in = new Inputs(1);
          int word = 3, position = word + V * D, type = position + 7 * D;
          return new Object[] {in.intArray(N, 0, V), in.intArray(N, 0, 2), in.floatArray(type + 2 * D, -1, 1), word, position, type,
              new FloatArray(N * D), N, T, D}; })
        .run();
    KernelCheck.of("attentionScores", TransformerKernels::attentionScores)
        .args(() -> new Object[] {new Inputs(2).floatArray(N * 3 * D, -1, 1), new FloatArray(B * H * T * T), B, T, D, H, 2f}).run();
    KernelCheck.of("attentionSoftmax", TransformerKernels::attentionSoftmax).tolerance(MATH)
        .args(() -> new Object[] {new Inputs(3).floatArray(B * H * T * T, -4, 4), mask(), B, T, H}).run();
    KernelCheck.of("attentionContext", TransformerKernels::attentionContext)
        .args(() -> { Inputs in = new Inputs(4);
          return new Object[] {in.floatArray(B * H * T * T, 0, 1), in.floatArray(N * 3 * D, -1, 1), new FloatArray(N * D), B, T, D, H}; })
        .run();
    KernelCheck.of("residualAdd", TransformerKernels::residualAdd)
        .args(() -> { Inputs in = new Inputs(5);
          return new Object[] {in.floatArray(N * D, -1, 1), in.floatArray(N * D, -1, 1), N * D}; })
        .run();
    KernelCheck.of("geluErfForward", TransformerKernels::geluErfForward).tolerance(MATH)
        .args(() -> new Object[] {new Inputs(6).floatArray(N * D, -6, 6), new FloatArray(N * D), N * D}).run();
    KernelCheck.of("geluErfBackward", TransformerKernels::geluErfBackward).tolerance(MATH)
        .args(() -> { Inputs in = new Inputs(7);
          return new Object[] {in.floatArray(N * D, -6, 6), in.floatArray(N * D, -1, 1), new FloatArray(N * D), N * D}; })
        .run();
    KernelCheck.of("meanPool", TransformerKernels::meanPool)
        .args(() -> new Object[] {new Inputs(8).floatArray(N * D, -1, 1), mask(), new FloatArray(B * D), B, T, D}).run();
    KernelCheck.of("l2Normalize", TransformerKernels::l2Normalize).tolerance(MATH)
        .args(() -> { FloatArray y = new Inputs(9).floatArray(B * D, -1, 1);
          for (int i = 0; i < D; i++) y.set(2 * D + i, 0f);
          return new Object[] {y, B, D}; })
        .run();
  }

  /** The padded batch's tokens packed: sequence b's rows from starts[b]. */
  private static int[] starts() {
    int[] starts = new int[B + 1];
    for (int b = 0; b < B; b++) starts[b + 1] = starts[b] + LENGTHS[b];
    return starts;
  }

  /** Per packed row (N of them, padding after the tokens): its sequence's first row, or (with {@code lengths}) its sequence's length. */
  private static IntArray perRow(boolean lengths) {
    IntArray a = new IntArray(N);
    int[] starts = starts();
    for (int r = 0; r < N; r++) a.set(r, lengths ? 0 : r);
    for (int b = 0; b < B; b++)
      for (int t = 0; t < LENGTHS[b]; t++) a.set(starts[b] + t, lengths ? LENGTHS[b] : starts[b]);
    return a;
  }

  private static IntArray ints(int... v) {
    IntArray a = new IntArray(v.length);
    for (int i = 0; i < v.length; i++) a.set(i, v[i]);
    return a;
  }

  /** A padded (N, width) array's tokens packed one sequence after another into N rows (the rest 0). */
  private static FloatArray packed(FloatArray padded, int width) {
    FloatArray out = new FloatArray(N * width);
    int[] starts = starts();
    for (int b = 0; b < B; b++)
      for (int t = 0; t < LENGTHS[b]; t++)
        for (int i = 0; i < width; i++) out.set((starts[b] + t) * width + i, padded.get((b * T + t) * width + i));
    return out;
  }

  @Test
  void everyPackedKernelOnEveryDevice() {
    KernelCheck.of("embedRows", TransformerKernels::embedRows)
        .args(() -> { Inputs in = new Inputs(21);
          int word = 3, position = word + V * D, type = position + 7 * D;
          return new Object[] {in.intArray(N, 0, V), in.intArray(N, 0, 2), in.intArray(N, 0, 7), in.floatArray(type + 2 * D, -1, 1), word, position, type,
              new FloatArray(N * D), N, D}; })
        .run();
    KernelCheck.of("attentionRows", TransformerKernels::attentionRows).tolerance(MATH)
        .args(() -> new Object[] {new Inputs(23).floatArray(N * 3 * D, -2, 2), perRow(false), perRow(true), new FloatArray(H * N * T),
            new FloatArray(N * D), N, T, D, H, 2f})
        .run();
    KernelCheck.of("layerNormRows", TransformerKernels::layerNormRows).tolerance(MATH)
        .args(() -> { Inputs in = new Inputs(25);
          return new Object[] {in.floatArray(N * D, -1, 1), in.floatArray(2 * D + 1, -1, 1), 1, new FloatArray(N * D), N, D, 1e-5f}; })
        .run();
    KernelCheck.of("meanPoolRows", TransformerKernels::meanPoolRows)
        .args(() -> new Object[] {new Inputs(27).floatArray(N * D, -1, 1), ints(starts()), new FloatArray(B * D), B, D}).run();
  }

  @Test
  void packedKernelsAreBitIdenticalToTheirPaddedReferences() {
    // attention: three padded kernels against one packed
    FloatArray qkv = new Inputs(30).floatArray(N * 3 * D, -2, 2), scores = new FloatArray(B * H * T * T), context = new FloatArray(N * D);
    TransformerKernels.attentionScores(qkv, scores, B, T, D, H, 2f);
    TransformerKernels.attentionSoftmax(scores, mask(), B, T, H);
    TransformerKernels.attentionContext(scores, qkv, context, B, T, D, H);
    FloatArray packedContext = new FloatArray(N * D);
    TransformerKernels.attentionRows(packed(qkv, 3 * D), perRow(false), perRow(true), new FloatArray(H * N * T), packedContext, N, T, D, H, 2f);
    assertArrayEquals(packed(context, D).toArray(), packedContext.toArray(), "attention");
    // layer norm: stats + forward against one kernel
    FloatArray x = new Inputs(31).floatArray(N * D, -3, 3), params = new Inputs(32).floatArray(2 * D, -1, 1), stats = new FloatArray(2 * N);
    FloatArray y = new FloatArray(N * D), yRows = new FloatArray(N * D);
    NormKernels.layerNormStats(x, stats, N, D, 1e-5f);
    NormKernels.layerNormForward(x, stats, params, 0, y, N, D);
    TransformerKernels.layerNormRows(x, params, 0, yRows, N, D, 1e-5f);
    assertArrayEquals(y.toArray(), yRows.toArray(), "layer norm");
    // pooling
    FloatArray pooled = new FloatArray(B * D), pooledRows = new FloatArray(B * D);
    TransformerKernels.meanPool(x, mask(), pooled, B, T, D);
    TransformerKernels.meanPoolRows(packed(x, D), ints(starts()), pooledRows, B, D);
    assertArrayEquals(pooled.toArray(), pooledRows.toArray(), "mean pooling");
  }

  @Test
  void attentionEqualsADoublePrecisionReference() {
    FloatArray qkv = new Inputs(10).floatArray(N * 3 * D, -2, 2), scores = new FloatArray(B * H * T * T), context = new FloatArray(N * D);
    IntArray mask = mask();
    float scale = (float) Math.sqrt(D / H);
    TransformerKernels.attentionScores(qkv, scores, B, T, D, H, scale);
    TransformerKernels.attentionSoftmax(scores, mask, B, T, H);
    TransformerKernels.attentionContext(scores, qkv, context, B, T, D, H);
    int e = D / H;
    for (int b = 0; b < B; b++)
      for (int h = 0; h < H; h++)
        for (int i = 0; i < T; i++) {
          double[] w = new double[T];
          double max = Double.NEGATIVE_INFINITY, sum = 0;
          for (int j = 0; j < LENGTHS[b]; j++) {
            double s = 0;
            for (int d = 0; d < e; d++) s += (double) qkv.get((b * T + i) * 3 * D + h * e + d) * qkv.get((b * T + j) * 3 * D + D + h * e + d);
            w[j] = s / Math.sqrt(e);
            max = Math.max(max, w[j]);
          }
          for (int j = 0; j < LENGTHS[b]; j++) sum += w[j] = Math.exp(w[j] - max);
          for (int d = 0; d < e; d++) {
            double c = 0;
            for (int j = 0; j < LENGTHS[b]; j++) c += w[j] / sum * qkv.get((b * T + j) * 3 * D + 2 * D + h * e + d);
            assertEquals(c, context.get((b * T + i) * D + h * e + d), 1e-5, "sequence " + b + " head " + h + " query " + i + " feature " + d);
          }
        }
  }

  @Test
  void paddingDoesNotChangeASequencesResult() {
    // The same two-token sequence alone (T = 2) and padded to T = 5 beside others: its context rows are bit-identical.
    FloatArray wide = new Inputs(11).floatArray(N * 3 * D, -2, 2);
    FloatArray narrow = new FloatArray(2 * 3 * D);
    for (int i = 0; i < 2 * 3 * D; i++) narrow.set(i, wide.get(1 * T * 3 * D + i));
    IntArray narrowMask = new IntArray(2);
    narrowMask.set(0, 1);
    narrowMask.set(1, 1);
    FloatArray wideContext = attention(wide, mask(), B, T), narrowContext = attention(narrow, narrowMask, 1, 2);
    for (int i = 0; i < 2 * D; i++) assertEquals(narrowContext.get(i), wideContext.get(T * D + i), "feature " + i);
    for (int i = 0; i < T * D; i++) assertEquals(0f, wideContext.get(2 * T * D + i), "an all-padding sequence's context is 0");
  }

  private static FloatArray attention(FloatArray qkv, IntArray mask, int batch, int tokens) {
    FloatArray scores = new FloatArray(batch * H * tokens * tokens), context = new FloatArray(batch * tokens * D);
    TransformerKernels.attentionScores(qkv, scores, batch, tokens, D, H, 2f);
    TransformerKernels.attentionSoftmax(scores, mask, batch, tokens, H);
    TransformerKernels.attentionContext(scores, qkv, context, batch, tokens, D, H);
    return context;
  }

  @Test
  void erfIsWithinItsStatedErrorEverywhere() {
    double worst = 0;
    for (int k = -60000; k <= 60000; k++) {
      float x = k / 10000f;
      worst = Math.max(worst, Math.abs(TransformerKernels.erf(x) - erf(x)));
    }
    assertTrue(worst < 2.5e-7, "worst |erf error| " + worst);
    assertEquals(1f, TransformerKernels.erf(Float.POSITIVE_INFINITY));
    assertEquals(-1f, TransformerKernels.erf(Float.NEGATIVE_INFINITY));
    assertEquals(0f, TransformerKernels.erf(0f), 2e-7);
  }

  @Test
  void geluBackwardIsTheForwardsDerivative() {
    int n = 200;
    FloatArray x = new FloatArray(n), ones = new FloatArray(n), dx = new FloatArray(n);
    for (int i = 0; i < n; i++) {
      x.set(i, -5f + i * 0.05f);
      ones.set(i, 1f);
    }
    TransformerKernels.geluErfBackward(x, ones, dx, n);
    for (int i = 0; i < n; i++) {
      double v = x.get(i), h = 1e-4;
      double numeric = (gelu(v + h) - gelu(v - h)) / (2 * h);
      assertEquals(numeric, dx.get(i), 1e-5, "x = " + v);
    }
  }

  @Test
  void poolingAndNormalisationEqualAReference() {
    FloatArray x = new Inputs(12).floatArray(N * D, -1, 1), y = new FloatArray(B * D);
    TransformerKernels.meanPool(x, mask(), y, B, T, D);
    TransformerKernels.l2Normalize(y, B, D);
    for (int b = 0; b < B; b++) {
      double[] mean = new double[D];
      double norm = 0;
      for (int i = 0; i < D; i++) {
        for (int t = 0; t < LENGTHS[b]; t++) mean[i] += x.get((b * T + t) * D + i);
        mean[i] /= Math.max(LENGTHS[b], 1);
        norm += mean[i] * mean[i];
      }
      float[] expected = new float[D], actual = new float[D];
      for (int i = 0; i < D; i++) {
        expected[i] = (float) (mean[i] / Math.max(Math.sqrt(norm), 1e-12));
        actual[i] = y.get(b * D + i);
      }
      assertArrayEquals(expected, actual, 1e-6f, "sequence " + b);
    }
  }

  private static double gelu(double v) {
    return v * (erf(v / Math.sqrt(2)) + 1) / 2;
  }

  /** erf in double by its Taylor series (|x| < 3) or its continued fraction for erfc, to ~1e-15. */
  private static double erf(double x) {
    double a = Math.abs(x);
    double r;
    if (a < 3) {
      double term = a, sum = a;
      for (int n = 1; n < 200; n++) {
        term *= -a * a / n;
        sum += term / (2 * n + 1);
      }
      r = 2 / Math.sqrt(Math.PI) * sum;
    } else {
      double f = 0;
      for (int n = 60; n >= 1; n--) f = n / 2.0 / (a + f);
      r = 1 - Math.exp(-a * a) / Math.sqrt(Math.PI) / (a + f);
    }
    return x < 0 ? -r : r;
  }
}
