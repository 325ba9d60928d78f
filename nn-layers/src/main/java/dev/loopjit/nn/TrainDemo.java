// scripts/demo, part two: the seeds' toy problem and a short Fashion-MNIST run, trained on every device, checked against the jvm, timed.
package dev.loopjit.nn;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Trains the same models from the same seed on the jvm and on each device and prints, side by
 * side, what they reached and how long they took. The jvm runs the very same Java methods, so its
 * numbers are the reference the devices are compared with.
 */
public final class TrainDemo {
  private record Outcome(Device device, List<Trainer.Epoch> log, float[] params) {}

  private TrainDemo() {}

  public static void main(String[] args) throws IOException {
    Path data = args.length > 0 ? Path.of(args[0]) : FashionMnist.DEFAULT_DIR;
    List<Device> devices = Devices.all();
    System.out.println("\nTraining on the device: forward, loss, backward and the optimizer are one task graph of @Parallel loops.");
    Dataset[] toy = ToyProblem.trainAndTest(42);
    try (TrainingStep step = ToyProblem.model().trainingStep(toy[0], 32, Loss.BCE_WITH_LOGITS, Optimizer.sgd(0.01f), Devices.jvm())) {
      System.out.println("The step's tasks: " + String.join(", ", step.tasks()));
    }
    System.out.println("Per step, only the batch's row numbers go in and its loss comes out; the dataset, weights, gradients\n"
        + "and optimizer state stay on the device.\n");

    System.out.println("The seeds' toy problem: 800 + 200 rows of 20 features, 20 → 50 → 1 (ReLU), BCE on logits, SGD lr 0.01, batch 32, 20 epochs");
    List<Outcome> toyRuns = new ArrayList<>();
    for (Device d : devices) {
      Sequential m = ToyProblem.model().initialize(42);
      toyRuns.add(new Outcome(d, new Trainer(m, Loss.BCE_WITH_LOGITS, Optimizer.sgd(0.01f), d).epochs(20).batch(32).seed(42).out(null)
          .progress(false).fit(toy[0], toy[1]), m.parameters().toArray()));
    }
    table(toyRuns);
    profileOneStep(toy[0], devices);

    if (!FashionMnist.present(data)) {
      System.out.println("\n(Fashion-MNIST skipped: " + FashionMnist.howToGet(data).lines().findFirst().orElse("") + ")");
      return;
    }
    int rows = 12_800;
    Dataset train = FashionMnist.train(data), test = FashionMnist.test(data);
    Dataset part = train.rows("fashion-mnist, first " + rows, 0, rows);
    System.out.printf("%nFashion-MNIST: 784 → 256 → 10 (ReLU), softmax cross-entropy, Adam lr 0.001, batch 128: one epoch on the first%n"
        + "%,d training images (%d steps), then the 10,000 test images (full runs: scripts/loopjit train --dataset fashion-mnist)%n", rows,
        rows / 128);
    List<Outcome> fashionRuns = new ArrayList<>();
    for (Device d : devices) {
      Sequential m = Sequential.of(784, Layer.dense(256), Layer.relu(), Layer.dense(10)).initialize(42);
      fashionRuns.add(new Outcome(d, new Trainer(m, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(1e-3f), d).epochs(1).batch(128).seed(42)
          .out(null).progress(false).fit(part, test), m.parameters().toArray()));
    }
    table(fashionRuns);

    int images = 2560;
    Dataset few = train.rows("fashion-mnist, first " + images, 0, images), someTest = test.rows("fashion-mnist test, first 2000", 0, 2000);
    System.out.printf("%nThe CNN (FashionMnist.cnn(): conv 32 3×3, batch norm, pool, conv 64 3×3, batch norm, pool, dropout, dense 128, dropout, dense 10), Adam lr%n"
        + "0.001, batch 128: one epoch on the first %,d training images (%d steps), then 2,000 test images (the full run, ≥ 91 %%:%n"
        + "scripts/loopjit train --dataset fashion-mnist --model cnn)%n", images, images / 128);
    List<Outcome> cnnRuns = new ArrayList<>();
    for (Device d : devices) {
      Sequential m = FashionMnist.cnn().initialize(42);
      cnnRuns.add(new Outcome(d, new Trainer(m, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(1e-3f), d).epochs(1).batch(128).seed(42)
          .out(null).progress(false).fit(few, someTest), m.parameters().toArray()));
    }
    table(cnnRuns);
    System.out.println("\ntrain time is wall-clock for all steps, including the JIT (shown apart; kernels come from the disk cache after the first run);"
        + "\nsamples/s leave the JIT out.");
  }

  /**
   * The profile of one step of the toy problem's training on each device but the jvm: every task of
   * the step with its time, the GB/s and GFLOP/s it reached and their share of the device's measured
   * limits (what the hardware gave it).
   */
  private static void profileOneStep(Dataset train, List<Device> devices) {
    int[] order = new int[train.size()];
    for (int i = 0; i < order.length; i++) order[i] = i;
    for (Device d : devices) {
      if (d.backend().equals("jvm")) continue;
      try (TrainingStep step = ToyProblem.model().initialize(42).trainingStep(train, 32, Loss.BCE_WITH_LOGITS, Optimizer.sgd(0.01f), d)
          .withProfiler()) {
        for (int k = 0; k < 3; k++) step.run(order, 32 * k, 32);   // the first compiles; the third is the one shown
        System.out.println("\nOne training step of the toy problem on " + d.id() + " (TrainingStep.lastProfile()):");
        System.out.println(step.lastProfile().toString().indent(2).stripTrailing());
      }
    }
  }

  private static void table(List<Outcome> runs) {
    System.out.printf("  %-10s %10s %10s %13s %12s %9s %12s  %s%n", "device", "loss", "test loss", "test accuracy", "train time", "JIT",
        "samples/s", "vs jvm");
    Outcome jvm = runs.getFirst();
    for (Outcome o : runs) {
      Trainer.Epoch last = o.log().getLast();
      double seconds = 0, jit = 0;
      for (Trainer.Epoch e : o.log()) {
        seconds += e.trainSeconds();
        jit += e.jitSeconds();
      }
      double rate = (double) last.samples() * o.log().size() / Math.max(1e-9, seconds - jit);
      System.out.printf("  %-10s %10.4f %10.4f %11.2f %% %10.2f s %7.2f s %,12.0f  %s%n", o.device().id(), last.trainLoss(), last.test().loss(),
          100 * last.test().accuracy(), seconds, jit, rate, o == jvm ? "reference" : compare(jvm, o));
    }
  }

  /** How far a device's parameters and losses are from the jvm's. */
  private static String compare(Outcome jvm, Outcome o) {
    double worst = 0;
    for (int i = 0; i < jvm.params().length; i++) worst = Math.max(worst, Math.abs(jvm.params()[i] - o.params()[i]));
    double lossDiff = Math.abs(jvm.log().getLast().trainLoss() - o.log().getLast().trainLoss());
    if (worst == 0 && lossDiff == 0) return "identical parameters";
    return String.format("%s (max parameter diff %.1e, loss diff %.1e)", worst < 1e-3 && lossDiff < 1e-3 ? "agrees" : "DIFFERS", worst, lossDiff);
  }
}
