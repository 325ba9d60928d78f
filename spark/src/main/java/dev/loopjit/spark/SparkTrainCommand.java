// `loopjit spark-train`: trains the Fashion-MNIST MLP or CNN on Spark (local[N] or a cluster's master), gradient or parameter averaging.
package dev.loopjit.spark;

import dev.loopjit.api.Devices;
import dev.loopjit.nn.Dataset;
import dev.loopjit.nn.FashionMnist;
import dev.loopjit.nn.Layer;
import dev.loopjit.nn.Loss;
import dev.loopjit.nn.Optimizer;
import dev.loopjit.nn.Sequential;
import dev.loopjit.nn.Trainer;
import dev.loopjit.nn.Weights;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;

/** The {@code spark-train} command of {@code scripts/loopjit} (the CLI finds this class by name). */
public final class SparkTrainCommand {
  static final String USAGE = """
      usage: loopjit spark-train --dataset fashion-mnist [options]
        --master URL          Spark's master: local[N] (default local[2]: N task threads in this JVM) or a cluster's, e.g. spark://host:7077
        --partitions P        partitions of the training rows, each a worker with its own device (default: 2 × the master's N, else 4)
        --mode M              gradient: average the workers' gradients every step (the same as one process with batch P × B)
                              params: each worker trains --every K steps, then their parameters and optimizer state are averaged
        --every K             steps between averagings with --mode params (default 8)
        --model NAME          mlp (784 → hidden → 10) | cnn (FashionMnist.cnn()); mlp by default
        --epochs N            epochs (mlp 10, cnn 12)
        --batch B             rows per step on each worker (default 128 ÷ P, at least 1: a round covers loopjit train's 128 rows)
        --lr X                learning rate (adam 0.001; sgd/momentum 0.05)
        --lr-decay G          multiply the learning rate by G after each epoch (cnn 0.8, else 1)
        --optimizer NAME      sgd | momentum | adam (adam)
        --weight-decay X      L2 for sgd/momentum, decoupled for adam (0)
        --hidden N            the MLP's hidden units (256)
        --device ID           every worker's device (default: the GPU Spark assigns the task, else the best device)
        --seed S              seed of the weights, the shuffles and dropout (42)
        --data DIR            Fashion-MNIST's IDX files (default /usr/share/datasets/fashion-mnist)
        --train-rows N        train on the first N rows only
        --save FILE           write the trained weights (loopjit train --load FILE reads them)
        --rounds              print each round's rows, loss and time (compute on the slowest worker, and the rest)
      """;

  private SparkTrainCommand() {}

  /** What the command line asked for; null where the default depends on something else. */
  record Options(String master, Integer partitions, String mode, int every, String model, Integer epochs, Integer batch, Float lr, Float decay,
      String optimizer, float weightDecay, int hidden, String device, long seed, Path data, int trainRows, Path save, boolean rounds) {
    static Options parse(String[] args) {
      String master = "local[2]", mode = "gradient", model = "mlp", optimizer = "adam", device = null, dataset = null;
      Integer partitions = null, epochs = null, batch = null;
      Float lr = null, decay = null;
      float wd = 0;
      int every = 8, hidden = 256, trainRows = 0;
      long seed = 42;
      boolean rounds = false;
      Path data = FashionMnist.DEFAULT_DIR, save = null;
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        if (a.equals("--rounds")) {
          rounds = true;
          continue;
        }
        if (i + 1 >= args.length) throw new IllegalArgumentException(a.startsWith("--") ? a + " needs a value" : "unexpected argument " + a);
        String v = args[++i];
        switch (a) {
          case "--dataset" -> dataset = v;
          case "--master" -> master = v;
          case "--partitions" -> partitions = positive(a, v);
          case "--mode" -> mode = v;
          case "--every" -> every = positive(a, v);
          case "--model" -> model = v;
          case "--epochs" -> epochs = Integer.parseInt(v);
          case "--batch" -> batch = positive(a, v);
          case "--lr" -> lr = Float.parseFloat(v);
          case "--lr-decay" -> decay = Float.parseFloat(v);
          case "--optimizer" -> optimizer = v;
          case "--weight-decay" -> wd = Float.parseFloat(v);
          case "--hidden" -> hidden = positive(a, v);
          case "--device" -> device = v;
          case "--seed" -> seed = Long.parseLong(v);
          case "--data" -> data = Path.of(v);
          case "--train-rows" -> trainRows = positive(a, v);
          case "--save" -> save = Path.of(v);
          default -> throw new IllegalArgumentException("unknown option " + a);
        }
      }
      if (!"fashion-mnist".equals(dataset)) throw new IllegalArgumentException("spark-train needs --dataset fashion-mnist");
      if (!mode.equals("gradient") && !mode.equals("params")) throw new IllegalArgumentException("unknown mode \"" + mode + "\" (gradient, params)");
      if (!model.equals("mlp") && !model.equals("cnn")) throw new IllegalArgumentException("unknown model \"" + model + "\" (mlp, cnn)");
      if (epochs != null && epochs < 0) throw new IllegalArgumentException("--epochs must be ≥ 0, not " + epochs);
      if (decay != null && !(decay > 0f && decay <= 1f)) throw new IllegalArgumentException("--lr-decay must be in (0, 1], not " + decay);
      Optimizer.named(optimizer, 1f, 0f);   // an unknown name fails here
      if (device != null) Devices.get(device);
      return new Options(master, partitions, mode, every, model, epochs, batch, lr, decay, optimizer, wd, hidden, device, seed, data, trainRows, save,
          rounds);
    }
  }

  public static void main(String[] args) throws IOException {
    Options o;
    try {
      o = Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.print(USAGE);
      System.exit(2);
      return;
    }
    String master = o.master(), mode = o.mode(), optimizer = o.optimizer(), device = o.device();
    int every = o.every();
    long seed = o.seed();
    Path data = o.data(), save = o.save();
    if (!FashionMnist.present(data)) {
      System.err.println(FashionMnist.howToGet(data));
      System.exit(1);
    }
    int p = o.partitions() != null ? o.partitions() : localThreads(master) > 0 ? 2 * localThreads(master) : 4;
    int b = o.batch() != null ? o.batch() : Math.max(1, 128 / p);
    boolean cnn = o.model().equals("cnn");
    Dataset train = FashionMnist.train(data), test = FashionMnist.test(data);
    if (o.trainRows() > 0 && o.trainRows() < train.size()) train = train.rows(train.name() + " (first " + o.trainRows() + ")", 0, o.trainRows());
    Sequential net = cnn ? FashionMnist.cnn().initialize(seed)
        : Sequential.of(train.width(), Layer.dense(o.hidden()), Layer.relu(), Layer.dense(train.classes())).initialize(seed);
    Optimizer opt = Optimizer.named(optimizer, o.lr() != null ? o.lr() : optimizer.equals("adam") ? 1e-3f : 0.05f, o.weightDecay());
    int n = o.epochs() != null ? o.epochs() : cnn ? 12 : 10;
    float g = o.decay() != null ? o.decay() : cnn ? 0.8f : 1f;
    SparkConf conf = new SparkConf().setAppName("loopjit spark-train").setMaster(master).set("spark.ui.showConsoleProgress", "false");
    if (master.startsWith("local")) conf.set("spark.ui.enabled", "false").set("spark.driver.host", "127.0.0.1").set("spark.driver.bindAddress", "127.0.0.1");
    try (JavaSparkContext sc = new JavaSparkContext(conf)) {
      sc.setLogLevel("WARN");
      JavaRDD<LabeledRow> rows = LoopJitSpark.rows(sc, train, p).cache();
      System.out.println("data:      " + train + "; " + test);
      System.out.println("model:     " + net + ", " + Loss.SOFTMAX_CROSS_ENTROPY.label());
      System.out.printf("spark:     %s, %d partitions, %s, batch %d per worker (%d per round)%n", master, p,
          mode.equals("gradient") ? "gradient averaging every step" : "parameter averaging every " + every + " steps", b, b * p);
      System.out.printf("training:  %s lr %s%s, %d epoch%s, seed %d, workers on %s%n", optimizer, opt.learningRate(),
          g != 1f ? " × " + g + " per epoch" : "", n, n == 1 ? "" : "s", seed,
          device != null ? device : "the task's GPU, else " + Devices.best().id());
      SparkTrainer trainer = new SparkTrainer(net, Loss.SOFTMAX_CROSS_ENTROPY, opt)
          .mode(mode.equals("gradient") ? SparkTrainer.Mode.GRADIENTS : SparkTrainer.Mode.PARAMETERS).every(every).epochs(n).batch(b)
          .learningRateDecay(g).seed(seed).device(device).out(System.out);
      if (o.rounds())
        trainer.onRound(r -> System.out.printf("  round %d/%d: %d rows, loss %.4f, %.1f ms (compute %.1f ms, the rest %.1f ms)%n", r.round(), r.rounds(),
            r.rows(), r.loss(), 1e3 * r.seconds(), 1e3 * r.computeSeconds(), 1e3 * r.overheadSeconds()));
      List<Trainer.Epoch> log = trainer.fit(rows, test);
      if (!log.isEmpty()) System.out.printf("images/s:  %.0f (last epoch)%n", log.get(log.size() - 1).samplesPerSecond());
    }
    if (save != null) {
      Weights.save(net, save);
      System.out.println("saved:     " + save);
    }
  }

  /** N of {@code local[N]} or {@code local[N,F]} ({@code local[*]}: this machine's cores; {@code local}: 1); 0 for a cluster's master. */
  static int localThreads(String master) {
    if (master.equals("local")) return 1;
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("local\\[(\\*|\\d+)(,\\d+)?]").matcher(master);
    if (!m.matches()) return 0;
    return m.group(1).equals("*") ? Runtime.getRuntime().availableProcessors() : Integer.parseInt(m.group(1));
  }

  private static int positive(String option, String v) {
    int n = Integer.parseInt(v);
    if (n <= 0) throw new IllegalArgumentException(option + " needs a positive number, not " + v);
    return n;
  }
}
