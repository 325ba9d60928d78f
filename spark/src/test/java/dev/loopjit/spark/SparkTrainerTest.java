// Data-parallel training on Spark local[2]: gradient averaging equals one process's batch, retries change nothing, bad input is named.
package dev.loopjit.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.nn.Dataset;
import dev.loopjit.nn.FashionMnist;
import dev.loopjit.nn.Layer;
import dev.loopjit.nn.Loss;
import dev.loopjit.nn.Optimizer;
import dev.loopjit.nn.Sequential;
import dev.loopjit.nn.Trainer;
import dev.loopjit.nn.TrainingStep;
import dev.loopjit.nn.Weights;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class SparkTrainerTest {
  private static JavaSparkContext sc;

  @BeforeAll
  static void start() {
    sc = SparkSession.start("SparkTrainerTest");
  }

  @AfterAll
  static void stop() {
    if (sc != null) sc.stop();
  }

  @AfterEach
  void noFault() {
    SparkTrainer.fault = null;
  }

  /** {@code n} rows of {@code width} features in [-1, 1), the label the sign pattern of the first two features. */
  static Dataset blobs(int n, int width, long seed) {
    Random r = new Random(seed);
    float[] x = new float[n * width];
    int[] y = new int[n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < width; j++) x[i * width + j] = r.nextFloat() * 2 - 1;
      y[i] = (x[i * width] > 0 ? 1 : 0) + (x[i * width + 1] > 0 ? 2 : 0);
    }
    return Dataset.labelled("blobs", FloatArray.fromArray(x), width, IntArray.fromArray(y), 4);
  }

  static Sequential mlp(int width) {
    return Sequential.of(width, Layer.dense(16), Layer.relu(), Layer.dense(4)).initialize(7);
  }

  /** Every parameter of {@code spark} within 1e-5 of {@code local}'s largest from {@code local}'s. */
  static void assertWithin1e5(Sequential local, Sequential spark, String what) {
    float[] a = spark.parameters().toArray(), b = local.parameters().toArray();
    double scale = 0, diff = 0;
    for (int i = 0; i < a.length; i++) {
      scale = Math.max(scale, Math.abs(b[i]));
      diff = Math.max(diff, Math.abs(a[i] - b[i]));
    }
    assertTrue(diff <= 1e-5 * scale, what + " the parameters differ by " + diff + " (largest " + scale + ")");
  }

  /** The devices the exactness checks run on: the jvm, and the best device when it is another. */
  static List<Device> devices() {
    List<Device> d = new ArrayList<>(List.of(Devices.jvm()));
    if (!Devices.best().id().equals("jvm")) d.add(Devices.best());
    return d;
  }

  @Test
  void gradientAveragingOverTwoPartitionsOf32EqualsOneProcessWithBatch64() {
    Dataset data = blobs(640, 20, 1);
    for (Device device : devices()) {
      // Spark: 2 partitions of 320 rows, batch 32 each, 5 epochs of 10 rounds = 50 steps, no shuffle.
      Sequential spark = mlp(20);
      List<Trainer.Epoch> log = new SparkTrainer(spark, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(1e-2f)).mode(SparkTrainer.Mode.GRADIENTS)
          .batch(32).epochs(5).shuffle(false).device(device.id()).fit(LoopJitSpark.rows(sc, data, 2), null);
      assertEquals(5, log.size());
      // One process: step s takes partition 0's rows 32s.. and partition 1's rows 320 + 32s.., 64 at once.
      Sequential local = mlp(20);
      int[] order = new int[64];
      double lastLoss = 0;
      try (TrainingStep step = local.trainingStep(data, 64, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(1e-2f), device)) {
        for (int s = 0; s < 50; s++) {
          for (int b = 0; b < 32; b++) {
            order[b] = (s % 10) * 32 + b;
            order[32 + b] = 320 + (s % 10) * 32 + b;
          }
          lastLoss = step.run(order, 0, 64);
        }
        step.pullParameters();
      }
      assertWithin1e5(local, spark, device.id() + ": after 50 steps");
      assertTrue(log.get(4).trainLoss() < log.get(0).trainLoss(), "the loss falls: " + log);
      assertTrue(Math.abs(lastLoss) < 10, "the local run trained");
    }
  }

  @Test
  void aTaskThatFailsIsRetriedAndChangesNothing() {
    Dataset data = blobs(512, 12, 2);
    for (SparkTrainer.Mode mode : SparkTrainer.Mode.values()) {
      float[] clean = train(data, mode);
      AtomicInteger thrown = new AtomicInteger();
      SparkTrainer.fault = (round, partition) -> {
        if (round == 5 && partition == 1 && org.apache.spark.TaskContext.get().attemptNumber() == 0) {
          thrown.incrementAndGet();
          throw new IllegalStateException("injected failure in round 5, partition 1");
        }
      };
      float[] retried = train(data, mode);
      assertEquals(1, thrown.get(), mode + ": the fault was injected once");
      assertArrayEquals(clean, retried, mode + ": a retried task changed the parameters");
    }
  }

  private static float[] train(Dataset data, SparkTrainer.Mode mode) {
    Sequential m = mlp(12);
    new SparkTrainer(m, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(1e-2f)).mode(mode).every(3).batch(16).epochs(2).seed(3)
        .fit(LoopJitSpark.rows(sc, data, 2), null);
    return m.parameters().toArray();
  }

  @Test
  void parameterAveragingOnFashionMnistReachesTheLocalTrainersAccuracy() throws Exception {
    Assumptions.assumeTrue(FashionMnist.present(FashionMnist.DEFAULT_DIR), FashionMnist.howToGet(FashionMnist.DEFAULT_DIR));
    Dataset train = FashionMnist.train(FashionMnist.DEFAULT_DIR).rows("first 8000", 0, 8000);
    Dataset test = FashionMnist.test(FashionMnist.DEFAULT_DIR).rows("first 2000", 0, 2000);
    Device device = Devices.best();
    Sequential local = Sequential.of(784, Layer.dense(64), Layer.relu(), Layer.dense(10)).initialize(11);
    Sequential spark = Sequential.of(784, Layer.dense(64), Layer.relu(), Layer.dense(10)).initialize(11);
    // The local trainer's batch is the round's: 2 partitions × 32 rows.
    List<Trainer.Epoch> a = new Trainer(local, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(1e-3f), device).epochs(3).batch(64).seed(5)
        .progress(false).out(null).fit(train, test);
    List<Trainer.Epoch> b = new SparkTrainer(spark, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(1e-3f)).mode(SparkTrainer.Mode.PARAMETERS).every(4)
        .batch(32).epochs(3).seed(5).device(device.id()).fit(LoopJitSpark.rows(sc, train, 2), test);
    double local3 = a.get(2).test().accuracy(), spark3 = b.get(2).test().accuracy();
    System.out.printf("Fashion-MNIST (8,000 rows, 3 epochs) on %s: local trainer %.2f %%, parameter averaging (2 × 32, k = 4) %.2f %%%n", device.id(),
        100 * local3, 100 * spark3);
    assertTrue(local3 > 0.75, "the local trainer learned: " + local3);
    assertTrue(spark3 >= local3 - 0.01, "parameter averaging reached " + spark3 + ", the local trainer " + local3);
    // The result is an ordinary model: it saves and loads.
    Sequential back = Weights.fromBytes(Weights.toBytes(spark));
    assertArrayEquals(spark.parameters().toArray(), back.parameters().toArray());
  }

  @Test
  void sumsOverManyPartitionsGoUpAFixedTreeInPartitionOrder() {
    // 9 partitions: groups of ⌈√9⌉ = 3 are summed on the executors, then the 3 group sums on the driver.
    List<Contribution> parts = new ArrayList<>();
    Random r = new Random(5);
    for (int p = 0; p < 9; p++) {
      float[] v = new float[1000];
      for (int i = 0; i < v.length; i++) v[i] = (float) (r.nextGaussian() * Math.pow(10, r.nextInt(8) - 4));
      parts.add(Contribution.of(p, 17 + p, p, 0, v));
    }
    JavaRDD<Contribution> rdd = sc.parallelize(parts, 9);
    Contribution tree = Contribution.total(rdd, 9), again = Contribution.total(rdd.repartition(9).sortBy(c -> c.index(), true, 9), 9);
    List<Contribution> groups = List.of(Contribution.inOrder(0, parts.subList(0, 3)), Contribution.inOrder(1, parts.subList(3, 6)),
        Contribution.inOrder(2, parts.subList(6, 9)));
    Contribution expected = Contribution.inOrder(0, groups);
    assertEquals(expected.rows(), tree.rows());
    assertArrayEquals(expected.sums()[0], tree.sums()[0], "the tree's order: three groups of three, each in partition order");
    assertArrayEquals(tree.sums()[0], again.sums()[0], "the same bits whatever order the tasks finish in");
    double[] flat = Contribution.inOrder(0, parts).sums()[0];
    for (int i = 0; i < flat.length; i++) assertEquals(flat[i], tree.sums()[0][i], 1e-12 * Math.abs(flat[i]) + 1e-300);
  }

  @Test
  void badInputIsNamedBeforeAnyDeviceWork() {
    Sequential m = mlp(4);
    SparkTrainer t = new SparkTrainer(m, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.sgd(0.1f)).batch(2);
    List<LabeledRow> ragged = new ArrayList<>();
    for (int i = 0; i < 8; i++) ragged.add(new LabeledRow(new float[i == 6 ? 3 : 4], i % 4));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> t.fit(sc.parallelize(ragged, 2), null));
    assertEquals("partition 1, row 2: 3 features, but the model takes 4 (4)", e.getMessage());

    List<LabeledRow> labels = new ArrayList<>();
    for (int i = 0; i < 8; i++) labels.add(new LabeledRow(new float[4], i == 1 ? 9 : 0));
    e = assertThrows(IllegalArgumentException.class, () -> t.fit(sc.parallelize(labels, 2), null));
    assertEquals("partition 0, row 1: label 9 is not in [0, 4)", e.getMessage());

    List<LabeledRow> three = List.of(new LabeledRow(new float[4], 0), new LabeledRow(new float[4], 1), new LabeledRow(new float[4], 2));
    e = assertThrows(IllegalArgumentException.class, () -> t.fit(sc.parallelize(three, 4), null));
    assertTrue(e.getMessage().startsWith("partition 0 is empty"), e.getMessage());

    Sequential images = Sequential.of(dev.loopjit.nn.Shape.of(1, 2, 2), Layer.flatten(), Layer.dense(4)).initialize(1);
    List<LabeledRow> wide = List.of(new LabeledRow(new float[5], 0), new LabeledRow(new float[5], 1));
    e = assertThrows(IllegalArgumentException.class,
        () -> new SparkTrainer(images, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.sgd(0.1f)).fit(sc.parallelize(wide, 1), null));
    assertEquals("partition 0, row 0: 5 features, but the model takes 4 " + images.inputShape(), e.getMessage());
    assertEquals(0, Workers.size(), "no worker was made");
    assertArrayEquals(mlp(4).parameters().toArray(), m.parameters().toArray(), "the model is unchanged");
  }
}
