// EncoderClassifier: its step's gradients against central differences of a double-precision model, the same bits on every device, learning.
package dev.loopjit.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.types.FloatArray;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class EncoderClassifierTest {
  private static final EncoderShape SHAPE = new EncoderShape(20, 8, 2, 8, 2, 12, 2, 1e-5f);
  private static final int CLASSES = 3;
  /** Two sequences in a batch of three: the third is padding, all its tokens masked. */
  private static final List<int[]> SEQUENCES = List.of(new int[] {1, 7, 3, 9, 4, 2}, new int[] {1, 15, 2});
  private static final int[] LABELS = {2, 0};

  private static FineTuning settings(int layers) {
    return FineTuning.classes(CLASSES).withLayers(layers).withBatch(3).withMaxTokens(6).withHeadOptimizer(Optimizer.sgd(0.1f))
        .withBlockOptimizer(Optimizer.sgd(0.1f));
  }

  /** The step's mean loss in double: the reference encoder with the trained blocks' and the head's parameters as given. */
  private static double loss(FloatArray params, int tail, double[] blocks, double[] head) {
    EncoderReference encoder = new EncoderReference(SHAPE, i -> i >= tail ? blocks[i - tail] : params.get(i));
    double sum = 0;
    for (int s = 0; s < SEQUENCES.size(); s++) {
      double[] e = encoder.embedding(SEQUENCES.get(s)), z = new double[CLASSES];
      double max = Double.NEGATIVE_INFINITY, total = 0;
      for (int c = 0; c < CLASSES; c++) {
        z[c] = head[CLASSES * SHAPE.hidden() + c];
        for (int k = 0; k < SHAPE.hidden(); k++) z[c] += head[c * SHAPE.hidden() + k] * e[k];
        max = Math.max(max, z[c]);
      }
      for (int c = 0; c < CLASSES; c++) total += Math.exp(z[c] - max);
      sum += Math.log(total) + max - z[LABELS[s]];
    }
    return sum / SEQUENCES.size();
  }

  private static void gradientsEqualCentralDifferences(int layers) {
    FloatArray params = EncoderReference.weights(SHAPE, 70);
    try (EncoderClassifier c = new EncoderClassifier(SHAPE, params, Devices.get("jvm"), settings(layers))) {
      int tail = c.tail();
      double[] blocks = new double[SHAPE.parameters() - tail], head = new double[CLASSES * SHAPE.hidden() + CLASSES];
      for (int i = 0; i < blocks.length; i++) blocks[i] = params.get(tail + i);
      float[] h0 = c.headParameters();
      for (int i = 0; i < head.length; i++) head[i] = h0[i];
      float loss = c.train(SEQUENCES, LABELS);
      assertEquals(loss(params, tail, blocks, head), loss, 1e-5, "the step's loss");
      FloatArray[] grads = c.pullGradients();
      if (layers > 0) check(grads[0], blocks, theta -> loss(params, tail, theta, head), layers + " blocks");
      check(grads[1], head, theta -> loss(params, tail, blocks, theta), "the head");
    }
  }

  /** Each gradient within 1e-3 of the largest of the numeric ones (which must not be tiny) of {@code (L(θ + h) - L(θ - h)) / 2h}. */
  private static void check(FloatArray actual, double[] theta, java.util.function.ToDoubleFunction<double[]> loss, String what) {
    double[] expected = GradientCheckTest.numeric(theta, loss);
    double largest = 0;
    for (double g : expected) largest = Math.max(largest, Math.abs(g));
    assertTrue(largest > 1e-2, what + ": the gradients are all about 0 (" + largest + "), the check would prove nothing");
    for (int k = 0; k < theta.length; k++)
      assertEquals(expected[k], actual.get(k), 1e-3 * largest, what + ", parameter " + k);
  }

  @Test
  void theLastBlocksGradientEqualsCentralDifferences() {
    gradientsEqualCentralDifferences(1);
  }

  @Test
  void everyBlocksGradientEqualsCentralDifferences() {
    gradientsEqualCentralDifferences(2);
  }

  @Test
  void theHeadAloneGetsItsGradient() {
    gradientsEqualCentralDifferences(0);
  }

  /** Three Adam steps: the loss, the head, the trained blocks and the logits the same bits on every device as on the jvm. */
  @Test
  void everyDeviceTrainsTheSameBits() {
    FloatArray params = EncoderReference.weights(SHAPE, 71);
    FineTuning adam = settings(1).withHeadOptimizer(Optimizer.adam(1e-2f)).withBlockOptimizer(Optimizer.adam(1e-3f));
    List<Object> expected = null;
    for (Device d : Devices.all())
      try (EncoderClassifier c = new EncoderClassifier(SHAPE, params, d, adam)) {
        List<Object> got = new ArrayList<>();
        for (int i = 0; i < 3; i++) got.add(c.train(SEQUENCES, LABELS));
        got.add(c.headParameters());
        got.add(c.encoderParameters().toArray());
        got.add(c.logits(SEQUENCES));
        if (expected == null) expected = got;
        else
          for (int i = 0; i < got.size(); i++)
            if (got.get(i) instanceof Float f) assertEquals(expected.get(i), f, d.id() + ": loss of step " + i);
            else if (got.get(i) instanceof float[] a) assertArrayEquals((float[]) expected.get(i), a, 0f, d.id() + ": result " + i);
            else assertArrayEquals((float[][]) expected.get(i), (float[][]) got.get(i), d.id() + ": logits");
      }
  }

  /**
   * The tuned weights written back are the ones the classifier runs: a TransformerEncoder over
   * {@link EncoderClassifier#encoderParameters()} gives embeddings whose logits under the head are
   * the classifier's; and logits asked for before training follow the training after it.
   */
  @Test
  void theTunedEncoderIsTheOneThatClassifies() {
    FloatArray params = EncoderReference.weights(SHAPE, 72);
    Device jvm = Devices.get("jvm");
    try (EncoderClassifier c = new EncoderClassifier(SHAPE, params, jvm, settings(1))) {
      float[][] before = c.logits(SEQUENCES);
      for (int i = 0; i < 5; i++) c.train(SEQUENCES, LABELS);
      float[][] after = c.logits(SEQUENCES);
      float[] head = c.headParameters();
      int d = SHAPE.hidden();
      try (TransformerEncoder encoder = new TransformerEncoder(SHAPE, c.encoderParameters(), jvm, 3, 6)) {
        float[][] e = encoder.encode(SEQUENCES);
        for (int s = 0; s < SEQUENCES.size(); s++)
          for (int k = 0; k < CLASSES; k++) {
            float z = head[CLASSES * d + k];
            for (int i = 0; i < d; i++) z += head[k * d + i] * e[s][i];
            assertEquals(z, after[s][k], 1e-5f, "sequence " + s + ", class " + k);
          }
      }
      assertTrue(meanLoss(after) < meanLoss(before) - 0.05, "five steps lower the loss: " + meanLoss(before) + " → " + meanLoss(after));
    }
  }

  private static double meanLoss(float[][] logits) {
    double sum = 0;
    for (int s = 0; s < logits.length; s++) {
      double total = 0;
      for (float z : logits[s]) total += Math.exp(z);
      sum += Math.log(total) - logits[s][LABELS[s]];
    }
    return sum / logits.length;
  }

  /**
   * A task the head alone cannot learn and the trained blocks can: whether token 5 comes before
   * token 6 in the sequence (both always occur, among random others), 96 sequences of a random
   * 2-block encoder. The head on the frozen encoder stays at chance; training both blocks learns it.
   */
  @Test
  void fineTuningLearnsWordOrderWhereTheHeadAloneCannot() {
    Random random = new Random(3);
    List<int[]> sequences = new ArrayList<>();
    int[] labels = new int[96];
    for (int s = 0; s < labels.length; s++) {
      int[] ids = new int[6];
      ids[0] = 1;
      ids[5] = 2;
      for (int i = 1; i < 5; i++) ids[i] = 7 + random.nextInt(10);
      int first = 1 + random.nextInt(4), second = 1 + random.nextInt(4);
      while (second == first) second = 1 + random.nextInt(4);
      ids[first] = 5;
      ids[second] = 6;
      labels[s] = first < second ? 1 : 0;
      sequences.add(ids);
    }
    FloatArray params = EncoderReference.weights(SHAPE, 73);
    FineTuning tune = FineTuning.classes(2).withBatch(16).withMaxTokens(6).withBlockOptimizer(Optimizer.adam(3e-3f));
    float[] headAlone = train(params, tune.withLayers(0), sequences, labels), blocks = train(params, tune.withLayers(2), sequences, labels);
    assertTrue(headAlone[2] <= 64, "the head alone stays near chance: " + headAlone[2] + " of 96 right");
    assertTrue(blocks[1] < blocks[0] / 4, "with the blocks the loss falls: " + blocks[0] + " → " + blocks[1]);
    assertTrue(blocks[2] >= 90, "with the blocks " + blocks[2] + " of 96 right");
  }

  /** 60 epochs on {@code jvm-mt} (the {@code jvm} where not built): the first and last epochs' mean loss and how many sequences it then gets right. */
  private static float[] train(FloatArray params, FineTuning tune, List<int[]> sequences, int[] labels) {
    Device host = Devices.all().stream().filter(d -> d.id().equals("jvm-mt")).findFirst().orElse(Devices.get("jvm"));
    try (EncoderClassifier c = new EncoderClassifier(SHAPE, params, host, tune)) {
      float first = 0, last = 0;
      for (int epoch = 0; epoch < 60; epoch++) {
        float sum = 0;
        for (int from = 0; from < labels.length; from += 16)
          sum += c.train(sequences.subList(from, from + 16), Arrays.copyOfRange(labels, from, from + 16));
        if (epoch == 0) first = sum / 6;
        last = sum / 6;
      }
      int[] predicted = c.predict(sequences);
      int right = 0;
      for (int s = 0; s < labels.length; s++) right += predicted[s] == labels[s] ? 1 : 0;
      return new float[] {first, last, right};
    }
  }

  @Test
  void badInputIsRefusedBeforeAnythingRuns() {
    FloatArray params = EncoderReference.weights(SHAPE, 74);
    Device jvm = Devices.get("jvm");
    assertEquals("cannot train the last 3 blocks of an encoder of 2", assertThrows(IllegalArgumentException.class,
        () -> new EncoderClassifier(SHAPE, params, jvm, settings(3))).getMessage());
    assertEquals("maxTokens 9 is more than the 8 positions the encoder knows", assertThrows(IllegalArgumentException.class,
        () -> new EncoderClassifier(SHAPE, params, jvm, settings(1).withMaxTokens(9))).getMessage());
    assertThrows(IllegalArgumentException.class, () -> FineTuning.classes(1));
    try (EncoderClassifier c = new EncoderClassifier(SHAPE, params, jvm, settings(1))) {
      assertEquals("label 1 is 3; the classes are 0 to 2", assertThrows(IllegalArgumentException.class,
          () -> c.train(SEQUENCES, new int[] {0, 3})).getMessage());
      assertEquals("2 sequences but 1 labels", assertThrows(IllegalArgumentException.class, () -> c.train(SEQUENCES, new int[] {0})).getMessage());
      assertEquals("a training step takes 1 to 3 sequences, not 4", assertThrows(IllegalArgumentException.class,
          () -> c.train(List.of(new int[] {1}, new int[] {1}, new int[] {1}, new int[] {1}), new int[4])).getMessage());
      assertEquals("sequence 1 has 7 tokens; the encoder takes 1 to 6", assertThrows(IllegalArgumentException.class,
          () -> c.logits(List.of(new int[] {1}, new int[7]))).getMessage());
      assertEquals("sequence 0, token 1: id 20 is outside the vocabulary [0, 20)", assertThrows(IllegalArgumentException.class,
          () -> c.train(List.of(new int[] {1, 20}), new int[] {0})).getMessage());
      assertEquals(null, c.lastProfile(), "nothing ran");
    }
  }
}
