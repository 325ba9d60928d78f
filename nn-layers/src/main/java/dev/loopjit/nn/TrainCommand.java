// `loopjit train`: trains the toy problem, or a Fashion-MNIST MLP or CNN, on a device and prints a line per epoch.
package dev.loopjit.nn;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@code train} command of {@code scripts/loopjit} (the CLI finds this class by name, so the
 * engine does not depend on nn-layers).
 *
 * <pre>
 * loopjit train --dataset toy|fashion-mnist [--model mlp|cnn] [--epochs N] [--batch B] [--lr X]
 *               [--optimizer sgd|momentum|adam] [--weight-decay X] [--hidden N] [--device ID] [--seed S] [--data DIR]
 *               [--train-rows N] [--save FILE] [--load FILE] [--show N] [--plot FILE.png] [--no-progress] [--profile]
 * </pre>
 */
public final class TrainCommand {
  static final String USAGE = """
      usage: loopjit train --dataset toy|fashion-mnist [options]
        --model NAME          mlp (784 → hidden → 10) | cnn (the convolutional network of FashionMnist.cnn()); fashion-mnist only, mlp by default
        --epochs N            epochs (toy 20, fashion-mnist 10, cnn 12)
        --batch B             rows per step (toy 32, fashion-mnist 128)
        --lr X                learning rate (sgd/momentum: toy 0.01, fashion-mnist 0.05; adam 0.001)
        --lr-decay G          multiply the learning rate by G after each epoch (cnn 0.8, else 1)
        --optimizer NAME      sgd | momentum | adam (toy sgd, fashion-mnist adam)
        --weight-decay X      L2 for sgd/momentum, decoupled for adam (0)
        --hidden N            hidden units (toy 50, fashion-mnist 256)
        --device ID           jvm | opencl:N | cuda:N (default: the best device)
        --seed S              seed of the weights and the shuffle (42)
        --data DIR            Fashion-MNIST's IDX files (default /usr/share/datasets/fashion-mnist)
        --train-rows N        train on the first N rows only
        --save FILE           write the trained weights (format: dev.loopjit.nn.Weights)
        --load FILE           start from saved weights instead of a fresh model (with --epochs 0: only evaluate)
        --show N              after training, print N test images as text with the model's predictions
        --plot FILE.png       after training, draw the loss (training and test) and the test accuracy per epoch
        --no-progress         no progress bar
        --profile             after each epoch, where a step's time went: each task's kernels, copies, and the rest
      """;

  /** What the command line asked for, with the defaults of the dataset filled in. */
  record Options(String dataset, String model, int epochs, int batch, float lr, float lrDecay, String optimizer, float weightDecay, int hidden,
      String device, long seed, Path data, int trainRows, Path save, Path load, int show, Path plot, boolean progress, boolean profile) {
    static Options parse(String[] args) {
      String dataset = "toy", model = "mlp", optimizer = null, device = null;
      Integer epochs = null, batch = null, hidden = null;
      int show = 0;
      Float lr = null, decay = null;
      float wd = 0;
      long seed = 42;
      int trainRows = 0;
      Path data = FashionMnist.DEFAULT_DIR, save = null, load = null, plot = null;
      boolean progress = true, profile = false;
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        if (a.equals("--no-progress")) {
          progress = false;
          continue;
        }
        if (a.equals("--profile")) {
          profile = true;
          continue;
        }
        if (i + 1 >= args.length) throw new IllegalArgumentException(a.startsWith("--") ? a + " needs a value" : "unexpected argument " + a);
        String v = args[++i];
        switch (a) {
          case "--dataset" -> dataset = v;
          case "--model" -> model = v;
          case "--show" -> show = Integer.parseInt(v);
          case "--epochs" -> epochs = Integer.parseInt(v);
          case "--batch" -> batch = Integer.parseInt(v);
          case "--lr" -> lr = Float.parseFloat(v);
          case "--lr-decay" -> decay = Float.parseFloat(v);
          case "--optimizer" -> optimizer = v;
          case "--weight-decay" -> wd = Float.parseFloat(v);
          case "--hidden" -> hidden = Integer.parseInt(v);
          case "--device" -> device = v;
          case "--seed" -> seed = Long.parseLong(v);
          case "--data" -> data = Path.of(v);
          case "--train-rows" -> trainRows = Integer.parseInt(v);
          case "--save" -> save = Path.of(v);
          case "--load" -> load = Path.of(v);
          case "--plot" -> plot = Path.of(v);
          default -> throw new IllegalArgumentException("unknown option " + a);
        }
      }
      boolean toy = switch (dataset) {
        case "toy" -> true;
        case "fashion-mnist" -> false;
        default -> throw new IllegalArgumentException("unknown dataset \"" + dataset + "\" (toy, fashion-mnist)");
      };
      if (!model.equals("mlp") && !model.equals("cnn")) throw new IllegalArgumentException("unknown model \"" + model + "\" (mlp, cnn)");
      if (toy && model.equals("cnn")) throw new IllegalArgumentException("--model cnn needs images: use it with --dataset fashion-mnist");
      if (show < 0) throw new IllegalArgumentException("--show needs a count ≥ 0, not " + show);
      if (plot != null) TrainingPlot.checkWritable(plot);   // before training, not after it
      if (optimizer == null) optimizer = toy ? "sgd" : "adam";
      if (lr == null) lr = optimizer.equals("adam") ? 1e-3f : toy ? 0.01f : 0.05f;
      boolean cnn = model.equals("cnn");
      if (decay == null) decay = cnn ? 0.8f : 1f;
      if (!(decay > 0f && decay <= 1f)) throw new IllegalArgumentException("--lr-decay must be in (0, 1], not " + decay);
      return new Options(dataset, model, epochs != null ? epochs : toy ? 20 : cnn ? 12 : 10, batch != null ? batch : toy ? 32 : 128, lr, decay,
          optimizer, wd,
          hidden != null ? hidden : toy ? ToyProblem.HIDDEN : 256, device, seed, data, trainRows, save, load, show, plot, progress, profile);
    }
  }

  private TrainCommand() {}

  public static void main(String[] args) {
    Options o;
    try {
      o = Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.print(USAGE);
      System.exit(2);
      return;
    }
    try {
      run(o);
    } catch (IOException e) {
      System.err.println(e.getMessage());
      System.exit(1);
    }
  }

  static List<Trainer.Epoch> run(Options o) throws IOException {
    Dataset train, test;
    Loss loss;
    if (o.dataset().equals("toy")) {
      Dataset[] tt = ToyProblem.trainAndTest(o.seed());
      train = tt[0];
      test = tt[1];
      loss = Loss.BCE_WITH_LOGITS;
    } else {
      if (!FashionMnist.present(o.data())) throw new IOException(FashionMnist.howToGet(o.data()));
      train = FashionMnist.train(o.data());
      test = FashionMnist.test(o.data());
      loss = Loss.SOFTMAX_CROSS_ENTROPY;
    }
    if (o.trainRows() > 0 && o.trainRows() < train.size()) train = train.rows(train.name() + " (first " + o.trainRows() + ")", 0, o.trainRows());
    int outputs = loss == Loss.SOFTMAX_CROSS_ENTROPY ? train.classes() : train.targetWidth();
    Sequential model = o.load() != null ? Weights.load(o.load())
        : o.model().equals("cnn") ? FashionMnist.cnn().initialize(o.seed())
        : Sequential.of(train.width(), Layer.dense(o.hidden()), Layer.relu(), Layer.dense(outputs)).initialize(o.seed());
    Optimizer optimizer = Optimizer.named(o.optimizer(), o.lr(), o.weightDecay());
    Device device = o.device() == null ? Devices.best() : Devices.get(o.device());
    System.out.println("data:      " + train + "; " + test);
    System.out.println("model:     " + model + ", " + loss.label());
    System.out.printf("training:  %s lr %s%s%s, batch %d, %d epoch%s, seed %d, on %s (%s)%n", o.optimizer(), o.lr(),
        o.lrDecay() != 1f ? " × " + o.lrDecay() + " per epoch" : "",
        o.weightDecay() != 0 ? ", weight decay " + o.weightDecay() : "", o.batch(), o.epochs(), o.epochs() == 1 ? "" : "s", o.seed(),
        device.id(), device.name());
    List<Trainer.Epoch> log = o.epochs() == 0 ? List.of() : new Trainer(model, loss, optimizer, device).epochs(o.epochs()).batch(o.batch()).seed(o.seed())
        .learningRateDecay(o.lrDecay())
        .progress(o.progress() && ProgressBar.terminal()).profile(o.profile()).fit(train, test);
    if (o.epochs() == 0) {
      try (Inference eval = model.inference(test, Math.min(1000, test.size()), loss, device)) {
        Inference.Evaluation e = eval.evaluate();
        System.out.printf("test:      loss %.4f%s%n", e.loss(), Double.isNaN(e.accuracy()) ? "" : String.format("  accuracy %5.2f %%", 100 * e.accuracy()));
      }
    }
    if (o.save() != null) {
      Weights.save(model, o.save());
      System.out.println("saved:     " + o.save());
    }
    if (o.show() > 0 && test.labels() != null) ClassifyExample.show(model, test, Math.min(o.show(), test.size()), device, System.out);
    if (o.plot() != null && !log.isEmpty()) {
      TrainingPlot.write(log, o.dataset() + ", " + o.model() + ": " + o.optimizer() + " lr " + o.lr() + ", batch " + o.batch() + ", seed " + o.seed()
          + " on " + device.id(), o.plot());
      System.out.println("plotted:   " + o.plot());
    }
    return log;
  }
}
