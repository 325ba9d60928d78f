// Runs epochs of training: seeded shuffling, a progress bar, test-set evaluation and the time of each epoch.
package dev.loopjit.nn;

import dev.loopjit.api.Device;
import dev.loopjit.api.Profile;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Trains a {@link Sequential} model with one {@link TrainingStep} (built once, so the dataset,
 * parameters and optimizer state stay on the device for the whole run) and evaluates it after
 * every epoch with an {@link Inference} on the test set.
 *
 * <pre>{@code
 * List<Trainer.Epoch> log = new Trainer(model, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(1e-3f), Devices.get("opencl:0"))
 *     .epochs(10).batch(128).seed(42)
 *     .fit(train, test);
 * }</pre>
 *
 * Deterministic for a seed on a given device: the shuffle comes from {@code new Random(seed)},
 * every kernel sums in a fixed order, and the only device reduction counts integers. Every epoch
 * trains on every row once; the last batch of an epoch may be short.
 */
public final class Trainer {
  /** One epoch: mean training loss, the test evaluation (null without a test set), and wall-clock times. */
  public record Epoch(int epoch, double trainLoss, Inference.Evaluation test, double trainSeconds, double jitSeconds, double evalSeconds,
      int samples, double learningRateScale) {
    public double samplesPerSecond() {
      return samples / trainSeconds;
    }

    /** The line {@code loopjit train} prints. */
    public String line(int epochs) {
      StringBuilder s = new StringBuilder(String.format("epoch %2d/%d  loss %.4f", epoch, epochs, trainLoss));
      if (learningRateScale != 1) s.append(String.format(" (lr × %.3f)", learningRateScale));
      if (test != null) {
        s.append(String.format("  test loss %.4f", test.loss()));
        if (!Double.isNaN(test.accuracy())) s.append(String.format("  test accuracy %5.2f %%", 100 * test.accuracy()));
      }
      s.append(String.format("  time %.2f s (%,.0f samples/s)", trainSeconds, samplesPerSecond()));
      if (jitSeconds >= 0.005) s.append(String.format(", incl. %.2f s JIT", jitSeconds));
      if (test != null) s.append(String.format("  eval %.2f s", evalSeconds));
      return s.toString();
    }
  }

  private final Sequential model;
  private final Loss loss;
  private final Optimizer optimizer;
  private final Device device;
  private int epochs = 10, batch = 32, evalBatch = 1000;
  private float decay = 1f;
  private long seed;
  private PrintStream out = System.out;
  private boolean progress = ProgressBar.terminal();
  private boolean profile;

  public Trainer(Sequential model, Loss loss, Optimizer optimizer, Device device) {
    this.model = model;
    this.loss = loss;
    this.optimizer = optimizer;
    this.device = device;
  }

  public Trainer epochs(int epochs) {
    if (epochs < 0) throw new IllegalArgumentException("epochs must be >= 0, not " + epochs);
    this.epochs = epochs;
    return this;
  }

  public Trainer batch(int batch) {
    if (batch <= 0) throw new IllegalArgumentException("batch size must be positive, not " + batch);
    this.batch = batch;
    return this;
  }

  /** Multiplies the learning rate by {@code perEpoch} after every epoch (epoch e trains at lr · perEpoch^(e-1)); 1, the default, keeps it. */
  public Trainer learningRateDecay(float perEpoch) {
    if (!(perEpoch > 0f && perEpoch <= 1f)) throw new IllegalArgumentException("learning-rate decay must be in (0, 1], not " + perEpoch);
    this.decay = perEpoch;
    return this;
  }

  /** Rows per inference execution when evaluating (default 1000). */
  public Trainer evalBatch(int evalBatch) {
    if (evalBatch <= 0) throw new IllegalArgumentException("evaluation batch size must be positive, not " + evalBatch);
    this.evalBatch = evalBatch;
    return this;
  }

  /** The seed of the shuffle and of the dropout masks (initialise the model with {@link Sequential#initialize} for the weights). */
  public Trainer seed(long seed) {
    this.seed = seed;
    return this;
  }

  /** Where the per-epoch lines go; null prints nothing. */
  public Trainer out(PrintStream out) {
    this.out = out;
    return this;
  }

  /** Whether to draw a progress bar (default: when standard output is a terminal). */
  public Trainer progress(boolean progress) {
    this.progress = progress;
    return this;
  }

  /**
   * Whether to time every kernel of the step (the profiler: it costs a little per step) and print,
   * after each epoch, where a step's wall time went: each task's kernel time per step, the kernels'
   * sum, copies, and the rest (launches, synchronisation, the runner's and the trainer's host work).
   */
  public Trainer profile(boolean profile) {
    this.profile = profile;
    return this;
  }

  /**
   * Trains for the set number of epochs on {@code train}, evaluating on {@code test} (may be null)
   * after each; leaves the trained parameters in {@link Sequential#parameters()}.
   */
  public List<Epoch> fit(Dataset train, Dataset test) {
    List<Epoch> log = new ArrayList<>();
    Random shuffle = new Random(seed);
    int[] order = new int[train.size()];
    for (int i = 0; i < order.length; i++) order[i] = i;
    int steps = (train.size() + batch - 1) / batch;
    try (TrainingStep step = model.trainingStep(train, Math.min(batch, train.size()), loss, optimizer, device, seed);
         Inference eval = test == null ? null : model.inference(test, Math.min(evalBatch, test.size()), loss, device)) {
      if (profile) step.withProfiler();
      for (int e = 1; e <= epochs; e++) {
        StepBreakdown breakdown = profile ? new StepBreakdown() : null;
        shuffle(order, shuffle);
        float scale = (float) Math.pow(decay, e - 1);
        step.learningRateScale(scale);
        ProgressBar bar = new ProgressBar(out, progress && out != null, String.format("epoch %d/%d", e, epochs), steps);
        double lossTotal = 0, jit = 0;
        long t0 = System.nanoTime();
        for (int s = 0, from = 0; s < steps; s++, from += batch) {
          int count = Math.min(batch, train.size() - from);
          lossTotal += (double) step.run(order, from, count) * count;
          Profile p = step.lastProfile();
          jit += (p.compileNanos() + p.driverCompileNanos()) / 1e9;
          if (breakdown != null) breakdown.add(p);
          bar.update(s + 1, lossTotal / (from + count), from + count);
        }
        step.pullParameters();
        double trainSeconds = (System.nanoTime() - t0) / 1e9;
        long t1 = System.nanoTime();
        Inference.Evaluation ev = eval == null ? null : eval.evaluate();
        double evalSeconds = (System.nanoTime() - t1) / 1e9;
        bar.clear();
        Epoch epoch = new Epoch(e, lossTotal / train.size(), ev, trainSeconds, jit, evalSeconds, train.size(), scale);
        log.add(epoch);
        if (out != null) out.println(epoch.line(epochs));
        if (out != null && breakdown != null) out.print(breakdown.table(trainSeconds, steps));
      }
    }
    return log;
  }

  private static void shuffle(int[] a, Random r) {
    for (int i = a.length - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }
}
