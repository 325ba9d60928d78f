// The figures of docs/PERFORMANCE.md's Spark section: the local trainer against Spark local[N], per-round time, k; a kernel over 1M records.
package dev.loopjit.spark;

import dev.loopjit.api.Devices;
import dev.loopjit.api.Parallel;
import dev.loopjit.nn.Dataset;
import dev.loopjit.nn.FashionMnist;
import dev.loopjit.nn.Layer;
import dev.loopjit.nn.Loss;
import dev.loopjit.nn.Optimizer;
import dev.loopjit.nn.Sequential;
import dev.loopjit.nn.Trainer;
import dev.loopjit.types.FloatArray;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;

/**
 * {@code scripts/bench-spark} runs it. Training: the MLP 784-256-10 on the first {@code rows}
 * Fashion-MNIST images, Adam, two epochs (the first warms up: JIT, Spark's start), the second timed;
 * the local {@link Trainer} (batch 128) and {@link SparkTrainer} on {@code local[1]} and
 * {@code local[2]} with 2 and 4 partitions (batch 128 ÷ P, so a round covers 128 rows), gradient
 * averaging and parameter averaging every k steps. A kernel: a dense layer (128 → 32) over 1M
 * records, a plain Java loop in {@code mapPartitions} against {@link LoopJitSpark#mapPartitions}.
 */
public final class SparkBench {
  private SparkBench() {}

  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 10000;
    String device = args.length > 1 ? args[1] : Devices.best().id();
    boolean kernel = args.length <= 2 || !args[2].equals("--no-kernel");
    Dataset train = FashionMnist.train(FashionMnist.DEFAULT_DIR).rows("first " + rows, 0, rows);
    System.out.printf("MLP 784-256-10, Adam 1e-3, %,d Fashion-MNIST rows, device %s; the second of two epochs timed%n", rows, device);
    System.out.printf("%-44s %10s %8s %10s %12s %12s%n", "run", "images/s", "× local", "rounds", "compute ms", "rest ms");
    Sequential local = mlp();
    List<Trainer.Epoch> l = new Trainer(local, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(1e-3f), Devices.get(device)).epochs(2).batch(128)
        .progress(false).out(null).fit(train, null);
    double base = l.get(1).samplesPerSecond();
    System.out.printf("%-44s %10.0f %8s %10s %12s %12s%n", "local Trainer, batch 128", base, "1.00", "-", "-", "-");
    record Config(int threads, int partitions, SparkTrainer.Mode mode, int every) {}
    List<Config> configs = List.of(new Config(1, 2, SparkTrainer.Mode.GRADIENTS, 1), new Config(2, 2, SparkTrainer.Mode.GRADIENTS, 1),
        new Config(2, 4, SparkTrainer.Mode.GRADIENTS, 1), new Config(1, 2, SparkTrainer.Mode.PARAMETERS, 4),
        new Config(2, 2, SparkTrainer.Mode.PARAMETERS, 1), new Config(2, 2, SparkTrainer.Mode.PARAMETERS, 4),
        new Config(2, 2, SparkTrainer.Mode.PARAMETERS, 16), new Config(2, 4, SparkTrainer.Mode.PARAMETERS, 16));
    for (Config c : configs) {
      try (JavaSparkContext sc = context("local[" + c.threads() + "]")) {
        JavaRDD<LabeledRow> data = LoopJitSpark.rows(sc, train, c.partitions()).persist(StorageLevel.MEMORY_ONLY());
        data.count();
        List<SparkTrainer.Round> timed = new ArrayList<>();
        List<Trainer.Epoch> log = new SparkTrainer(mlp(), Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(1e-3f)).mode(c.mode()).every(c.every())
            .batch(128 / c.partitions()).epochs(2).device(device).onRound(r -> {
              if (r.epoch() == 2) timed.add(r);
            }).fit(data, null);
        double ips = log.get(1).samplesPerSecond();
        double compute = timed.stream().mapToDouble(SparkTrainer.Round::computeSeconds).sorted().toArray()[timed.size() / 2];
        double rest = timed.stream().mapToDouble(SparkTrainer.Round::overheadSeconds).sorted().toArray()[timed.size() / 2];
        String name = String.format("local[%d], %d partitions, %s", c.threads(), c.partitions(),
            c.mode() == SparkTrainer.Mode.GRADIENTS ? "gradients" : "parameters k=" + c.every());
        System.out.printf("%-44s %10.0f %8.2f %10d %12.1f %12.1f%n", name, ips, ips / base, timed.size(), 1e3 * compute, 1e3 * rest);
      }
    }
    if (kernel) {
      kernel(128, 32, device);
      kernel(256, 256, device);
    }
  }

  private static Sequential mlp() {
    return Sequential.of(784, Layer.dense(256), Layer.relu(), Layer.dense(10)).initialize(42);
  }

  private static JavaSparkContext context(String master) {
    JavaSparkContext sc = new JavaSparkContext(new SparkConf().setMaster(master).setAppName("bench").set("spark.ui.enabled", "false")
        .set("spark.driver.host", "127.0.0.1").set("spark.driver.bindAddress", "127.0.0.1").set("spark.ui.showConsoleProgress", "false"));
    sc.setLogLevel("ERROR");
    return sc;
  }

  /** y = W x + b per record, W (outputs, width): the kernel of the comparison. */
  public static void dense(FloatArray in, FloatArray w, FloatArray b, FloatArray out, int rows, int width, int outputs) {
    for (@Parallel int r = 0; r < rows; r++)
      for (@Parallel int o = 0; o < outputs; o++) {
        float s = b.get(o);
        for (int j = 0; j < width; j++) s += w.get(o * width + j) * in.get(r * width + j);
        out.set(r * outputs + o, s);
      }
  }

  private static void kernel(int width, int outputs, String device) {
    int n = 1 << 20;
    Random random = new Random(1);
    float[] w = new float[outputs * width], b = new float[outputs];
    for (int i = 0; i < w.length; i++) w[i] = random.nextFloat() - 0.5f;
    for (int i = 0; i < b.length; i++) b[i] = random.nextFloat() - 0.5f;
    System.out.printf("%na dense layer (%d → %d) over %,d records of a cached RDD, local[2], 4 partitions; median of 3 after a warm-up%n", width,
        outputs, n);
    try (JavaSparkContext sc = context("local[2]")) {
      List<Integer> slices = List.of(0, 1, 2, 3);
      JavaRDD<float[]> records = sc.parallelize(slices, 4).flatMap(p -> {
        Random r = new Random(p);
        List<float[]> out = new ArrayList<>(n / 4);
        for (int i = 0; i < n / 4; i++) {
          float[] x = new float[width];
          for (int j = 0; j < width; j++) x[j] = r.nextFloat();
          out.add(x);
        }
        return out.iterator();
      }).persist(StorageLevel.MEMORY_ONLY());
      records.count();
      JavaRDD<float[]> java = records.mapPartitions(it -> {
        List<float[]> out = new ArrayList<>();
        while (it.hasNext()) {
          float[] x = it.next(), y = new float[outputs];
          for (int o = 0; o < outputs; o++) {
            float s = b[o];
            for (int j = 0; j < width; j++) s += w[o * width + j] * x[j];
            y[o] = s;
          }
          out.add(y);
        }
        return out.iterator();
      });
      double tJava = time(java);
      double flops = 2.0 * n * width * outputs;
      float[] a = java.take(1).get(0);
      System.out.printf("%-44s %8.3f s  %6.2f GFLOP/s%n", "mapPartitions, a plain Java loop", tJava, flops / tJava / 1e9);
      for (String d : device.equals("jvm-mt") ? List.of(device) : List.of(device, "jvm-mt")) {
        JavaRDD<float[]> jit = LoopJitSpark.mapPartitions(records, outputs, (graph, in, out, rows, k) -> graph.task("dense", SparkBench::dense, in,
            FloatArray.fromArray(w), FloatArray.fromArray(b), out, rows, k, outputs), d);
        double tJit = time(jit);
        float[] c = jit.take(1).get(0);
        System.out.printf("%-44s %8.3f s  %6.2f GFLOP/s  (%.2f× the Java loop; first record %s)%n", "LoopJitSpark.mapPartitions on " + d, tJit,
            flops / tJit / 1e9, tJava / tJit, Arrays.equals(a, c) ? "the same bits" : "differs in the last bits");
      }
      records.unpersist(true);
    }
  }

  private static double time(JavaRDD<float[]> rdd) {
    rdd.count();
    double[] t = new double[3];
    for (int i = 0; i < 3; i++) {
      long t0 = System.nanoTime();
      rdd.count();
      t[i] = (System.nanoTime() - t0) / 1e9;
    }
    Arrays.sort(t);
    return t[1];
  }
}
