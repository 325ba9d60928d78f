// JMH: one training step of the MLP (784 → 256 → 10) or the CNN (FashionMnist.cnn()), batch 128, softmax cross-entropy, Adam, on the jvm and each device.
package dev.loopjit.bench;

import dev.loopjit.api.Devices;
import dev.loopjit.nn.Dataset;
import dev.loopjit.nn.FashionMnist;
import dev.loopjit.nn.Layer;
import dev.loopjit.nn.Loss;
import dev.loopjit.nn.Optimizer;
import dev.loopjit.nn.Sequential;
import dev.loopjit.nn.TrainingStep;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The time of {@link TrainingStep#run}: gather 128 rows from a dataset resident on the device,
 * forward, loss, backward, Adam update, and the loss back to the host — the whole step as one
 * task graph, as {@code loopjit train --dataset fashion-mnist} runs it. The data are random
 * images of Fashion-MNIST's shape (4,096 rows), so the benchmark needs no dataset. {@code jvm} is
 * the baseline: the same Java methods, run by the JVM.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar TrainingStepBenchmark                       # jvm, jvm-mt, opencl:0
 * java -jar benchmarks/target/benchmarks.jar TrainingStepBenchmark -p device=jvm,cuda:0  # on a GPU host
 * java -jar benchmarks/target/benchmarks.jar TrainingStepBenchmark -p model=cnn          # the convolutional network only
 * </pre>
 * (with {@code LD_PRELOAD=$JAVA_HOME/lib/libjsig.so} where PoCL is loaded; forks inherit it.)
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {DevicePlan.NATIVE_ACCESS, DevicePlan.VECTOR})
public class TrainingStepBenchmark {
  static final int ROWS = 4096, BATCH = 128, PIXELS = 784, HIDDEN = 256, CLASSES = 10;

  @Param({"jvm", "jvm-mt", "opencl:0"})
  public String device;

  /** {@code mlp}: 784 → 256 (ReLU) → 10; {@code cnn}: {@code FashionMnist.cnn()}, two convolutions, pools, dense 128, dropout. */
  @Param({"mlp", "cnn"})
  public String model;

  /** Rows per step: 128, the figure of every table; gpu-verify's rehearsal on the simulated device passes a few. */
  @Param({"128"})
  public int batch;

  private TrainingStep step;
  private int[] order;
  private int from;

  static Dataset images() {
    Random r = new Random(1);
    FloatArray x = new FloatArray(ROWS * PIXELS);
    IntArray y = new IntArray(ROWS);
    for (int i = 0; i < ROWS; i++) {
      y.set(i, r.nextInt(CLASSES));
      for (int j = 0; j < PIXELS; j++) x.set(i * PIXELS + j, r.nextFloat());
    }
    return Dataset.labelled("random images", x, PIXELS, y, CLASSES);
  }

  private Sequential model() {
    return model(model);
  }

  /** The model named {@code model} ({@code mlp} or {@code cnn}), initialised with seed 42. */
  static Sequential model(String model) {
    return switch (model) {
      case "mlp" -> Sequential.of(PIXELS, Layer.dense(HIDDEN), Layer.relu(), Layer.dense(CLASSES)).initialize(42);
      case "cnn" -> FashionMnist.cnn().initialize(42);
      default -> throw new IllegalArgumentException("model mlp or cnn, not " + model);
    };
  }

  @Setup(Level.Trial)
  public void setup() {
    Dataset data = images();
    order = new int[ROWS];
    for (int i = 0; i < ROWS; i++) order[i] = (int) ((i * 2654435761L) % ROWS);   // a fixed permutation: 2654435761 is odd, ROWS a power of 2
    validate(data);
    step = model().trainingStep(data, batch, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(1e-3f), Devices.get(device));
    step.run(order, 0, batch);          // compile before measuring: JMH's warm-up then sees steady steps only
  }

  /** Two steps on this device must give the jvm's losses and parameters, or nothing is timed. */
  private void validate(Dataset data) {
    Sequential reference = model(), candidate = model();
    float[] expected = new float[2], actual = new float[2];
    try (TrainingStep jvm = reference.trainingStep(data, batch, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(1e-3f), Devices.jvm());
         TrainingStep dev = candidate.trainingStep(data, batch, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(1e-3f), Devices.get(device))) {
      for (int s = 0; s < 2; s++) {
        expected[s] = jvm.run(order, s * batch, batch);
        actual[s] = dev.run(order, s * batch, batch);
      }
      jvm.pullParameters();
      dev.pullParameters();
    }
    for (int s = 0; s < 2; s++)
      if (Math.abs(expected[s] - actual[s]) > 1e-4 * Math.abs(expected[s]))
        throw new IllegalStateException(device + ": step " + s + " loss " + actual[s] + ", the jvm's " + expected[s]);
    for (int i = 0; i < reference.parameterCount(); i++) {
      float e = reference.parameters().get(i), a = candidate.parameters().get(i);
      if (Math.abs(e - a) > 1e-5 + 1e-3 * Math.abs(e))
        throw new IllegalStateException(device + ": parameter " + i + " is " + a + " after two steps, the jvm's " + e);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    step.close();
  }

  /** One step on the next 128 rows of the permutation; returns the loss so that nothing is optimised away. */
  @Benchmark
  public float step() {
    float loss = step.run(order, from, batch);
    from = from + 2 * batch > ROWS ? 0 : from + batch;
    return loss;
  }
}
