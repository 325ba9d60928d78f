// A BERT-style encoder's forward pass as one device-resident task graph: token ids in, mean-pooled L2-normalised embeddings out.
package dev.loopjit.nn;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Device;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.ImmutableTaskGraph;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs an encoder of {@link EncoderShape} over token id sequences, {@code batch} sequences per
 * execution, and returns one embedding per sequence: the mean of its last hidden states over its
 * tokens, divided by its length (sentence-transformers' mean pooling and normalisation). The
 * weights are copied to the device once; each execution copies in the batch's ids and mask and
 * copies out B·D floats. Sequences are padded to the next power of two (at least 8) of the
 * longest in their batch, and a batch of fewer sequences to the next power of two of their count,
 * one graph (and one copy of the weights) per such shape, built when first needed. Sequences are
 * batched longest first, so that little padding is computed, and returned in the caller's order.
 *
 * <pre>{@code
 * try (TransformerEncoder encoder = new TransformerEncoder(shape, weights, Devices.best(), 32)) {
 *   float[][] embeddings = encoder.encode(List.of(new int[] {101, 7592, 2088, 102}));
 * }
 * }</pre>
 */
public final class TransformerEncoder implements AutoCloseable {
  private final EncoderShape shape;
  private final FloatArray params;
  private final Device device;
  private final int batch;
  private final boolean naiveDense;
  private final Map<List<Integer>, Run> runs = new LinkedHashMap<>();

  /**
   * @param params the weights laid out as {@link EncoderShape} says ({@link EncoderShape#parameters()} floats)
   * @param batch sequences per execution
   */
  public TransformerEncoder(EncoderShape shape, FloatArray params, Device device, int batch) {
    if (params.getSize() != shape.parameters())
      throw new IllegalArgumentException("the encoder takes " + shape.parameters() + " parameters; the array holds " + params.getSize());
    if (batch <= 0) throw new IllegalArgumentException("an encoder needs at least one sequence per batch, not " + batch);
    this.shape = shape;
    this.params = params;
    this.device = device;
    this.batch = batch;
    naiveDense = LayerSite.kernelsFor(device) == Device.Kind.CPU;
  }

  /** The encoder's sizes. */
  public EncoderShape shape() {
    return shape;
  }

  /**
   * One embedding (D floats, length 1) per sequence, in the order given. Each sequence is token
   * ids, special tokens included, 1 to {@link EncoderShape#positions()} of them, each in
   * [0, vocabulary); all token type ids are 0. Checked before anything runs.
   */
  public float[][] encode(List<int[]> sequences) {
    for (int s = 0; s < sequences.size(); s++) {
      int[] ids = sequences.get(s);
      if (ids.length == 0 || ids.length > shape.positions())
        throw new IllegalArgumentException("sequence " + s + " has " + ids.length + " tokens; the encoder takes 1 to " + shape.positions());
      for (int t = 0; t < ids.length; t++)
        if (ids[t] < 0 || ids[t] >= shape.vocabulary())
          throw new IllegalArgumentException("sequence " + s + ", token " + t + ": id " + ids[t] + " is outside the vocabulary [0, " + shape.vocabulary()
              + ")");
    }
    Integer[] order = new Integer[sequences.size()];
    for (int i = 0; i < order.length; i++) order[i] = i;
    Arrays.sort(order, Comparator.comparingInt((Integer i) -> -sequences.get(i).length).thenComparingInt(i -> i));
    float[][] out = new float[sequences.size()][];
    for (int from = 0; from < order.length; from += batch) {
      int count = Math.min(batch, order.length - from);
      Run run = run(tokensFor(sequences.get(order[from]).length), rowsFor(count));
      float[] embeddings = run.execute(sequences, order, from, count);
      for (int b = 0; b < count; b++) out[order[from + b]] = Arrays.copyOfRange(embeddings, b * shape.hidden(), (b + 1) * shape.hidden());
    }
    return out;
  }

  /** The padded length a batch whose longest sequence has {@code longest} tokens runs at. */
  int tokensFor(int longest) {
    int t = 8;
    while (t < longest) t *= 2;
    return Math.min(t, shape.positions());
  }

  /** The sequences a batch of {@code count} runs as: the next power of two, at most the batch size. */
  int rowsFor(int count) {
    int r = 1;
    while (r < count) r *= 2;
    return Math.min(r, batch);
  }

  /** The task graph for a full batch padded to {@code tokens} tokens (built if needed): for dumps and profiles. */
  public ImmutableTaskGraph graph(int tokens) {
    return run(tokensFor(tokens), batch).graph;
  }

  private Run run(int tokens, int rows) {
    return runs.computeIfAbsent(List.of(tokens, rows), k -> new Run(tokens, rows));
  }

  /** One padded length's and batch size's arrays, graph and plan. */
  private final class Run {
    final int tokens, batch;
    final IntArray ids, types, mask;
    final FloatArray embeddings;
    final ImmutableTaskGraph graph;
    final ExecutionPlan plan;

    Run(int tokens, int batch) {
      this.tokens = tokens;
      this.batch = batch;
      int n = batch * tokens, d = shape.hidden(), f = shape.intermediate(), h = shape.heads();
      ids = new IntArray(n);
      types = new IntArray(n);
      mask = new IntArray(n);
      embeddings = new FloatArray(batch * d);
      FloatArray x = new FloatArray(n * d), a = new FloatArray(n * d), stats = new FloatArray(2 * n), qkv = new FloatArray(n * 3 * d);
      FloatArray scores = new FloatArray(batch * h * tokens * tokens), context = new FloatArray(n * d);
      FloatArray up = new FloatArray(n * f), gelu = new FloatArray(n * f);
      float scale = (float) Math.sqrt(shape.headSize());
      TaskGraph g = new TaskGraph("encode" + tokens);
      g.transferToDevice(DataTransferMode.FIRST_EXECUTION, params).transferToDevice(DataTransferMode.EVERY_EXECUTION, ids, types, mask);
      g.task("embed", TransformerKernels::embed, ids, types, params, shape.word(), shape.position(), shape.type(), a, n, tokens, d);
      norm(g, "embed", a, stats, shape.embeddingNorm(), x, n);
      for (int l = 0; l < shape.layers(); l++) {
        EncoderShape.Block w = shape.block(l);
        String p = "L" + l + "_";
        dense(g, p + "qkv", x, w.qkv(), w.qkvBias(), qkv, n, d, 3 * d);
        g.task(p + "scores", TransformerKernels::attentionScores, qkv, scores, batch, tokens, d, h, scale)
            .task(p + "softmax", TransformerKernels::attentionSoftmax, scores, mask, batch, tokens, h)
            .task(p + "context", TransformerKernels::attentionContext, scores, qkv, context, batch, tokens, d, h);
        dense(g, p + "attention_out", context, w.output(), w.outputBias(), a, n, d, d);
        g.task(p + "attention_residual", TransformerKernels::residualAdd, x, a, n * d);
        norm(g, p + "attention", a, stats, w.attentionNorm(), x, n);
        dense(g, p + "up", x, w.up(), w.upBias(), up, n, d, f);
        g.task(p + "gelu", TransformerKernels::geluErfForward, up, gelu, n * f);
        dense(g, p + "down", gelu, w.down(), w.downBias(), a, n, f, d);
        g.task(p + "output_residual", TransformerKernels::residualAdd, x, a, n * d);
        norm(g, p + "output", a, stats, w.outputNorm(), x, n);
      }
      g.task("mean_pool", TransformerKernels::meanPool, x, mask, embeddings, batch, tokens, d)
          .task("normalize", TransformerKernels::l2Normalize, embeddings, batch, d)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, embeddings);
      graph = g.snapshot();
      plan = new ExecutionPlan(graph).withDevice(device);
    }

    private void dense(TaskGraph g, String id, FloatArray in, int w, int bias, FloatArray out, int rows, int inputs, int outputs) {
      if (naiveDense) g.task(id, DenseKernels::denseForwardNaive, in, params, w, bias, out, rows, inputs, outputs);
      else g.task(id, DenseKernels::denseForward, in, params, w, bias, out, rows, inputs, outputs);
    }

    private void norm(TaskGraph g, String id, FloatArray in, FloatArray stats, int gamma, FloatArray out, int rows) {
      g.task(id + "_norm_stats", NormKernels::layerNormStats, in, stats, rows, shape.hidden(), shape.eps())
          .task(id + "_norm", NormKernels::layerNormForward, in, stats, params, gamma, out, rows, shape.hidden());
    }

    float[] execute(List<int[]> sequences, Integer[] order, int from, int count) {
      for (int b = 0; b < batch; b++) {
        int[] seq = b < count ? sequences.get(order[from + b]) : new int[0];
        for (int t = 0; t < tokens; t++) {
          boolean token = t < seq.length;
          ids.set(b * tokens + t, token ? seq[t] : 0);
          mask.set(b * tokens + t, token ? 1 : 0);
        }
      }
      plan.execute();
      return embeddings.toArray();
    }
  }

  /** Every graph built so far, as (padded length, sequences per execution). */
  public List<List<Integer>> graphsBuilt() {
    return new ArrayList<>(runs.keySet());
  }

  @Override
  public void close() {
    for (Run r : runs.values()) r.plan.close();
    runs.clear();
  }
}
