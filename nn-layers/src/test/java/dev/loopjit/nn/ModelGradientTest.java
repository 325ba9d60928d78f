// The chain rule through a whole training graph: each layer's wiring and every loss against finite differences of a double reference.
package dev.loopjit.nn;

import static dev.loopjit.nn.Layer.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Runs a {@link TrainingStep} (SGD with rate 0, so the parameters stay put) on the jvm device and
 * compares the gradients it computed with central differences of the model's mean loss, computed
 * again in double precision by {@link Reference}. This checks what the per-kernel checks cannot:
 * which buffers each layer's wiring hands its kernels, in which order, the buffers flatten shares,
 * the batch statistics over the rows in use, and the batch gathering.
 */
class ModelGradientTest {
  private static final double H = 1e-6;

  /** The mean loss over {@code rows} of the dataset, in double. */
  private static double lossRef(Sequential m, double[] params, Dataset data, int[] rows, Loss loss) {
    int f = data.width(), out = m.outputs(), v = rows.length;
    double[][] x = new double[v][f];
    for (int r = 0; r < v; r++) for (int i = 0; i < f; i++) x[r][i] = data.features().get(rows[r] * f + i);
    double[][] y = Reference.forward(m, params, x, 0);
    double[] z = new double[v * out], targets = new double[v * out];
    int[] labels = new int[v];
    for (int r = 0; r < v; r++) {
      System.arraycopy(y[r], 0, z, r * out, out);
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
    check(m, data, loss, Devices.jvm(), Device.Kind.JVM);
  }

  /** On {@code device}, with the kernels chosen for a device of kind {@code kernels}. */
  private static void check(Sequential m, Dataset data, Loss loss, Device device, Device.Kind kernels) {
    int[] rows = {2, 7, 1};   // three rows in a batch of four: the padding row must not count
    double[] params = new double[m.parameterCount()];
    for (int i = 0; i < params.length; i++) params[i] = m.parameters().get(i);
    FloatArray grads;
    float stepLoss;
    try (TrainingStep step = new TrainingStep(m.copy(), data, 4, loss, Optimizer.sgd(0f), device, 0, kernels)) {
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
          loss + " " + m + " on " + device.id() + ": parameter " + i + ": finite differences give " + expected + ", the graph " + grads.get(i));
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
    Sequential m = Sequential.of(6, dense(5), tanh(), dense(5), relu(), dense(4), sigmoid(), dense(4), gelu(), dense(3)).initialize(3);
    check(m, data(6, Loss.SOFTMAX_CROSS_ENTROPY, 3), Loss.SOFTMAX_CROSS_ENTROPY);
  }

  @Test
  void binaryCrossEntropyOnLogits() {
    Sequential m = Sequential.of(6, dense(5), relu(), dense(2)).initialize(4);
    check(m, data(6, Loss.BCE_WITH_LOGITS, 2), Loss.BCE_WITH_LOGITS);
  }

  @Test
  void meanSquaredErrorWithAnActivationFirst() {
    Sequential m = Sequential.of(6, tanh(), dense(5), gelu(), dense(2)).initialize(5);
    check(m, data(6, Loss.MSE, 2), Loss.MSE);
  }

  /** Every image layer, with padding, a stride, overlapping pools and a batch norm on images. */
  static Sequential convolutional() {
    return Sequential.of(shape(2, 7, 7), conv(3, 3, 1, 1), batchNorm(), relu(), maxPool(3, 2), conv(4, 2, 2, 1).withoutBias(), tanh(),
        avgPool(2, 1), flatten(), dropout(0.3f), dense(6), layerNorm(), gelu(), batchNorm(), dense(3)).initialize(6);
  }

  @Test
  void aConvolutionalNetworkWithEveryLayer() {
    check(convolutional(), data(2 * 7 * 7, Loss.SOFTMAX_CROSS_ENTROPY, 3), Loss.SOFTMAX_CROSS_ENTROPY);
  }

  @Test
  void theGpuKernelsToo() {
    // the jvm chooses the strip kernels; the direct convolution kernels GPUs get must wire up as well
    check(convolutional(), data(2 * 7 * 7, Loss.SOFTMAX_CROSS_ENTROPY, 3), Loss.SOFTMAX_CROSS_ENTROPY, Devices.jvm(), Device.Kind.GPU);
  }

  @Test
  void aConvolutionalNetworkOnEveryDevice() {
    KernelCheck.checkRequiredDevices();
    for (Device d : Devices.all())
      if (!d.backend().equals("jvm")) check(convolutional(), data(2 * 7 * 7, Loss.SOFTMAX_CROSS_ENTROPY, 3), Loss.SOFTMAX_CROSS_ENTROPY, d, d.kind());
  }
}
