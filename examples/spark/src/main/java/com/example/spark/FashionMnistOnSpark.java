// A Spark application: trains a Fashion-MNIST classifier with LoopJIT on every executor, then predicts the test set over an RDD.
package com.example.spark;

import dev.loopjit.nn.Dataset;
import dev.loopjit.nn.FashionMnist;
import dev.loopjit.nn.Layer;
import dev.loopjit.nn.Loss;
import dev.loopjit.nn.Optimizer;
import dev.loopjit.nn.Sequential;
import dev.loopjit.nn.Trainer;
import dev.loopjit.nn.Weights;
import dev.loopjit.spark.LoopJitSpark;
import dev.loopjit.spark.SparkTrainer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * Submit it unchanged to local[N] or a cluster (the data directory must be readable on the driver;
 * the rows travel to the executors from there):
 * <pre>
 * spark-submit --class com.example.spark.FashionMnistOnSpark --master local[2] \
 *   --conf "spark.driver.extraJavaOptions=--enable-native-access=ALL-UNNAMED --add-modules=jdk.incubator.vector" \
 *   --conf "spark.executor.extraJavaOptions=--enable-native-access=ALL-UNNAMED --add-modules=jdk.incubator.vector" \
 *   target/loopjit-spark-example.jar [DATA_DIR] [EPOCHS] [PARTITIONS] [TRAIN_ROWS] [SAVE_FILE]
 * </pre>
 * With GPU executors add {@code --conf spark.executor.resource.gpu.amount=1 --conf spark.task.resource.gpu.amount=1}
 * and a discovery script; each task then trains on its GPU ({@code cuda:N}).
 */
public final class FashionMnistOnSpark {
  public static void main(String[] args) throws Exception {
    if (args.length > 0 && (args[0].equals("--help") || args[0].equals("-h"))) {
      System.out.println("usage: spark-submit --class " + FashionMnistOnSpark.class.getName() + " [--master URL]"
          + " --conf \"spark.driver.extraJavaOptions=" + LoopJitSpark.JVM_OPTIONS + "\""
          + " --conf \"spark.executor.extraJavaOptions=" + LoopJitSpark.JVM_OPTIONS + "\""
          + " loopjit-spark-example.jar [DATA_DIR] [EPOCHS] [PARTITIONS] [TRAIN_ROWS] [SAVE_FILE]");
      return;
    }
    Path dir = args.length > 0 ? Path.of(args[0]) : FashionMnist.DEFAULT_DIR;
    int epochs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    int partitions = args.length > 2 ? Integer.parseInt(args[2]) : 4;
    int trainRows = args.length > 3 ? Integer.parseInt(args[3]) : 0;
    Path save = args.length > 4 ? Path.of(args[4]) : null;
    SparkConf conf = new SparkConf().setAppName("LoopJIT Fashion-MNIST").setIfMissing("spark.master", "local[2]")
        .setIfMissing("spark.ui.enabled", "false");
    try (JavaSparkContext sc = new JavaSparkContext(conf)) {
      Dataset train = FashionMnist.train(dir), test = FashionMnist.test(dir);
      if (trainRows > 0 && trainRows < train.size()) train = train.rows("first " + trainRows, 0, trainRows);
      Sequential model = Sequential.of(784, Layer.dense(128), Layer.relu(), Layer.dense(10)).initialize(42);

      // Each partition trains on its own device for 8 steps; the driver averages parameters and Adam's state.
      List<Trainer.Epoch> log = new SparkTrainer(model, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(1e-3f))
          .mode(SparkTrainer.Mode.PARAMETERS).every(8).batch(32).epochs(epochs).out(System.out)
          .fit(LoopJitSpark.rows(sc, train, partitions).cache(), test);

      // The trained model predicts the test images over an RDD, each task on its device.
      List<float[]> images = new ArrayList<>();
      float[] pixels = test.features().toArray();
      for (int i = 0; i < test.size(); i++) images.add(Arrays.copyOfRange(pixels, i * test.width(), (i + 1) * test.width()));
      JavaRDD<Integer> labels = LoopJitSpark.predictLabels(model, sc.parallelize(images, partitions), null, 256);
      List<Integer> predicted = labels.collect();
      int right = 0;
      for (int i = 0; i < predicted.size(); i++) if (predicted.get(i) == test.labels().get(i)) right++;
      System.out.printf("predicted over an RDD: %d of %d test images right (%.2f %%)%n", right, predicted.size(), 100.0 * right / predicted.size());
      System.out.printf("trained: test accuracy %.2f %% after %d epoch%s%n", 100 * log.get(log.size() - 1).test().accuracy(), epochs,
          epochs == 1 ? "" : "s");
      if (save != null) {
        Weights.save(model, save);
        System.out.println("saved: " + save + " (scripts/loopjit train --dataset fashion-mnist --load " + save + " --epochs 0 evaluates it)");
      }
    }
  }
}
