// Every backward kernel against central finite differences of a double-precision reference of its forward, on the jvm.
package dev.loopjit.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.util.Random;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * micrograd's check, layer by layer: the same function written again in {@code double} (the
 * reference), its gradient by central differences ({@code h = 1e-6}), and the float backward
 * kernel, run on the jvm, compared with it. The float forward is compared with the reference too,
 * so the reference is known to be the function the kernels compute. Shapes are no multiple of the
 * dense kernels' 4×4 tiles, and the loss checks include padding rows.
 */
class GradientCheckTest {
  private static final int B = 5, IN = 6, OUT = 7;
  private static final double H = 1e-6;
  // Float kernels against double math: a few float ulps of values of order 1, summed over a few terms.
  private static final double TOLERANCE = 2e-5;

  /** Central difference of {@code f} with respect to each element of {@code x}, which it restores (the other gradient tests use it too). */
  static double[] numeric(double[] x, ToDoubleFunction<double[]> f) {
    double[] g = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      double keep = x[i];
      x[i] = keep + H;
      double up = f.applyAsDouble(x);
      x[i] = keep - H;
      double down = f.applyAsDouble(x);
      x[i] = keep;
      g[i] = (up - down) / (2 * H);
    }
    return g;
  }

  static void assertClose(String what, double[] expected, FloatArray actual, int actualAt) {
    double scale = 1;
    for (double e : expected) scale = Math.max(scale, Math.abs(e));
    for (int i = 0; i < expected.length; i++) {
      double diff = Math.abs(expected[i] - actual.get(actualAt + i));
      assertTrue(diff <= TOLERANCE * scale, what + "[" + i + "]: expected " + expected[i] + " but the kernel gave " + actual.get(actualAt + i));
    }
  }

  static double[] random(Random r, int n, double lo, double hi) {
    double[] a = new double[n];
    for (int i = 0; i < n; i++) a[i] = (float) (lo + (hi - lo) * r.nextDouble()); // float values, so both sides start equal
    return a;
  }

  static FloatArray floats(double[] a) {
    FloatArray f = new FloatArray(a.length);
    for (int i = 0; i < a.length; i++) f.set(i, (float) a[i]);
    return f;
  }

  static double dot(double[] a, double[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) s += a[i] * b[i];
    return s;
  }

  private static IntArray batch(int rows, int valid) {
    IntArray a = new IntArray(1 + rows);
    a.set(0, valid);
    return a;
  }

  // ---- dense ----

  static double[] denseRef(double[] x, double[] w, double[] b) {
    double[] y = new double[B * OUT];
    for (int r = 0; r < B; r++)
      for (int o = 0; o < OUT; o++) {
        double s = b[o];
        for (int i = 0; i < IN; i++) s += x[r * IN + i] * w[o * IN + i];
        y[r * OUT + o] = s;
      }
    return y;
  }

  @Test
  void dense() {
    Random rnd = new Random(1);
    double[] x = random(rnd, B * IN, -1, 1), w = random(rnd, OUT * IN, -1, 1), b = random(rnd, OUT, -1, 1), dy = random(rnd, B * OUT, -1, 1);
    // params: 3 unused floats, then W, then b, as a model lays out a later layer
    int wAt = 3, bAt = 3 + OUT * IN;
    FloatArray params = new FloatArray(bAt + OUT);
    for (int i = 0; i < w.length; i++) params.set(wAt + i, (float) w[i]);
    for (int i = 0; i < b.length; i++) params.set(bAt + i, (float) b[i]);
    FloatArray y = new FloatArray(B * OUT), dx = new FloatArray(B * IN), grads = new FloatArray(params.getSize());
    DenseKernels.denseForward(floats(x), params, wAt, bAt, y, B, IN, OUT);
    assertClose("y", denseRef(x, w, b), y, 0);

    // L = Σ dy·y, so ∂L/∂y = dy and the backward kernels' outputs are ∂L/∂x, ∂L/∂W, ∂L/∂b.
    DenseKernels.denseBackwardInput(floats(dy), params, wAt, dx, B, IN, OUT);
    DenseKernels.denseBackwardWeights(floats(dy), floats(x), grads, wAt, B, IN, OUT);
    DenseKernels.denseBackwardBias(floats(dy), grads, bAt, B, OUT);
    assertClose("dx", numeric(x, v -> dot(dy, denseRef(v, w, b))), dx, 0);
    assertClose("dW", numeric(w, v -> dot(dy, denseRef(x, v, b))), grads, wAt);
    assertClose("db", numeric(b, v -> dot(dy, denseRef(x, w, v))), grads, bAt);
  }

  // ---- activations ----

  static double activationRef(Activation a, double v) {
    return switch (a) {
      case RELU -> Math.max(v, 0);
      case SIGMOID -> 1 / (1 + Math.exp(-v));
      case TANH -> Math.tanh(v);
      case GELU -> 0.5 * v * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (v + 0.044715 * v * v * v)));
    };
  }

  @Test
  void activations() {
    int n = B * IN;
    for (Activation act : Activation.values()) {
      Random rnd = new Random(2 + act.ordinal());
      double[] x = random(rnd, n, -4, 4), dy = random(rnd, n, -1, 1);
      for (int i = 0; i < n; i++) if (Math.abs(x[i]) < 0.01) x[i] = 0.5; // ReLU has no derivative at 0
      FloatArray fx = floats(x), y = new FloatArray(n), dx = new FloatArray(n);
      switch (act) {
        case RELU -> { ActivationKernels.reluForward(fx, y, n); ActivationKernels.reluBackward(fx, floats(dy), dx, n); }
        case SIGMOID -> { ActivationKernels.sigmoidForward(fx, y, n); ActivationKernels.sigmoidBackward(y, floats(dy), dx, n); }
        case TANH -> { ActivationKernels.tanhForward(fx, y, n); ActivationKernels.tanhBackward(y, floats(dy), dx, n); }
        case GELU -> { ActivationKernels.geluForward(fx, y, n); ActivationKernels.geluBackward(fx, floats(dy), dx, n); }
      }
      double[] ref = new double[n];
      for (int i = 0; i < n; i++) ref[i] = activationRef(act, x[i]);
      assertClose(act + " y", ref, y, 0);
      assertClose(act + " dx", numeric(x, v -> { double s = 0; for (int i = 0; i < n; i++) s += dy[i] * activationRef(act, v[i]); return s; }), dx, 0);
    }
  }

  // ---- losses: the batch's mean loss over its V valid rows ----

  static double softmaxCrossEntropyRef(double[] z, int[] labels, int valid, int classes) {
    double total = 0;
    for (int r = 0; r < valid; r++) {
      double max = Double.NEGATIVE_INFINITY, sum = 0;
      for (int c = 0; c < classes; c++) max = Math.max(max, z[r * classes + c]);
      for (int c = 0; c < classes; c++) sum += Math.exp(z[r * classes + c] - max);
      total += Math.log(sum) - (z[r * classes + labels[r]] - max);
    }
    return total / valid;
  }

  static double bceRef(double[] z, double[] y, int valid, int width) {
    double total = 0;
    for (int r = 0; r < valid; r++)
      for (int t = 0; t < width; t++) {
        double p = 1 / (1 + Math.exp(-z[r * width + t])), target = y[r * width + t];
        total += -(target * Math.log(p) + (1 - target) * Math.log(1 - p)) / width;
      }
    return total / valid;
  }

  static double mseRef(double[] z, double[] y, int valid, int width) {
    double total = 0;
    for (int r = 0; r < valid; r++)
      for (int t = 0; t < width; t++) total += (z[r * width + t] - y[r * width + t]) * (z[r * width + t] - y[r * width + t]) / width;
    return total / valid;
  }

  private static double meanLoss(FloatArray losses, IntArray batch) {
    FloatArray sum = new FloatArray(1);
    LossKernels.lossSum(losses, batch, sum);
    return sum.get(0) / batch.get(0);
  }

  @Test
  void softmaxCrossEntropy() {
    int valid = B - 2, classes = OUT;
    Random rnd = new Random(10);
    double[] z = random(rnd, B * classes, -5, 5);
    int[] labels = new int[B];
    for (int r = 0; r < B; r++) labels[r] = rnd.nextInt(classes);
    IntArray batch = batch(B, valid), fLabels = IntArray.fromArray(labels);
    FloatArray probs = new FloatArray(B * classes), losses = new FloatArray(B), dz = new FloatArray(B * classes);
    LossKernels.softmaxCrossEntropyForward(floats(z), fLabels, batch, probs, losses, B, classes);
    LossKernels.softmaxCrossEntropyBackward(probs, fLabels, batch, dz, B, classes);
    assertEquals(softmaxCrossEntropyRef(z, labels, valid, classes), meanLoss(losses, batch), 1e-5);
    assertClose("dlogits", numeric(z, v -> softmaxCrossEntropyRef(v, labels, valid, classes)), dz, 0);
  }

  @Test
  void bceOnLogits() {
    int valid = B - 1, width = 3;
    Random rnd = new Random(11);
    double[] z = random(rnd, B * width, -6, 6), y = new double[B * width];
    for (int i = 0; i < y.length; i++) y[i] = rnd.nextInt(2);
    IntArray batch = batch(B, valid);
    FloatArray losses = new FloatArray(B), dz = new FloatArray(B * width);
    LossKernels.bceForward(floats(z), floats(y), batch, losses, B, width);
    LossKernels.bceBackward(floats(z), floats(y), batch, dz, B, width);
    assertEquals(bceRef(z, y, valid, width), meanLoss(losses, batch), 1e-5);
    assertClose("dlogits", numeric(z, v -> bceRef(v, y, valid, width)), dz, 0);
  }

  @Test
  void meanSquaredError() {
    int valid = B - 1, width = 3;
    Random rnd = new Random(12);
    double[] z = random(rnd, B * width, -2, 2), y = random(rnd, B * width, -2, 2);
    IntArray batch = batch(B, valid);
    FloatArray losses = new FloatArray(B), dz = new FloatArray(B * width);
    LossKernels.mseForward(floats(z), floats(y), batch, losses, B, width);
    LossKernels.mseBackward(floats(z), floats(y), batch, dz, B, width);
    assertEquals(mseRef(z, y, valid, width), meanLoss(losses, batch), 1e-5);
    assertClose("doutputs", numeric(z, v -> mseRef(v, y, valid, width)), dz, 0);
  }

  @Test
  void tiledAndStripDenseKernelsEqualTheNaiveOnesBitForBit() {
    for (int[] s : new int[][] {{1, 1, 1}, {5, 6, 7}, {8, 8, 8}, {13, 37, 19}, {17, 300, 130}}) {
      int b = s[0], in = s[1], out = s[2];
      Random rnd = new Random(b * 1000 + in);
      FloatArray x = floats(random(rnd, b * in, -1, 1)), p = floats(random(rnd, out * in + out, -1, 1)), dy = floats(random(rnd, b * out, -1, 1));
      FloatArray y1 = new FloatArray(b * out), y2 = new FloatArray(b * out), dx1 = new FloatArray(b * in), dx2 = new FloatArray(b * in);
      FloatArray g1 = new FloatArray(out * in), g2 = new FloatArray(out * in);
      DenseKernels.denseForward(x, p, 0, out * in, y1, b, in, out);
      DenseKernels.denseForwardNaive(x, p, 0, out * in, y2, b, in, out);
      DenseKernels.denseBackwardInput(dy, p, 0, dx1, b, in, out);
      DenseKernels.denseBackwardInputNaive(dy, p, 0, dx2, b, in, out);
      DenseKernels.denseBackwardWeights(dy, x, g1, 0, b, in, out);
      DenseKernels.denseBackwardWeightsNaive(dy, x, g2, 0, b, in, out);
      FloatArray wt = new FloatArray(in * out), y3 = new FloatArray(b * out), dx3 = new FloatArray(b * in), g3 = new FloatArray(out * in);
      DenseKernels.weightsTransposed(p, 0, wt, in, out);
      DenseKernels.denseForwardStrips(x, wt, p, out * in, y3, b, in, out);
      FloatArray y4 = new FloatArray(b * out);
      DenseKernels.denseForwardTransposedNaive(x, wt, p, out * in, y4, b, in, out);
      assertEquals(java.util.Arrays.toString(y2.toArray()), java.util.Arrays.toString(y4.toArray()), "forward over the transposed weights " + b + "×" + in + "→" + out);
      DenseKernels.denseBackwardInputStrips(dy, p, 0, dx3, b, in, out);
      DenseKernels.denseBackwardWeightsStrips(dy, x, g3, 0, b, in, out);
      String shape = b + "×" + in + "→" + out;
      assertEquals(java.util.Arrays.toString(y2.toArray()), java.util.Arrays.toString(y3.toArray()), "strips forward " + shape);
      assertEquals(java.util.Arrays.toString(dx2.toArray()), java.util.Arrays.toString(dx3.toArray()), "strips dx " + shape);
      assertEquals(java.util.Arrays.toString(g2.toArray()), java.util.Arrays.toString(g3.toArray()), "strips dW " + shape);
      assertEquals(java.util.Arrays.toString(y2.toArray()), java.util.Arrays.toString(y1.toArray()), "forward " + shape);
      assertEquals(java.util.Arrays.toString(dx2.toArray()), java.util.Arrays.toString(dx1.toArray()), "dx " + shape);
      assertEquals(java.util.Arrays.toString(g2.toArray()), java.util.Arrays.toString(g1.toArray()), "dW " + shape);
    }
  }
}
