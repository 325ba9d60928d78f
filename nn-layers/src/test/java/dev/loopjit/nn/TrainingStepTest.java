// Whole training steps and inference on the jvm and every device: the same losses and parameters, determinism, a falling toy loss.
package dev.loopjit.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TrainingStepTest {
  private record Run(float[] losses, float[] params, Inference.Evaluation eval, float[] outputs) {}

  /** {@code steps} steps of batch 24 over a fixed order (the last one short), then an evaluation and some outputs. */
  private static Run train(Sequential fresh, Dataset train, Dataset test, Loss loss, Optimizer opt, Device device, int steps) {
    Sequential m = fresh.copy();
    int[] order = new int[train.size()];
    Random r = new Random(9);
    for (int i = 0; i < order.length; i++) order[i] = r.nextInt(train.size());
    float[] losses = new float[steps];
    try (TrainingStep step = m.trainingStep(train, 24, loss, opt, device); Inference inf = m.inference(test, 50, loss, device)) {
      for (int s = 0; s < steps; s++) losses[s] = step.run(order, s * 24, s == steps - 1 ? 17 : 24);
      step.pullParameters();
      return new Run(losses, m.parameters().toArray(), inf.evaluate(), inf.outputs(3, 7));
    }
  }

  private static List<Device> devices() {
    KernelCheck.checkRequiredDevices();
    return Devices.all().stream().filter(d -> !d.backend().equals("jvm")).toList();
  }

  private static void assertNear(String what, float[] expected, float[] actual, double relative, double absolute) {
    assertEquals(expected.length, actual.length, what + ": length");
    for (int i = 0; i < expected.length; i++) {
      double diff = Math.abs(expected[i] - actual[i]);
      assertTrue(diff <= absolute || diff <= relative * Math.abs(expected[i]),
          what + "[" + i + "]: jvm " + expected[i] + ", device " + actual[i]);
    }
  }

  static Dataset labelled(int rows, int width, int classes, long seed) {
    Random r = new Random(seed);
    FloatArray x = new FloatArray(rows * width);
    IntArray y = new IntArray(rows);
    for (int i = 0; i < rows; i++) {
      y.set(i, r.nextInt(classes));
      for (int j = 0; j < width; j++) x.set(i * width + j, (float) r.nextGaussian() + (j % classes == y.get(i) ? 1f : 0f));
    }
    return Dataset.labelled("blobs", x, width, y, classes);
  }

  @Test
  void toyStepsMatchTheJvmOnEveryDevice() {
    Dataset[] tt = ToyProblem.trainAndTest(1);
    Sequential m = ToyProblem.model().initialize(2);
    for (Optimizer opt : List.<Optimizer>of(Optimizer.sgd(0.01f), Optimizer.momentum(0.01f, 0.9f).withWeightDecay(1e-3f),
        Optimizer.adam(1e-2f).withWeightDecay(1e-2f))) {
      Run jvm = train(m, tt[0], tt[1], Loss.BCE_WITH_LOGITS, opt, Devices.jvm(), 20);
      for (Device d : devices()) {
        Run dev = train(m, tt[0], tt[1], Loss.BCE_WITH_LOGITS, opt, d, 20);
        String what = opt + " on " + d.id();
        // exp and log1p in BCE differ by an ulp between devices; after 20 steps that is ~1e-6 relative
        assertNear(what + " losses", jvm.losses(), dev.losses(), 1e-4, 1e-6);
        assertNear(what + " parameters", jvm.params(), dev.params(), 1e-3, 1e-5);
        assertNear(what + " outputs", jvm.outputs(), dev.outputs(), 1e-3, 1e-5);
        assertEquals(jvm.eval().accuracy(), dev.eval().accuracy(), 0.011, what + " accuracy");
        assertEquals(jvm.eval().loss(), dev.eval().loss(), 1e-4, what + " test loss");
      }
    }
  }

  @Test
  void softmaxModelWithEveryActivationMatchesTheJvm() {
    Dataset train = labelled(300, 12, 5, 3), test = labelled(120, 12, 5, 4);
    Sequential m = Sequential.of(12, Layer.dense(16), Layer.gelu(), Layer.dense(16), Layer.tanh(), Layer.dense(12), Layer.sigmoid(),
        Layer.dense(10), Layer.relu(), Layer.dense(5)).initialize(5);
    Run jvm = train(m, train, test, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(3e-3f), Devices.jvm(), 12);
    for (Device d : devices()) {
      Run dev = train(m, train, test, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(3e-3f), d, 12);
      assertNear("losses on " + d.id(), jvm.losses(), dev.losses(), 1e-4, 1e-6);
      assertNear("parameters on " + d.id(), jvm.params(), dev.params(), 1e-3, 1e-5);
      assertEquals(jvm.eval().accuracy(), dev.eval().accuracy(), 0.011, "accuracy on " + d.id());
    }
    assertTrue(jvm.losses()[11] < jvm.losses()[0], "12 Adam steps lower the loss: " + java.util.Arrays.toString(jvm.losses()));
  }

  @Test
  void trainingIsDeterministicForASeedOnEachDevice() {
    Dataset[] tt = ToyProblem.trainAndTest(3);
    List<Device> all = new ArrayList<>(List.of(Devices.jvm()));
    all.addAll(devices());
    for (Device d : all) {
      float[][] params = new float[2][];
      List<List<Trainer.Epoch>> logs = new ArrayList<>();
      for (int run = 0; run < 2; run++) {
        Sequential m = ToyProblem.model().initialize(11);
        logs.add(new Trainer(m, Loss.BCE_WITH_LOGITS, Optimizer.adam(1e-2f), d).epochs(3).batch(32).seed(11).out(null).fit(tt[0], tt[1]));
        params[run] = m.parameters().toArray();
      }
      assertArrayEquals(params[0], params[1], "two runs with one seed on " + d.id());
      for (int e = 0; e < 3; e++) assertEquals(logs.get(0).get(e).trainLoss(), logs.get(1).get(e).trainLoss(), 0.0, d.id());
    }
  }

  @Test
  void theToyLossFallsOnEveryDevice() {
    Dataset[] tt = ToyProblem.trainAndTest(42);
    List<Device> all = new ArrayList<>(List.of(Devices.jvm()));
    all.addAll(devices());
    for (Device d : all) {
      // the seeds' set-up: 20 → 50 → 1, BCE, SGD lr 0.01, batch 32
      Sequential m = ToyProblem.model().initialize(42);
      List<Trainer.Epoch> log = new Trainer(m, Loss.BCE_WITH_LOGITS, Optimizer.sgd(0.01f), d).epochs(20).batch(32).seed(42).out(null)
          .fit(tt[0], tt[1]);
      for (int e = 1; e < log.size(); e++)
        assertTrue(log.get(e).trainLoss() < log.get(e - 1).trainLoss(), d.id() + ": loss rose at epoch " + (e + 1) + ": " + log);
      assertTrue(log.getLast().trainLoss() < 0.6 * log.getFirst().trainLoss(), d.id() + ": " + log);
      assertTrue(log.getLast().test().accuracy() >= 0.8, d.id() + ": test accuracy " + log.getLast().test().accuracy());
    }
  }

  /** Images of 1×10×10 whose class (of 4) is where a bright square sits, with noise. */
  private static Dataset squares(int rows, long seed) {
    Random r = new Random(seed);
    FloatArray x = new FloatArray(rows * 100);
    IntArray y = new IntArray(rows);
    for (int i = 0; i < rows; i++) {
      int c = r.nextInt(4), top = c / 2 * 5 + r.nextInt(2), left = c % 2 * 5 + r.nextInt(2);
      y.set(i, c);
      for (int p = 0; p < 100; p++) x.set(i * 100 + p, (float) (0.3 * r.nextGaussian()));
      for (int dy = 0; dy < 3; dy++) for (int dx = 0; dx < 3; dx++) x.set(i * 100 + (top + dy) * 10 + left + dx, 1f + (float) (0.3 * r.nextGaussian()));
    }
    return Dataset.labelled("squares", x, 100, y, 4);
  }

  /** Its second convolution has 8·3·3 = 72 columns: on CPU devices it runs the compiler-coarsened products (Conv2D.ROW_PRODUCT_COLUMNS). */
  private static Sequential smallCnn() {
    return Sequential.of(Layer.shape(1, 10, 10), Layer.conv(8, 3, 1, 1), Layer.batchNorm(), Layer.relu(), Layer.maxPool(2), Layer.conv(8, 3),
        Layer.relu(), Layer.avgPool(2, 1), Layer.flatten(), Layer.dropout(0.2f), Layer.dense(12), Layer.layerNorm(), Layer.relu(), Layer.dense(4))
        .initialize(7);
  }

  @Test
  void aConvolutionalNetworkMatchesTheJvmOnEveryDevice() {
    Dataset train = squares(100, 1), test = squares(50, 2);
    Sequential m = smallCnn();
    Run jvm = train(m, train, test, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(3e-3f), Devices.jvm(), 4);
    for (Device d : devices()) {
      Run dev = train(m, train, test, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(3e-3f), d, 4);
      // the same kernels sum in the same order; only exp and log in the loss differ by an ulp between devices
      assertNear("losses on " + d.id(), jvm.losses(), dev.losses(), 1e-4, 1e-6);
      assertNear("parameters on " + d.id(), jvm.params(), dev.params(), 1e-3, 1e-5);
      assertNear("outputs on " + d.id(), jvm.outputs(), dev.outputs(), 1e-3, 1e-5);
      assertEquals(jvm.eval().accuracy(), dev.eval().accuracy(), 0.011, "accuracy on " + d.id());
    }
  }

  @Test
  void aConvolutionalNetworkLearns() {
    // on the jvm; the test above shows every device taking the same steps
    Sequential m = smallCnn();
    List<Trainer.Epoch> log = new Trainer(m, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(3e-3f), Devices.jvm()).epochs(3).batch(32).seed(5)
        .out(null).fit(squares(400, 3), squares(200, 4));
    assertTrue(log.getLast().test().accuracy() >= 0.8, log.toString());
    float[] state = m.state().toArray();
    assertTrue(state[0] != 0f || state[6] != 1f, "batch norm's running statistics came back from the device");
  }

  @Test
  void dropoutMasksAreTheSameForASeedOnEachDevice() {
    Dataset train = squares(32, 3);
    int[] order = new int[32];
    for (int i = 0; i < 32; i++) order[i] = (i * 13) % 32;
    List<Device> all = new ArrayList<>(List.of(Devices.jvm()));
    all.addAll(devices());
    for (Device d : all) {
      float[][] params = new float[3][];
      for (int run = 0; run < 3; run++) {
        Sequential m = smallCnn();
        try (TrainingStep step = m.trainingStep(train, 16, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(3e-3f), d, run < 2 ? 5 : 6)) {
          for (int s = 0; s < 2; s++) step.run(order, 16 * s, 16);
          step.pullParameters();
        }
        params[run] = m.parameters().toArray();
      }
      assertArrayEquals(params[0], params[1], "two runs with one seed on " + d.id());
      assertTrue(!java.util.Arrays.equals(params[0], params[2]), "another seed draws other masks on " + d.id());
    }
  }

  @Test
  void predictGivesTheInferenceOutputs() {
    Dataset test = squares(40, 6);
    Sequential m = smallCnn();
    FloatArray images = new FloatArray(5 * 100);
    java.lang.foreign.MemorySegment.copy(test.features().getSegment(), 3 * 100 * 4, images.getSegment(), 0, 5 * 100 * 4);
    List<Device> all = new ArrayList<>(List.of(Devices.jvm()));
    all.addAll(devices());
    for (Device d : all) {
      float[] expected;
      try (Inference inf = m.inference(test, 10, Loss.SOFTMAX_CROSS_ENTROPY, d)) {
        expected = inf.outputs(3, 5);
      }
      Predictions p = m.predict(images, d);
      assertEquals(5, p.rows());
      assertArrayEquals(expected, p.scores(), d.id());
      for (int r = 0; r < 5; r++) {
        double[] prob = p.probabilities(r);
        assertEquals(1.0, java.util.Arrays.stream(prob).sum(), 1e-9);
        for (double q : prob) assertTrue(q <= prob[p.label(r)]);
      }
    }
    assertThrows(IllegalArgumentException.class, () -> m.predict(new FloatArray(150), Devices.jvm()));
  }

  @Test
  void theLearningRateScaleOfASchedule() {
    Dataset[] tt = ToyProblem.trainAndTest(1);
    int[] order = new int[64];
    for (int i = 0; i < 64; i++) order[i] = i;
    for (Optimizer opt : List.<Optimizer>of(Optimizer.sgd(0.1f), Optimizer.momentum(0.1f, 0.9f), Optimizer.adam(0.01f).withWeightDecay(0.1f))) {
      Sequential m = ToyProblem.model().initialize(3);
      float[] before = m.parameters().toArray();
      try (TrainingStep step = m.trainingStep(tt[0], 32, Loss.BCE_WITH_LOGITS, opt, Devices.jvm())) {
        step.learningRateScale(0f).run(order, 0, 32);
        step.pullParameters();
        assertArrayEquals(before, m.parameters().toArray(), opt + ": a scale of 0 leaves the parameters");
        step.learningRateScale(1f).run(order, 32, 32);
        step.pullParameters();
        assertTrue(!java.util.Arrays.equals(before, m.parameters().toArray()), opt + ": a scale of 1 trains");
        assertThrows(IllegalArgumentException.class, () -> step.learningRateScale(Float.NaN));
      }
    }
    List<Trainer.Epoch> log = new Trainer(ToyProblem.model().initialize(3), Loss.BCE_WITH_LOGITS, Optimizer.sgd(0.01f), Devices.jvm()).epochs(3)
        .learningRateDecay(0.5f).out(null).fit(tt[0], null);
    assertEquals(0.25, log.get(2).learningRateScale(), 0.0);
    assertTrue(log.get(2).line(3).contains("lr × 0.250"), log.get(2).line(3));
  }

  @Test
  void badInputFailsWithAMessageBeforeAnythingRuns() {
    Dataset[] tt = ToyProblem.trainAndTest(1);
    Sequential wide = Sequential.of(21, Layer.dense(1)), twoOutputs = Sequential.of(20, Layer.dense(2));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> wide.trainingStep(tt[0], 8, Loss.BCE_WITH_LOGITS, Optimizer.sgd(0.1f), Devices.jvm()))
        .getMessage().contains("takes 21 features"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> twoOutputs.inference(tt[1], 8, Loss.MSE, Devices.jvm()))
        .getMessage().contains("2 outputs"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> ToyProblem.model().trainingStep(tt[0], 8, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.sgd(0.1f), Devices.jvm())).getMessage().contains("labels"));
    Sequential m = ToyProblem.model().initialize(1);
    float before = m.parameters().get(0);
    try (TrainingStep step = m.trainingStep(tt[0], 8, Loss.BCE_WITH_LOGITS, Optimizer.sgd(0.1f), Devices.jvm())) {
      assertThrows(IndexOutOfBoundsException.class, () -> step.run(new int[] {0, 800}, 0, 2));
      assertThrows(IllegalArgumentException.class, () -> step.run(new int[16], 0, 9));
      step.pullParameters();
    }
    assertEquals(before, m.parameters().get(0), "no step ran");
  }
}
