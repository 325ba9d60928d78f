// A small random encoder's whole forward pass on every device against a double-precision reference written here from BERT's definition.
package dev.loopjit.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.testing.Inputs;
import dev.loopjit.types.FloatArray;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TransformerEncoderTest {
  private static final EncoderShape SHAPE = new EncoderShape(50, 20, 2, 12, 3, 20, 2, 1e-5f);
  private static final List<int[]> SEQUENCES = List.of(new int[] {1, 5, 9, 2}, new int[] {1, 49, 2}, new int[] {1, 3, 3, 3, 7, 8, 11, 12, 13, 2},
      new int[] {1, 2}, new int[] {1, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 2});

  private static FloatArray weights() {
    FloatArray p = new Inputs(40).floatArray(SHAPE.parameters(), -0.5f, 0.5f);
    // LayerNorm γ near 1, so that the norms do not shrink the signal to nothing
    List<Integer> norms = new ArrayList<>(List.of(SHAPE.embeddingNorm()));
    for (int l = 0; l < SHAPE.layers(); l++) norms.addAll(List.of(SHAPE.block(l).attentionNorm(), SHAPE.block(l).outputNorm()));
    for (int g : norms)
      for (int i = 0; i < SHAPE.hidden(); i++) p.set(g + i, 1f + p.get(g + i) / 5);
    return p;
  }

  @Test
  void everyDeviceComputesBertsForwardPass() {
    FloatArray params = weights();
    List<double[]> expected = new ArrayList<>();
    for (int[] s : SEQUENCES) expected.add(reference(params, s));
    for (Device d : Devices.all())
      try (TransformerEncoder encoder = new TransformerEncoder(SHAPE, params, d, 2)) {
        float[][] actual = encoder.encode(SEQUENCES);
        for (int s = 0; s < SEQUENCES.size(); s++)
          for (int i = 0; i < SHAPE.hidden(); i++)
            assertEquals(expected.get(s)[i], actual[s][i], 2e-5, d.id() + ", sequence " + s + ", feature " + i);
        assertEquals(List.of(32), encoder.graphsBuilt(), d.id() + ": one graph: 29, 7 and 2 tokens all run as 32 rows");
      }
  }

  @Test
  void aShapeThatCannotBeIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new EncoderShape(50, 20, 2, 12, 5, 20, 2, 1e-5f));
    assertThrows(IllegalArgumentException.class, () -> new EncoderShape(0, 20, 2, 12, 3, 20, 2, 1e-5f));
    assertThrows(IllegalArgumentException.class, () -> new EncoderShape(50, 20, 2, 12, 3, 20, 2, 0f));
    assertThrows(IllegalArgumentException.class, () -> new EncoderShape(Integer.MAX_VALUE / 2, 20, 2, 12, 3, 20, 2, 1e-5f));
    var tooLong = assertThrows(IllegalArgumentException.class,
        () -> new TransformerEncoder(SHAPE, weights(), Devices.get("jvm"), 1).encode(List.of(new int[21])));
    assertEquals("sequence 0 has 21 tokens; the encoder takes 1 to 20", tooLong.getMessage());
  }

  /** The encoder in double from its definition: embeddings, LayerNorm, then per layer attention + residual + norm, GELU MLP + residual + norm. */
  private static double[] reference(FloatArray p, int[] ids) {
    int t = ids.length, d = SHAPE.hidden(), h = SHAPE.heads(), e = SHAPE.headSize(), f = SHAPE.intermediate();
    double[][] x = new double[t][d];
    for (int i = 0; i < t; i++)
      for (int k = 0; k < d; k++)
        x[i][k] = p.get(SHAPE.word() + ids[i] * d + k) + p.get(SHAPE.type() + k) + p.get(SHAPE.position() + i * d + k);
    x = norm(p, x, SHAPE.embeddingNorm());
    for (int l = 0; l < SHAPE.layers(); l++) {
      EncoderShape.Block b = SHAPE.block(l);
      double[][] qkv = linear(p, x, b.qkv(), b.qkvBias(), d, 3 * d), context = new double[t][d];
      for (int head = 0; head < h; head++)
        for (int i = 0; i < t; i++) {
          double[] w = new double[t];
          double max = Double.NEGATIVE_INFINITY, sum = 0;
          for (int j = 0; j < t; j++) {
            for (int k = 0; k < e; k++) w[j] += qkv[i][head * e + k] * qkv[j][d + head * e + k];
            w[j] /= Math.sqrt(e);
            max = Math.max(max, w[j]);
          }
          for (int j = 0; j < t; j++) sum += w[j] = Math.exp(w[j] - max);
          for (int k = 0; k < e; k++)
            for (int j = 0; j < t; j++) context[i][head * e + k] += w[j] / sum * qkv[j][2 * d + head * e + k];
        }
      x = norm(p, add(linear(p, context, b.output(), b.outputBias(), d, d), x), b.attentionNorm());
      double[][] up = linear(p, x, b.up(), b.upBias(), d, f);
      for (double[] row : up)
        for (int k = 0; k < f; k++) row[k] = row[k] * (erf(row[k] / Math.sqrt(2)) + 1) / 2;
      x = norm(p, add(linear(p, up, b.down(), b.downBias(), f, d), x), b.outputNorm());
    }
    double[] pooled = new double[d];
    double length = 0;
    for (int k = 0; k < d; k++) {
      for (int i = 0; i < t; i++) pooled[k] += x[i][k] / t;
      length += pooled[k] * pooled[k];
    }
    for (int k = 0; k < d; k++) pooled[k] /= Math.sqrt(length);
    return pooled;
  }

  private static double[][] linear(FloatArray p, double[][] x, int w, int bias, int in, int out) {
    double[][] y = new double[x.length][out];
    for (int i = 0; i < x.length; i++)
      for (int o = 0; o < out; o++) {
        y[i][o] = p.get(bias + o);
        for (int k = 0; k < in; k++) y[i][o] += p.get(w + o * in + k) * x[i][k];
      }
    return y;
  }

  private static double[][] add(double[][] a, double[][] b) {
    for (int i = 0; i < a.length; i++)
      for (int k = 0; k < a[i].length; k++) a[i][k] += b[i][k];
    return a;
  }

  private static double[][] norm(FloatArray p, double[][] x, int gamma) {
    int d = SHAPE.hidden();
    double[][] y = new double[x.length][d];
    for (int i = 0; i < x.length; i++) {
      double mean = 0, variance = 0;
      for (double v : x[i]) mean += v / d;
      for (double v : x[i]) variance += (v - mean) * (v - mean) / d;
      for (int k = 0; k < d; k++) y[i][k] = (x[i][k] - mean) / Math.sqrt(variance + SHAPE.eps()) * p.get(gamma + k) + p.get(gamma + d + k);
    }
    return y;
  }

  /** erf by its Taylor series; the arguments here stay small. */
  private static double erf(double x) {
    if (Math.abs(x) > 5) return Math.signum(x);
    double term = x, sum = x;
    for (int n = 1; n < 120; n++) {
      term *= -x * x / n;
      sum += term / (2 * n + 1);
    }
    return 2 / Math.sqrt(Math.PI) * sum;
  }
}
