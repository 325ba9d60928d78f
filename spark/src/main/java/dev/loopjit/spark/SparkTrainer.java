// Data-parallel training of an nn-layers model on Spark: gradient averaging per step, or parameter averaging every k steps.
package dev.loopjit.spark;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.nn.Dataset;
import dev.loopjit.nn.Inference;
import dev.loopjit.nn.Loss;
import dev.loopjit.nn.Optimizer;
import dev.loopjit.nn.ParameterUpdate;
import dev.loopjit.nn.Sequential;
import dev.loopjit.nn.Trainer;
import dev.loopjit.nn.Weights;
import dev.loopjit.types.FloatArray;
import java.io.PrintStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.broadcast.Broadcast;

/**
 * Trains a {@link Sequential} on an RDD of {@link LabeledRow}s, each partition a worker with its
 * own device, in rounds. {@link Mode#GRADIENTS}: each round broadcasts the parameters, each
 * partition computes the mean gradient of its next batch ({@link dev.loopjit.nn.GradientStep}),
 * the row-weighted sum comes back to the driver and the driver's optimizer applies it
 * ({@link ParameterUpdate}) — the same as one process training on the partitions' batches side by
 * side (batch = partitions × {@link #batch}). {@link Mode#PARAMETERS}: each round broadcasts the
 * parameters and the optimizer's state, each partition trains {@link #every} steps on its own and
 * the driver averages what they reach (DL4J's parameter averaging): k times fewer rounds.
 *
 * <pre>{@code
 * JavaRDD<LabeledRow> rows = LoopJitSpark.rows(sc, FashionMnist.train(dir), 4);
 * new SparkTrainer(model, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(1e-3f))
 *     .mode(SparkTrainer.Mode.PARAMETERS).every(8).epochs(2).batch(32).out(System.out)
 *     .fit(rows, FashionMnist.test(dir));       // model.parameters() now hold the trained model
 * }</pre>
 *
 * Before any device work, one Spark job checks every partition (row widths against the model's
 * input, labels against its outputs, no empty partition) and a problem fails {@link #fit} with an
 * {@link IllegalArgumentException} naming the partition and row. Each executor JVM keeps its
 * partitions' rows and compiled steps between rounds ({@link Workers}); sums over partitions are
 * added in partition order ({@link Contribution}), so a run is reproducible and a retried task
 * changes nothing. Batch norm's running statistics are averaged like the parameters (each worker
 * normalises with its own batch's statistics, as PyTorch's DistributedDataParallel without
 * SyncBatchNorm); dropout draws its masks per worker.
 */
public final class SparkTrainer {
  /** How the workers' results become the model's next parameters. */
  public enum Mode {
    /** Every step: partitions send their batch's gradient, the driver averages and applies it. */
    GRADIENTS,
    /** Every {@link #every} steps: partitions train on their own, the driver averages parameters and optimizer state. */
    PARAMETERS
  }

  /** One round's figures: rows trained on, the mean loss, and its time split into the workers' compute and the rest (broadcast, scheduling, aggregation, update). */
  public record Round(int epoch, int round, int rounds, long rows, double loss, double seconds, double computeSeconds) {
    /** The time not spent computing on the slowest worker: broadcast, task scheduling, the sums and the driver's update. */
    public double overheadSeconds() {
      return Math.max(0, seconds - computeSeconds);
    }
  }

  private final Sequential model;
  private final Loss loss;
  private final Optimizer optimizer;
  private Mode mode = Mode.GRADIENTS;
  private int every = 1, epochs = 1, batch = 32, evalBatch = 1000;
  private long seed = 42;
  private float decay = 1f;
  private boolean shuffle = true;
  private String device;
  private PrintStream out;
  private Consumer<Round> onRound = r -> {};

  public SparkTrainer(Sequential model, Loss loss, Optimizer optimizer) {
    if (!loss.needsLabels()) throw new IllegalArgumentException("Spark training takes labelled rows: use " + Loss.SOFTMAX_CROSS_ENTROPY.label());
    this.model = model;
    this.loss = loss;
    this.optimizer = optimizer;
  }

  /** {@link Mode#GRADIENTS} (the default) or {@link Mode#PARAMETERS}. */
  public SparkTrainer mode(Mode mode) {
    this.mode = java.util.Objects.requireNonNull(mode, "mode");
    return this;
  }

  /** With {@link Mode#PARAMETERS}: the local steps between two averagings (k; 1 by default). */
  public SparkTrainer every(int k) {
    if (k < 1) throw new IllegalArgumentException("averaging every k steps needs k ≥ 1, not " + k);
    every = k;
    return this;
  }

  public SparkTrainer epochs(int epochs) {
    if (epochs < 0) throw new IllegalArgumentException("epochs must be ≥ 0, not " + epochs);
    this.epochs = epochs;
    return this;
  }

  /** Rows per step on each worker (32 by default); one gradient step of the whole job covers partitions × batch rows. */
  public SparkTrainer batch(int batch) {
    if (batch <= 0) throw new IllegalArgumentException("batch must be positive, not " + batch);
    this.batch = batch;
    return this;
  }

  /** Multiplies the learning rate by {@code perEpoch} after each epoch (1: constant). */
  public SparkTrainer learningRateDecay(float perEpoch) {
    if (!(perEpoch > 0f && perEpoch <= 1f)) throw new IllegalArgumentException("learning-rate decay must be in (0, 1], not " + perEpoch);
    decay = perEpoch;
    return this;
  }

  /** The seed of each partition's shuffle and dropout masks (42). */
  public SparkTrainer seed(long seed) {
    this.seed = seed;
    return this;
  }

  /** Whether each partition shuffles its rows every epoch (true); without, batch s of every epoch is rows s·B.. of the partition. */
  public SparkTrainer shuffle(boolean shuffle) {
    this.shuffle = shuffle;
    return this;
  }

  /**
   * The device id every worker and the driver use ({@code "jvm-mt"}, {@code "opencl:0"}, …); by
   * default a worker takes the GPU Spark assigned its task, else {@link Devices#best()}.
   */
  public SparkTrainer device(String id) {
    if (id != null) Devices.get(id);   // an unknown id fails here, on the driver
    device = id;
    return this;
  }

  /** Where to print a line per epoch (as {@code loopjit train} does); null (the default) prints nothing. */
  public SparkTrainer out(PrintStream out) {
    this.out = out;
    return this;
  }

  /** Called on the driver after every round (progress, measurements). */
  public SparkTrainer onRound(Consumer<Round> listener) {
    onRound = java.util.Objects.requireNonNull(listener, "listener");
    return this;
  }

  /**
   * Trains for the set epochs on {@code train}, evaluating on {@code test} (may be null) on the
   * driver after each; leaves the trained parameters and state in the model, as
   * {@link Trainer#fit} does. An epoch is as many steps as the largest partition has batches.
   */
  public List<Trainer.Epoch> fit(JavaRDD<LabeledRow> train, Dataset test) {
    int partitions = train.getNumPartitions();
    int[] sizes = check(train, partitions);
    int steps = 0;
    for (int n : sizes) steps = Math.max(steps, (n + Math.min(batch, n) - 1) / Math.min(batch, n));
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(train.context());
    String run = UUID.randomUUID().toString();
    Device driver = device != null ? Devices.get(device) : Devices.best();
    Broadcast<byte[]> architecture = sc.broadcast(Weights.toBytes(model));
    List<Trainer.Epoch> log = new ArrayList<>();
    int rounds = mode == Mode.GRADIENTS ? steps : (steps + every - 1) / every, round = 0;
    long total = 0;
    for (int n : sizes) total += n;
    FloatArray gradients = new FloatArray(model.parameterCount());   // the driver's average, reused every round
    float[][] optimizerState = optimizer.newState(Math.max(model.parameterCount(), 1)).stream().map(FloatArray::toArray).toArray(float[][]::new);
    try (ParameterUpdate update = mode == Mode.GRADIENTS ? model.parameterUpdate(optimizer, driver) : null;
         Inference eval = test == null ? null : model.inference(test, Math.min(evalBatch, test.size()), loss, driver)) {
      for (int e = 1; e <= epochs; e++) {
        float scale = (float) Math.pow(decay, e - 1);
        if (update != null) update.learningRateScale(scale);
        long t0 = System.nanoTime();
        double lossSum = 0;
        for (int r = 0; r < rounds; r++, round++) {
          long r0 = System.nanoTime();
          float[][] values = new float[2 + (mode == Mode.PARAMETERS ? optimizerState.length : 0)][];
          values[0] = model.parameters().toArray();
          values[1] = model.state().toArray();
          if (mode == Mode.PARAMETERS) System.arraycopy(optimizerState, 0, values, 2, optimizerState.length);
          Broadcast<float[][]> now = sc.broadcast(values);
          Contribution sum;
          try {
            RoundJob job = new RoundJob(run, architecture, now, mode, batch, seed, shuffle, device, loss, optimizer, e,
                mode == Mode.GRADIENTS ? r : r * every, mode == Mode.GRADIENTS ? 1 : every, scale, round, model.inputShape().toString());
            sum = Contribution.total(train.mapPartitionsWithIndex(job, true), partitions);
          } finally {
            now.destroy();
          }
          if (sum.rows() == 0) throw new IllegalStateException("round " + round + " trained on no rows");
          if (mode == Mode.GRADIENTS) {
            TrainingWorker.set(gradients, sum.mean(0));
            update.apply(gradients);
          } else {
            TrainingWorker.set(model.parameters(), sum.mean(0));
            for (int v = 0; v < optimizerState.length; v++) optimizerState[v] = sum.mean(2 + v);
          }
          if (model.stateCount() > 0) TrainingWorker.set(model.state(), sum.mean(1));
          lossSum += sum.loss();
          onRound.accept(new Round(e, r + 1, rounds, sum.rows(), sum.loss() / sum.rows(), (System.nanoTime() - r0) / 1e9, sum.computeNanos() / 1e9));
        }
        double trainSeconds = (System.nanoTime() - t0) / 1e9;
        long t1 = System.nanoTime();
        Inference.Evaluation ev = eval == null ? null : eval.evaluate();
        Trainer.Epoch epoch = new Trainer.Epoch(e, lossSum / total, ev, trainSeconds, 0, (System.nanoTime() - t1) / 1e9, (int) total, scale);
        log.add(epoch);
        if (out != null) out.println(epoch.line(epochs));
      }
    } finally {
      architecture.destroy();
      release(train, run);
    }
    return log;
  }

  /** One Spark job over every partition: its size, or the first thing wrong with it. */
  private int[] check(JavaRDD<LabeledRow> train, int partitions) {
    if (partitions == 0) throw new IllegalArgumentException("the RDD has no partitions");
    int width = model.inputs(), classes = model.outputs();
    String shape = model.inputShape().toString();
    List<PartitionRows.Check> checks = train.mapPartitionsWithIndex(
        (Function2<Integer, Iterator<LabeledRow>, Iterator<PartitionRows.Check>>) (p, rows) -> Collections.singletonList(
            PartitionRows.check(p, rows, width, classes, shape)).iterator(), true).collect();
    int[] sizes = new int[partitions];
    for (PartitionRows.Check c : checks) {
      if (c.problem() != null) throw new IllegalArgumentException(c.problem());
      sizes[c.partition()] = c.rows();
    }
    return sizes;
  }

  /** Closes the run's workers: here (local mode runs them in this JVM) and, best effort, on the executors that hold the partitions. */
  private static void release(JavaRDD<LabeledRow> train, String run) {
    Workers.closeRun(run);
    try {
      train.foreachPartition(rows -> Workers.closeRun(run));
    } catch (RuntimeException e) {
      System.getLogger("dev.loopjit.spark").log(System.Logger.Level.WARNING, "releasing the workers of run " + run + ": " + e);
    }
  }

  /** Failure injection for the fault tests: called after each partition's round as (round, partition); null in normal runs. */
  interface Fault extends Serializable {
    void after(int round, int partition);
  }

  static volatile Fault fault;

  /** One round on one partition, as Spark ships it to the executors. */
  private record RoundJob(String run, Broadcast<byte[]> architecture, Broadcast<float[][]> values, Mode mode, int batch, long seed, boolean shuffle,
      String device, Loss loss, Optimizer optimizer, int epoch, int first, int steps, float scale, int round, String shape)
      implements Function2<Integer, Iterator<LabeledRow>, Iterator<Contribution>> {
    @Override
    public Iterator<Contribution> call(Integer partition, Iterator<LabeledRow> rows) {
      TrainingWorker w = Workers.get(run, partition, () -> {
        Sequential model = Weights.fromBytes(architecture.value());
        Dataset data = PartitionRows.read(partition, rows, model.inputs(), model.outputs(), shape);
        return new TrainingWorker(partition, data, model, mode, batch, loss, optimizer, TaskDevice.of(device), seed, shuffle);
      });
      float[][] v = values.value();
      Contribution c = mode == Mode.GRADIENTS ? w.gradients(v[0], v[1], epoch, first)
          : w.steps(v[0], v[1], java.util.Arrays.copyOfRange(v, 2, v.length), epoch, first, steps, scale);
      Fault f = fault;
      if (f != null) f.after(round, partition);   // a task lost after its work: the retry must redo it the same
      return Collections.singletonList(c).iterator();
    }
  }
}
