// A BERT-style encoder's forward pass as one device-resident task graph: token ids in, mean-pooled L2-normalised embeddings out.
package dev.loopjit.nn;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Device;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.ExecutionResult;
import dev.loopjit.api.ImmutableTaskGraph;
import dev.loopjit.api.Profile;
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
 * Runs an encoder of {@link EncoderShape} over token id sequences and returns one embedding per
 * sequence: the mean of its last hidden states over its tokens, divided by its length
 * (sentence-transformers' mean pooling and normalisation). Sequences go longest first into
 * batches of at most {@code batch} sequences and {@link #maxRows()} tokens; a batch's tokens are
 * packed one sequence after another into N rows, N the next power of two of their count (at
 * least 32), the rest padding, so that a batch costs about what its tokens cost, whatever their
 * lengths. One task graph per N, built when first needed: the weights are copied to the device once
 * per graph; each execution copies in the rows' token ids, positions and sequences and copies out
 * B·D floats. Embeddings come back in the caller's order.
 *
 * <pre>{@code
 * try (TransformerEncoder encoder = new TransformerEncoder(shape, weights, Devices.best(), 32)) {
 *   float[][] embeddings = encoder.encode(List.of(new int[] {101, 7592, 2088, 102}));
 * }
 * }</pre>
 */
public final class TransformerEncoder implements AutoCloseable {
  /** The longest sequence the four-argument constructor takes, where the position table is longer (sentence-transformers' limit for BERT). */
  public static final int DEFAULT_MAX_TOKENS = 256;

  private final EncoderShape shape;
  private final FloatArray params;
  private final Device device;
  private final int batch, maxTokens, maxRows;
  private final boolean naiveDense;
  private final Map<Integer, Run> runs = new LinkedHashMap<>();
  private boolean profiling;
  /** Under the profiler: kernel time per kind of task (the layer prefix dropped), and the executions' wall time, copies and JIT. */
  private final Map<String, Long> kernelNanos = new LinkedHashMap<>();
  private long wallNanos, copyNanos, compileNanos, executions;

  /** Rows a batch fills before it starts a new one, where the sequences allow (a power of two). */
  static final int ROWS = 4096;

  /** An encoder taking sequences of up to min(positions, {@value #DEFAULT_MAX_TOKENS}) tokens. */
  public TransformerEncoder(EncoderShape shape, FloatArray params, Device device, int batch) {
    this(shape, params, device, batch, Math.min(shape.positions(), DEFAULT_MAX_TOKENS));
  }

  /**
   * @param params the weights laid out as {@link EncoderShape} says ({@link EncoderShape#parameters()} floats)
   * @param batch sequences per execution
   * @param maxTokens the longest sequence taken, at most the shape's positions; sizes the buffers
   */
  public TransformerEncoder(EncoderShape shape, FloatArray params, Device device, int batch, int maxTokens) {
    if (params.getSize() != shape.parameters())
      throw new IllegalArgumentException("the encoder takes " + shape.parameters() + " parameters; the array holds " + params.getSize());
    if (batch <= 0) throw new IllegalArgumentException("an encoder needs at least one sequence per batch, not " + batch);
    if (maxTokens <= 0 || maxTokens > shape.positions())
      throw new IllegalArgumentException("maxTokens " + maxTokens + " is not within the " + shape.positions() + " positions the encoder knows");
    this.shape = shape;
    this.params = params;
    this.device = device;
    this.batch = batch;
    this.maxTokens = maxTokens;
    maxRows = rowsFor(Math.max(maxTokens, Math.min(batch * maxTokens, ROWS)));
    // The naive dense kernel on OpenCL CPUs, whose compiler coarsens it (76 GFLOP/s on PoCL for 2048 × 384 → 1536 against 16 for
    // the tiles); the 4×4 tiles on GPUs and on the JVM devices (20 against 12 GFLOP/s on jvm-mt).
    naiveDense = device.kind() == Device.Kind.CPU;
  }

  /** Times every execution from now on (each task's kernel, the copies, the JIT), for {@link #profileReport()}; before the first {@link #encode}. */
  public TransformerEncoder withProfiler() {
    if (!runs.isEmpty()) throw new IllegalStateException("withProfiler() goes before the first encode");
    profiling = true;
    return this;
  }

  /**
   * Where the profiled executions' time went: each kind of task's kernel time summed over the
   * layers and executions (largest first), the copies, the JIT, and the rest of the wall time.
   */
  public String profileReport() {
    if (!profiling) throw new IllegalStateException("no profile: call withProfiler() first");
    StringBuilder s = new StringBuilder(String.format("%d executions, %.1f ms wall:%n", executions, wallNanos / 1e6));
    long kernels = kernelNanos.values().stream().mapToLong(Long::longValue).sum();
    kernelNanos.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
        .forEach(e -> s.append(String.format("  %-22s %10.1f ms %5.1f %%%n", e.getKey(), e.getValue() / 1e6, 100.0 * e.getValue() / wallNanos)));
    s.append(String.format("  %-22s %10.1f ms %5.1f %%%n", "kernels", kernels / 1e6, 100.0 * kernels / wallNanos));
    s.append(String.format("  %-22s %10.1f ms%n  %-22s %10.1f ms%n", "copies", copyNanos / 1e6, "JIT", compileNanos / 1e6));
    s.append(String.format("  %-22s %10.1f ms%n", "the rest", (wallNanos - kernels - copyNanos - compileNanos) / 1e6));
    return s.toString();
  }

  /** The encoder's sizes. */
  public EncoderShape shape() {
    return shape;
  }

  /**
   * One embedding (D floats, length 1) per sequence, in the order given. Each sequence is token
   * ids, special tokens included, 1 to {@link #maxTokens()} of them, each in [0, vocabulary); all
   * token type ids are 0. Checked before anything runs.
   */
  public float[][] encode(List<int[]> sequences) {
    check(sequences, maxTokens, shape.vocabulary());
    Integer[] order = new Integer[sequences.size()];
    for (int i = 0; i < order.length; i++) order[i] = i;
    Arrays.sort(order, Comparator.comparingInt((Integer i) -> -sequences.get(i).length).thenComparingInt(i -> i));
    float[][] out = new float[sequences.size()][];
    for (int from = 0; from < order.length;) {
      int count = 0, tokens = 0;
      while (from + count < order.length && count < batch && tokens + sequences.get(order[from + count]).length <= maxRows)
        tokens += sequences.get(order[from + count++]).length;
      float[] embeddings = run(rowsFor(tokens)).execute(sequences, order, from, count);
      for (int b = 0; b < count; b++) out[order[from + b]] = Arrays.copyOfRange(embeddings, b * shape.hidden(), (b + 1) * shape.hidden());
      from += count;
    }
    return out;
  }

  /** Refuses, naming it, a sequence of no tokens or more than {@code maxTokens}, or with an id outside [0, vocabulary). */
  static void check(List<int[]> sequences, int maxTokens, int vocabulary) {
    for (int s = 0; s < sequences.size(); s++) {
      int[] ids = sequences.get(s);
      if (ids == null) throw new IllegalArgumentException("sequence " + s + " is null");
      if (ids.length == 0 || ids.length > maxTokens)
        throw new IllegalArgumentException("sequence " + s + " has " + ids.length + " tokens; the encoder takes 1 to " + maxTokens);
      for (int t = 0; t < ids.length; t++)
        if (ids[t] < 0 || ids[t] >= vocabulary)
          throw new IllegalArgumentException("sequence " + s + ", token " + t + ": id " + ids[t] + " is outside the vocabulary [0, " + vocabulary + ")");
    }
  }

  /** The rows a batch of {@code tokens} tokens runs as: the next power of two, at least 32. */
  static int rowsFor(int tokens) {
    int r = 32;
    while (r < tokens) r *= 2;
    return r;
  }

  /** The longest sequence taken. */
  public int maxTokens() {
    return maxTokens;
  }

  /** The most tokens a batch holds. */
  public int maxRows() {
    return maxRows;
  }

  /** The task graph of the largest batch (built if needed): for dumps and profiles. */
  public ImmutableTaskGraph graph() {
    return run(maxRows).graph;
  }

  private Run run(int rows) {
    return runs.computeIfAbsent(rows, Run::new);
  }

  /** One row count's arrays, graph and plan. */
  private final class Run {
    final int rows;
    final IntArray ids, types, positions, first, length, starts;
    final FloatArray embeddings;
    final ImmutableTaskGraph graph;
    final ExecutionPlan plan;

    Run(int rows) {
      this.rows = rows;
      int n = rows, t = maxTokens, d = shape.hidden(), f = shape.intermediate(), h = shape.heads();
      ids = new IntArray(n);
      types = new IntArray(n);
      positions = new IntArray(n);
      first = new IntArray(n);
      length = new IntArray(n);
      starts = new IntArray(batch + 1);
      embeddings = new FloatArray(batch * d);
      FloatArray x = new FloatArray(n * d), a = new FloatArray(n * d), qkv = new FloatArray(n * 3 * d);
      FloatArray scores = new FloatArray(h * n * t), context = new FloatArray(n * d);
      FloatArray up = new FloatArray(n * f), gelu = new FloatArray(n * f);
      float scale = (float) Math.sqrt(shape.headSize());
      TaskGraph g = new TaskGraph("encode" + n);
      g.transferToDevice(DataTransferMode.FIRST_EXECUTION, params)
          .transferToDevice(DataTransferMode.EVERY_EXECUTION, ids, types, positions, first, length, starts);
      g.task("embed", TransformerKernels::embedRows, ids, types, positions, params, shape.word(), shape.position(), shape.type(), a, n, d);
      norm(g, "embed_norm", a, shape.embeddingNorm(), x);
      for (int l = 0; l < shape.layers(); l++) {
        EncoderShape.Block w = shape.block(l);
        String p = "L" + l + "_";
        linear(g, p + "qkv", x, w.qkv(), w.qkvBias(), qkv, d, 3 * d);
        g.task(p + "attention", TransformerKernels::attentionRows, qkv, first, length, scores, context, n, t, d, h, scale);
        linear(g, p + "attention_out", context, w.output(), w.outputBias(), a, d, d);
        g.task(p + "attention_residual", TransformerKernels::residualAdd, x, a, n * d);
        norm(g, p + "attention_norm", a, w.attentionNorm(), x);
        linear(g, p + "up", x, w.up(), w.upBias(), up, d, f);
        g.task(p + "gelu", TransformerKernels::geluErfForward, up, gelu, n * f);
        linear(g, p + "down", gelu, w.down(), w.downBias(), a, f, d);
        g.task(p + "output_residual", TransformerKernels::residualAdd, x, a, n * d);
        norm(g, p + "output_norm", a, w.outputNorm(), x);
      }
      g.task("mean_pool", TransformerKernels::meanPoolRows, x, starts, embeddings, batch, d)
          .task("normalize", TransformerKernels::l2Normalize, embeddings, batch, d)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, embeddings);
      graph = g.snapshot();
      plan = new ExecutionPlan(graph).withDevice(device);
      if (profiling) plan.withProfiler();
    }

    private void linear(TaskGraph g, String id, FloatArray in, int w, int bias, FloatArray out, int inputs, int outputs) {
      if (naiveDense) g.task(id, DenseKernels::denseForwardNaive, in, params, w, bias, out, rows, inputs, outputs);
      else g.task(id, DenseKernels::denseForward, in, params, w, bias, out, rows, inputs, outputs);
    }

    private void norm(TaskGraph g, String id, FloatArray in, int gamma, FloatArray out) {
      g.task(id, TransformerKernels::layerNormRows, in, params, gamma, out, rows, shape.hidden(), shape.eps());
    }

    /** Packs sequences {@code order[from … from + count)} into the rows, runs the graph, and returns their embeddings. */
    float[] execute(List<int[]> sequences, Integer[] order, int from, int count) {
      int r = 0;
      for (int b = 0; b < batch; b++) {
        starts.set(b, r);
        int[] seq = b < count ? sequences.get(order[from + b]) : new int[0];
        for (int i = 0; i < seq.length; i++, r++) {
          ids.set(r, seq[i]);
          positions.set(r, i);
          first.set(r, r - i);
          length.set(r, seq.length);
        }
      }
      starts.set(batch, r);
      for (; r < rows; r++) {
        ids.set(r, 0);
        positions.set(r, 0);
        first.set(r, r);
        length.set(r, 0);
      }
      long t0 = System.nanoTime();
      ExecutionResult result = plan.execute();
      if (profiling) {
        wallNanos += System.nanoTime() - t0;
        executions++;
        Profile p = result.profile();
        copyNanos += p.copyInNanos() + p.copyOutNanos();
        compileNanos += p.compileNanos() + p.driverCompileNanos();
        for (Profile.TaskTime tt : p.tasks())
          kernelNanos.merge(tt.task().substring(tt.task().indexOf('.') + 1).replaceFirst("^L\\d+_", ""), tt.kernelNanos(), Long::sum);
      }
      return embeddings.toArray();
    }
  }

  /** The row counts of the graphs built so far, in the order they were built. */
  public List<Integer> graphsBuilt() {
    return new ArrayList<>(runs.keySet());
  }

  @Override
  public void close() {
    for (Run r : runs.values()) r.plan.close();
    runs.clear();
  }
}
