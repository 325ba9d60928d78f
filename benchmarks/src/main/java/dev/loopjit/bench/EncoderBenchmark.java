// JMH: a BERT encoder's forward pass (all-MiniLM-L6-v2's shape, random weights) over a batch of sentences, on the jvm and each device.
package dev.loopjit.bench;

import dev.loopjit.api.Devices;
import dev.loopjit.nn.EncoderShape;
import dev.loopjit.nn.TransformerEncoder;
import dev.loopjit.types.FloatArray;
import java.util.ArrayList;
import java.util.List;
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
 * The time of {@link TransformerEncoder#encode} for {@code sentences} sentences of {@code tokens}
 * tokens each: the whole forward pass (embeddings, 6 blocks of attention and feed-forward, mean
 * pooling, normalisation) as one task graph, the weights resident on the device, the token ids in
 * and the embeddings out — what {@code loopjit embed} runs per batch, with random weights of the
 * real model's shape so that no model file is needed (the embeddings module checks the real model
 * against ONNX Runtime). {@code shape=tiny} is a 2-layer, 32-feature encoder for the simulated
 * device. Before timing, the device's embeddings must equal the jvm's (jvm-mt's, for speed, when
 * another device is measured) within 1e-5.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar EncoderBenchmark                          # jvm, jvm-mt, opencl:0
 * java -jar benchmarks/target/benchmarks.jar EncoderBenchmark -p device=cuda:0,jvm-mt  # on a GPU host
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {DevicePlan.NATIVE_ACCESS, DevicePlan.VECTOR})
public class EncoderBenchmark {
  @Param({"jvm", "jvm-mt", "opencl:0"})
  public String device;

  /** {@code minilm}: all-MiniLM-L6-v2's (6 layers, 384 features, 12 heads, 1536 wide); {@code tiny}: 2 layers, 32 features, 4 heads. */
  @Param({"minilm"})
  public String shape;

  @Param({"32"})
  public int sentences;

  @Param({"64"})
  public int tokens;

  private TransformerEncoder encoder;
  private List<int[]> batch;

  private EncoderShape encoderShape() {
    return switch (shape) {
      case "minilm" -> new EncoderShape(30522, 512, 2, 384, 12, 1536, 6, 1e-12f);
      case "tiny" -> new EncoderShape(100, 64, 2, 32, 4, 64, 2, 1e-12f);
      default -> throw new IllegalArgumentException("shape minilm or tiny, not " + shape);
    };
  }

  /** Random weights of a trained model's scale: ±0.05, LayerNorm's γ near 1. */
  private static FloatArray weights(EncoderShape s) {
    Random r = new Random(7);
    FloatArray p = new FloatArray(s.parameters());
    for (int i = 0; i < p.getSize(); i++) p.set(i, (r.nextFloat() - 0.5f) * 0.1f);
    List<Integer> norms = new ArrayList<>(List.of(s.embeddingNorm()));
    for (int l = 0; l < s.layers(); l++) norms.addAll(List.of(s.block(l).attentionNorm(), s.block(l).outputNorm()));
    for (int g : norms)
      for (int i = 0; i < s.hidden(); i++) p.set(g + i, 1f + p.get(g + i));
    return p;
  }

  @Setup(Level.Trial)
  public void setup() {
    EncoderShape s = encoderShape();
    Random r = new Random(3);
    batch = new ArrayList<>();
    for (int b = 0; b < sentences; b++) {
      int[] ids = new int[tokens];
      for (int t = 0; t < tokens; t++) ids[t] = r.nextInt(s.vocabulary());
      batch.add(ids);
    }
    FloatArray params = weights(s);
    encoder = new TransformerEncoder(s, params, Devices.get(device), sentences, Math.max(tokens, 8));
    float[][] actual = encoder.encode(batch);
    // The reference: the jvm's own loops; for speed jvm-mt stands in for it (equal within 1e-5 in nn-layers' tests) unless it is measured.
    String reference = device.equals("jvm-mt") || device.equals("jvm") ? "jvm" : "jvm-mt";
    try (TransformerEncoder ref = new TransformerEncoder(s, params, Devices.get(reference), sentences, Math.max(tokens, 8))) {
      float[][] expected = ref.encode(batch);
      for (int b = 0; b < sentences; b++)
        for (int i = 0; i < s.hidden(); i++)
          if (Math.abs(expected[b][i] - actual[b][i]) > 1e-5)
            throw new IllegalStateException(device + ": sentence " + b + " feature " + i + " is " + actual[b][i] + ", " + reference + "'s " + expected[b][i]);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    encoder.close();
  }

  /** One batch through the encoder; returns an embedding value so that nothing is optimised away. */
  @Benchmark
  public float encode() {
    return encoder.encode(batch)[0][0];
  }
}
