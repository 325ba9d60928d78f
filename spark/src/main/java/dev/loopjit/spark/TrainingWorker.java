// The executor side of data-parallel training: one partition's rows on its device, and its step (gradients only, or whole steps).
package dev.loopjit.spark;

import dev.loopjit.api.Device;
import dev.loopjit.nn.Dataset;
import dev.loopjit.nn.GradientStep;
import dev.loopjit.nn.Loss;
import dev.loopjit.nn.Optimizer;
import dev.loopjit.nn.Sequential;
import dev.loopjit.nn.TrainingStep;
import dev.loopjit.types.FloatArray;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Random;

/**
 * Partition {@code partition}'s worker, kept by {@link Workers} for the whole run. Its batches are
 * the partition's rows in epoch order ({@link #order}): batch {@code s} of an epoch is rows
 * {@code s·B .. s·B+B-1} of that order, so every round is a pure function of the broadcast values,
 * the partition and the round's place in the run — a retried task gives the same result.
 */
final class TrainingWorker implements AutoCloseable {
  private final int partition;
  private final Dataset data;
  private final Sequential model;
  private final GradientStep gradients;   // gradient averaging
  private final TrainingStep step;        // parameter averaging
  private final int batch;
  private final long seed;
  private final boolean shuffle;
  private int[] order;
  private int orderEpoch = -1;

  TrainingWorker(int partition, Dataset data, Sequential model, SparkTrainer.Mode mode, int batch, Loss loss, Optimizer optimizer, Device device,
      long seed, boolean shuffle) {
    this.partition = partition;
    this.data = data;
    this.model = model;
    this.batch = Math.min(batch, data.size());
    this.seed = seed;
    this.shuffle = shuffle;
    long dropoutSeed = seed * 1_000_003L + partition;
    gradients = mode == SparkTrainer.Mode.GRADIENTS ? model.gradientStep(data, this.batch, loss, device, dropoutSeed) : null;
    step = mode == SparkTrainer.Mode.PARAMETERS ? model.trainingStep(data, this.batch, loss, optimizer, device, dropoutSeed) : null;
  }

  /** Gradient averaging: the mean gradient of batch {@code s} of {@code epoch} at the broadcast parameters, and the state after it. */
  synchronized Contribution gradients(float[] params, float[] state, int epoch, int s) {
    long t0 = System.nanoTime();
    int from = s * batch;
    if (from >= data.size()) return Contribution.none(partition, 0);
    int count = Math.min(batch, data.size() - from);
    set(model.parameters(), params);
    set(model.state(), state);
    float loss = gradients.run(order(epoch), from, count);
    return Contribution.of(partition, count, (double) loss * count, System.nanoTime() - t0, get(gradients.gradients(), model.parameterCount()),
        get(model.state(), model.stateCount()));
  }

  /**
   * Parameter averaging: from the broadcast parameters, state and optimizer state, batches
   * {@code first .. first+steps-1} of {@code epoch} (those the partition has), then the parameters,
   * state and optimizer state they led to.
   */
  synchronized Contribution steps(float[] params, float[] state, float[][] optimizerState, int epoch, int first, int steps, float rateScale) {
    long t0 = System.nanoTime();
    if (first * batch >= data.size()) return Contribution.none(partition, 0);
    set(model.parameters(), params);
    set(model.state(), state);
    step.pushParameters();
    List<FloatArray> opt = step.optimizerState();
    for (int v = 0; v < opt.size(); v++) set(opt.get(v), optimizerState[v]);
    step.pushOptimizerState();
    step.learningRateScale(rateScale);
    int[] rows = order(epoch);
    long used = 0;
    double loss = 0;
    for (int s = first; s < first + steps && s * batch < data.size(); s++) {
      int count = Math.min(batch, data.size() - s * batch);
      loss += (double) step.run(rows, s * batch, count) * count;
      used += count;
    }
    step.pullParameters();
    step.pullOptimizerState();
    float[][] out = new float[2 + opt.size()][];
    out[0] = get(model.parameters(), model.parameterCount());
    out[1] = get(model.state(), model.stateCount());
    for (int v = 0; v < opt.size(); v++) out[2 + v] = opt.get(v).toArray();
    return Contribution.of(partition, used, loss, System.nanoTime() - t0, out);
  }

  /** The partition's rows in the order of {@code epoch}: as they are, or shuffled by the run's seed, the epoch and the partition. */
  private int[] order(int epoch) {
    if (orderEpoch != epoch) {
      order = new int[data.size()];
      for (int i = 0; i < order.length; i++) order[i] = i;
      if (shuffle) {
        Random r = new Random(seed ^ (epoch * 0x9E3779B97F4A7C15L) ^ ((long) partition << 32));
        for (int i = order.length - 1; i > 0; i--) {
          int j = r.nextInt(i + 1), t = order[i];
          order[i] = order[j];
          order[j] = t;
        }
      }
      orderEpoch = epoch;
    }
    return order;
  }

  /** Copies {@code from} into the start of {@code to}. */
  static void set(FloatArray to, float[] from) {
    if (from.length > 0) MemorySegment.copy(from, 0, to.getSegment(), java.lang.foreign.ValueLayout.JAVA_FLOAT, 0, from.length);
  }

  private static float[] get(FloatArray from, int n) {
    float[] a = new float[n];
    MemorySegment.copy(from.getSegment(), java.lang.foreign.ValueLayout.JAVA_FLOAT, 0, a, 0, n);
    return a;
  }

  @Override
  public void close() {
    if (gradients != null) gradients.close();
    if (step != null) step.close();
  }
}
