// A BERT encoder's forward pass in double, written from its definition: the reference the encoder's and the classifier's tests compare with.
package dev.loopjit.nn;

import dev.loopjit.testing.Inputs;
import dev.loopjit.types.FloatArray;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntToDoubleFunction;

/** Embeddings, LayerNorm, then per layer attention + residual + norm and a GELU MLP + residual + norm; mean pooling, L2 normalisation. */
final class EncoderReference {
  private final EncoderShape shape;
  private final IntToDoubleFunction p;

  /** @param p the parameter at each index of {@link EncoderShape}'s layout */
  EncoderReference(EncoderShape shape, IntToDoubleFunction p) {
    this.shape = shape;
    this.p = p;
  }

  /** Random weights in ±0.5, LayerNorm γ near 1 (so that the norms do not shrink the signal to nothing). */
  static FloatArray weights(EncoderShape shape, long seed) {
    FloatArray w = new Inputs(seed).floatArray(shape.parameters(), -0.5f, 0.5f);
    List<Integer> norms = new ArrayList<>(List.of(shape.embeddingNorm()));
    for (int l = 0; l < shape.layers(); l++) norms.addAll(List.of(shape.block(l).attentionNorm(), shape.block(l).outputNorm()));
    for (int g : norms)
      for (int i = 0; i < shape.hidden(); i++) w.set(g + i, 1f + w.get(g + i) / 5);
    return w;
  }

  /** The sentence embedding of one sequence of token ids (all of type 0): D numbers of length 1. */
  double[] embedding(int[] ids) {
    int t = ids.length, d = shape.hidden(), h = shape.heads(), e = shape.headSize(), f = shape.intermediate();
    double[][] x = new double[t][d];
    for (int i = 0; i < t; i++)
      for (int k = 0; k < d; k++)
        x[i][k] = p.applyAsDouble(shape.word() + ids[i] * d + k) + p.applyAsDouble(shape.type() + k) + p.applyAsDouble(shape.position() + i * d + k);
    x = norm(x, shape.embeddingNorm());
    for (int l = 0; l < shape.layers(); l++) {
      EncoderShape.Block b = shape.block(l);
      double[][] qkv = linear(x, b.qkv(), b.qkvBias(), d, 3 * d), context = new double[t][d];
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
      x = norm(add(linear(context, b.output(), b.outputBias(), d, d), x), b.attentionNorm());
      double[][] up = linear(x, b.up(), b.upBias(), d, f);
      for (double[] row : up)
        for (int k = 0; k < f; k++) row[k] = row[k] * (erf(row[k] / Math.sqrt(2)) + 1) / 2;
      x = norm(add(linear(up, b.down(), b.downBias(), f, d), x), b.outputNorm());
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

  private double[][] linear(double[][] x, int w, int bias, int in, int out) {
    double[][] y = new double[x.length][out];
    for (int i = 0; i < x.length; i++)
      for (int o = 0; o < out; o++) {
        y[i][o] = p.applyAsDouble(bias + o);
        for (int k = 0; k < in; k++) y[i][o] += p.applyAsDouble(w + o * in + k) * x[i][k];
      }
    return y;
  }

  private static double[][] add(double[][] a, double[][] b) {
    for (int i = 0; i < a.length; i++)
      for (int k = 0; k < a[i].length; k++) a[i][k] += b[i][k];
    return a;
  }

  private double[][] norm(double[][] x, int gamma) {
    int d = shape.hidden();
    double[][] y = new double[x.length][d];
    for (int i = 0; i < x.length; i++) {
      double mean = 0, variance = 0;
      for (double v : x[i]) mean += v / d;
      for (double v : x[i]) variance += (v - mean) * (v - mean) / d;
      for (int k = 0; k < d; k++)
        y[i][k] = (x[i][k] - mean) / Math.sqrt(variance + shape.eps()) * p.applyAsDouble(gamma + k) + p.applyAsDouble(gamma + d + k);
    }
    return y;
  }

  /** erf by its Taylor series; the arguments here stay small. */
  static double erf(double x) {
    if (Math.abs(x) > 5) return Math.signum(x);
    double term = x, sum = x;
    for (int n = 1; n < 120; n++) {
      term *= -x * x / n;
      sum += term / (2 * n + 1);
    }
    return 2 / Math.sqrt(Math.PI) * sum;
  }
}
