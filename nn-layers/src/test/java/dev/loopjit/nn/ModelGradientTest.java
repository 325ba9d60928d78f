// The chain rule through a whole training graph: Sequential's wiring of every layer and loss against finite differences.
package dev.loopjit.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.Devices;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Runs a {@link TrainingStep} (SGD with rate 0, so the parameters stay put) on the jvm device and
 * compares the gradients it computed with central differences of the model's mean loss, written
 * again in double precision over the same layers. This checks what the per-kernel checks cannot:
 * which buffers Sequential hands each backward kernel, in which order, and the batch gathering.
 */
class ModelGradientTest {
  private static final double H = 1e-6;

  private static double[] forwardRef(Sequential m, double[] params, double[] x) {
    double[] a = x;
    for (int k = 0; k < m.layers().size(); k++) {
      int in = m.width(k), out = m.width(k + 1);
      double[] next = new double[out];
      switch (m.layers().get(k)) {
        case Layer.Dense d -> {
          for (int o = 0; o < out; o++) {
            double s = params[m.biasOffset(k) + o];
            for (int i = 0; i < in; i++) s += a[i] * params[m.weightOffset(k) + o * in + i];
            next[o] = s;
          }
        }
        case Layer.Activation act -> { for (int i = 0; i < in; i++) next[i] = GradientCheckTest.activationRef(act, a[i]); }
      }
      a = next;
    }
    return a;
  }

  /** The mean loss over {@code rows} of the dataset, in double. */
  private static double lossRef(Sequential m, double[] params, Dataset data, int[] rows, Loss loss) {
    int f = data.width(), out = m.outputs(), v = rows.length;
    double[] z = new double[v * out], targets = new double[v * out];
    int[] labels = new int[v];
    for (int r = 0; r < v; r++) {
      double[] x = new double[f];
      for (int i = 0; i < f; i++) x[i] = data.features().get(rows[r] * f + i);
      System.arraycopy(forwardRef(m, params, x), 0, z, r * out, out);
      if (data.labels() != null) labels[r] = data.labels().get(rows[r]);
      else for (int t = 0; t < out; t++) targets[r * out + t] = data.targets().get(rows[r] * out + t);
    }
    return switch (loss) {
      case SOFTMAX_CROSS_ENTROPY -> GradientCheckTest.softmaxCrossEntropyRef(z, labels, v, out);
      case BCE_WITH_LOGITS -> GradientCheckTest.bceRef(z, targets, v, out);
      case MSE -> GradientCheckTest.mseRef(z, targets, v, out);
    };
  }

  private static void check(Sequential m, Dataset data, Loss loss) {
    int[] rows = {2, 7, 1};   // three rows in a batch of four: the padding row must not count
    double[] params = new double[m.parameterCount()];
    for (int i = 0; i < params.length; i++) params[i] = m.parameters().get(i);
    FloatArray grads;
    float stepLoss;
    try (TrainingStep step = m.trainingStep(data, 4, loss, Optimizer.sgd(0f), Devices.jvm())) {
      stepLoss = step.run(rows, 0, rows.length);
      grads = step.pullGradients();
    }
    assertEquals(lossRef(m, params, data, rows, loss), stepLoss, 1e-5, loss + ": the step's loss");
    double worst = 0;
    for (int i = 0; i < params.length; i++) {
      double keep = params[i];
      params[i] = keep + H;
      double up = lossRef(m, params, data, rows, loss);
      params[i] = keep - H;
      double down = lossRef(m, params, data, rows, loss);
      params[i] = keep;
      double expected = (up - down) / (2 * H);
      worst = Math.max(worst, Math.abs(expected - grads.get(i)));
      assertTrue(Math.abs(expected - grads.get(i)) <= 5e-5 * Math.max(1, Math.abs(expected)),
          loss + " " + m + ": parameter " + i + ": finite differences give " + expected + ", the graph " + grads.get(i));
    }
    assertTrue(worst > 0 || params.length == 0);
  }

  private static Dataset data(int width, Loss loss, int outputs) {
    Random r = new Random(5);
    FloatArray x = new FloatArray(9 * width);
    for (int i = 0; i < x.getSize(); i++) x.set(i, (float) r.nextGaussian());
    if (loss.needsLabels()) {
      IntArray y = new IntArray(9);
      for (int i = 0; i < 9; i++) y.set(i, r.nextInt(outputs));
      return Dataset.labelled("random", x, width, y, outputs);
    }
    FloatArray y = new FloatArray(9 * outputs);
    for (int i = 0; i < y.getSize(); i++) y.set(i, loss == Loss.MSE ? (float) r.nextGaussian() : r.nextInt(2));
    return Dataset.withTargets("random", x, width, y, outputs);
  }

  @Test
  void everyActivationUnderSoftmaxCrossEntropy() {
    Sequential m = Sequential.of(6, Layer.dense(5), Layer.tanh(), Layer.dense(5), Layer.relu(), Layer.dense(4), Layer.sigmoid(),
        Layer.dense(4), Layer.gelu(), Layer.dense(3)).initialize(3);
    check(m, data(6, Loss.SOFTMAX_CROSS_ENTROPY, 3), Loss.SOFTMAX_CROSS_ENTROPY);
  }

  @Test
  void binaryCrossEntropyOnLogits() {
    Sequential m = Sequential.of(6, Layer.dense(5), Layer.relu(), Layer.dense(2)).initialize(4);
    check(m, data(6, Loss.BCE_WITH_LOGITS, 2), Loss.BCE_WITH_LOGITS);
  }

  @Test
  void meanSquaredErrorWithAnActivationFirst() {
    Sequential m = Sequential.of(6, Layer.tanh(), Layer.dense(5), Layer.gelu(), Layer.dense(2)).initialize(5);
    check(m, data(6, Loss.MSE, 2), Loss.MSE);
  }
}
