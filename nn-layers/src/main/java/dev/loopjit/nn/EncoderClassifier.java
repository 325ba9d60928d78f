// A classification head on a pretrained encoder's sentence embedding, fine-tuned with the encoder's last blocks: one task graph per step, on the device.
package dev.loopjit.nn;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Device;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.ExecutionResult;
import dev.loopjit.api.ImmutableTaskGraph;
import dev.loopjit.api.Profile;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Sentence classification on top of an encoder of {@link EncoderShape}: the sentence embedding
 * (mean pooling, L2 normalisation, as {@link TransformerEncoder} computes it) goes through a linear
 * head to the classes' logits, softmax cross-entropy is the loss, and a training step updates the
 * head and the encoder's last {@link FineTuning#layers()} blocks. The whole step — embeddings, every
 * block's forward, the head, the loss, the backward passes of the head, the L2 norm, the pooling and
 * the trained blocks (LayerNorm, feed-forward, GELU, attention), and both optimizers' updates — is
 * one task graph; the weights and optimizer state stay on the device, and per step the host sends
 * the batch's token ids, mask and labels and receives its summed loss.
 *
 * <p>Sequences are padded to {@link FineTuning#maxTokens()} tokens ({@link TransformerKernels}'
 * padded layout, whose results equal the packed one's bit for bit). The encoder's weights are not
 * changed: the trained blocks are a copy, {@link #encoderParameters()} puts them back into a new
 * array for a {@link TransformerEncoder}. The parameters come out equal bit for bit on every device.
 *
 * <pre>{@code
 * try (EncoderClassifier c = new EncoderClassifier(shape, weights, Devices.best(), FineTuning.classes(2))) {
 *   for (int epoch = 0; epoch < 3; epoch++)
 *     for (int from = 0; from < train.size(); from += 16)
 *       c.train(train.subList(from, Math.min(from + 16, train.size())), labels(from));
 *   int[] predicted = c.predict(test);
 * }
 * }</pre>
 */
public final class EncoderClassifier implements AutoCloseable {
  private final EncoderShape shape;
  private final FineTuning settings;
  private final Device device;
  private final FloatArray params, blocks, head;
  /** The first trained block, and where its weights start in the encoder's array. */
  private final int frozen, tail;
  private final boolean naiveDense;
  private final Step step;
  private Forward forward;
  /** Whether the device's trained weights are newer than the host's copies. */
  private boolean trainedSincePull;

  /**
   * @param params the encoder's weights as {@link EncoderShape} lays them out; read, never changed
   */
  public EncoderClassifier(EncoderShape shape, FloatArray params, Device device, FineTuning settings) {
    if (params.getSize() != shape.parameters())
      throw new IllegalArgumentException("the encoder takes " + shape.parameters() + " parameters; the array holds " + params.getSize());
    if (settings.layers() > shape.layers())
      throw new IllegalArgumentException("cannot train the last " + settings.layers() + " blocks of an encoder of " + shape.layers());
    if (settings.maxTokens() > shape.positions())
      throw new IllegalArgumentException("maxTokens " + settings.maxTokens() + " is more than the " + shape.positions() + " positions the encoder knows");
    this.shape = shape;
    this.settings = settings;
    this.device = device;
    this.params = params;
    frozen = shape.layers() - settings.layers();
    tail = frozen < shape.layers() ? shape.block(frozen).qkv() : shape.parameters();
    blocks = new FloatArray(Math.max(shape.parameters() - tail, 1));
    for (int i = tail; i < shape.parameters(); i++) blocks.set(i - tail, params.get(i));
    int d = shape.hidden(), c = settings.classes();
    head = new FloatArray(c * d + c);
    // Xavier-uniform weights, zero biases, as Layer.dense's
    Random random = new Random(settings.seed());
    double limit = Math.sqrt(6.0 / (d + c));
    for (int i = 0; i < c * d; i++) head.set(i, (float) ((2 * random.nextDouble() - 1) * limit));
    naiveDense = device.kind() == Device.Kind.CPU;
    step = new Step();
  }

  /** The encoder's sizes. */
  public EncoderShape shape() {
    return shape;
  }

  /** The device it trains and classifies on. */
  public Device device() {
    return device;
  }

  /** The settings it was made with. */
  public FineTuning settings() {
    return settings;
  }

  /**
   * One training step on up to {@link FineTuning#batch()} sequences (token ids, special tokens
   * included) and their labels: returns their mean loss before the update. Checked before anything runs.
   */
  public float train(List<int[]> sequences, int[] labels) {
    if (sequences.isEmpty() || sequences.size() > settings.batch())
      throw new IllegalArgumentException("a training step takes 1 to " + settings.batch() + " sequences, not " + sequences.size());
    if (labels.length != sequences.size())
      throw new IllegalArgumentException(sequences.size() + " sequences but " + labels.length + " labels");
    for (int i = 0; i < labels.length; i++)
      if (labels[i] < 0 || labels[i] >= settings.classes())
        throw new IllegalArgumentException("label " + i + " is " + labels[i] + "; the classes are 0 to " + (settings.classes() - 1));
    TransformerEncoder.check(sequences, settings.maxTokens(), shape.vocabulary());
    step.in.fill(sequences, 0, sequences.size());
    for (int b = 0; b < settings.batch(); b++) step.labels.set(b, b < labels.length ? labels[b] : 0);
    step.last = step.plan.execute();
    trainedSincePull = true;
    return step.lossSum.get(0) / sequences.size();
  }

  /** Each sequence's C logits (any number of sequences, run {@link FineTuning#batch()} at a time), with the weights as trained so far. */
  public float[][] logits(List<int[]> sequences) {
    TransformerEncoder.check(sequences, settings.maxTokens(), shape.vocabulary());
    if (forward == null) forward = new Forward();
    else if (trainedSincePull) forward.plan.transferToDevice(trainedArrays());
    pull();
    int c = settings.classes();
    float[][] out = new float[sequences.size()][];
    for (int from = 0; from < sequences.size(); from += settings.batch()) {
      int count = Math.min(settings.batch(), sequences.size() - from);
      forward.in.fill(sequences, from, count);
      forward.plan.execute();
      for (int b = 0; b < count; b++) {
        out[from + b] = new float[c];
        for (int k = 0; k < c; k++) out[from + b][k] = forward.pass.logits.get(b * c + k);
      }
    }
    return out;
  }

  /** Each sequence's class: its largest logit (the first, on ties). */
  public int[] predict(List<int[]> sequences) {
    float[][] logits = logits(sequences);
    int[] classes = new int[logits.length];
    for (int s = 0; s < logits.length; s++)
      for (int k = 1; k < logits[s].length; k++)
        if (logits[s][k] > logits[s][classes[s]]) classes[s] = k;
    return classes;
  }

  /** The head's weights as trained so far: W (C, D) row-major, then b (C). A copy. */
  public float[] headParameters() {
    pull();
    return head.toArray();
  }

  /** A new array of the encoder's weights with its trained blocks as trained so far: for a {@link TransformerEncoder} of the tuned model. */
  public FloatArray encoderParameters() {
    pull();
    FloatArray out = new FloatArray(shape.parameters());
    for (int i = 0; i < tail; i++) out.set(i, params.get(i));
    for (int i = tail; i < shape.parameters(); i++) out.set(i, blocks.get(i - tail));
    return out;
  }

  /** The ids of a training step's tasks, in the order they run. */
  public List<String> tasks() {
    return step.ids;
  }

  /** The training step's task graph. */
  public ImmutableTaskGraph graph() {
    return step.graph;
  }

  /** Times every training step's kernels and copies from now on, for {@link #lastProfile()}. */
  public EncoderClassifier withProfiler() {
    step.plan.withProfiler();
    return this;
  }

  /** The profile of the last training step; null before the first. */
  public Profile lastProfile() {
    return step.last == null ? null : step.last.profile();
  }

  /** The last step's gradients, the trained blocks' then the head's, copied from the device (for tests: the chain rule through the graph). */
  FloatArray[] pullGradients() {
    step.last.transferToHost(settings.layers() > 0 ? new Object[] {step.blockGrads, step.headGrads} : new Object[] {step.headGrads});
    return new FloatArray[] {step.blockGrads, step.headGrads};
  }

  /** Where the trained blocks' weights start in the encoder's array ({@link EncoderShape#parameters()} when only the head trains). */
  int tail() {
    return tail;
  }

  private void pull() {
    if (trainedSincePull) step.last.transferToHost(trainedArrays());
    trainedSincePull = false;
  }

  /** The arrays training changes: the head, and the blocks' copy where blocks train. */
  private Object[] trainedArrays() {
    return settings.layers() > 0 ? new Object[] {blocks, head} : new Object[] {head};
  }

  @Override
  public void close() {
    step.plan.close();
    if (forward != null) forward.plan.close();
  }

  /** What a graph sends per execution: B sequences of T token ids and their mask (1 for a token), the rest 0. */
  private final class Input {
    final IntArray ids, mask, count = new IntArray(1);

    Input(int rows) {
      ids = new IntArray(rows);
      mask = new IntArray(rows);
    }

    void fill(List<int[]> sequences, int from, int n) {
      int t = settings.maxTokens();
      for (int b = 0; b < settings.batch(); b++) {
        int[] seq = b < n ? sequences.get(from + b) : new int[0];
        for (int i = 0; i < t; i++) {
          ids.set(b * t + i, i < seq.length ? seq[i] : 0);
          mask.set(b * t + i, i < seq.length ? 1 : 0);
        }
      }
      count.set(0, n);
    }
  }

  /** What a trained block's forward keeps for its backward. */
  private record Saved(FloatArray in, FloatArray qkv, FloatArray scores, FloatArray context, FloatArray a1, FloatArray stats1, FloatArray h1,
      FloatArray up, FloatArray gelu, FloatArray a2, FloatArray stats2, FloatArray out) {}

  /** The forward pass added to a graph: embeddings, the frozen blocks, the trained blocks (keeping their activations), pooling, the head. */
  private final class Pass {
    final int b = settings.batch(), t = settings.maxTokens(), n = b * t, d = shape.hidden(), f = shape.intermediate(), h = shape.heads();
    final float scale = (float) Math.sqrt(shape.headSize());
    final Wiring w;
    final Input in = new Input(n);
    final IntArray types = new IntArray(n);
    final List<Saved> saved = new ArrayList<>();
    final FloatArray pooled = new FloatArray(b * d), embedding = new FloatArray(b * d), logits = new FloatArray(b * settings.classes());

    Pass(Wiring w) {
      this.w = w;
      FloatArray x = new FloatArray(n * d), a = new FloatArray(n * d);
      w.graph().task(w.id("embed"), TransformerKernels::embed, in.ids, types, params, shape.word(), shape.position(), shape.type(), a, n, t, d)
          .task(w.id("embed_norm"), TransformerKernels::layerNormRows, a, params, shape.embeddingNorm(), x, n, d, shape.eps());
      if (frozen > 0) {
        FloatArray qkv = new FloatArray(n * 3 * d), scores = new FloatArray(b * h * t * t), context = new FloatArray(n * d);
        FloatArray up = new FloatArray(n * f), gelu = new FloatArray(n * f);
        for (int l = 0; l < frozen; l++) {
          EncoderShape.Block k = shape.block(l);
          String p = "L" + l + "_";
          linear(p + "qkv", x, params, k.qkv(), k.qkvBias(), qkv, n, d, 3 * d);
          attention(p, qkv, scores, context);
          linear(p + "attention_out", context, params, k.output(), k.outputBias(), a, n, d, d);
          w.graph().task(w.id(p + "attention_residual"), TransformerKernels::residualAdd, x, a, n * d)
              .task(w.id(p + "attention_norm"), TransformerKernels::layerNormRows, a, params, k.attentionNorm(), x, n, d, shape.eps());
          linear(p + "up", x, params, k.up(), k.upBias(), up, n, d, f);
          w.graph().task(w.id(p + "gelu"), TransformerKernels::geluErfForward, up, gelu, n * f);
          linear(p + "down", gelu, params, k.down(), k.downBias(), a, n, f, d);
          w.graph().task(w.id(p + "output_residual"), TransformerKernels::residualAdd, x, a, n * d)
              .task(w.id(p + "output_norm"), TransformerKernels::layerNormRows, a, params, k.outputNorm(), x, n, d, shape.eps());
        }
      }
      for (int l = frozen; l < shape.layers(); l++) x = trainedBlock(l, x);
      // pooled twice: l2Normalize works in place, and its backward needs its input
      w.graph().task(w.id("pool"), TransformerKernels::meanPool, x, in.mask, pooled, b, t, d)
          .task(w.id("embedding"), TransformerKernels::meanPool, x, in.mask, embedding, b, t, d)
          .task(w.id("normalize"), TransformerKernels::l2Normalize, embedding, b, d);
      linear("head", embedding, head, 0, settings.classes() * d, logits, b, d, settings.classes());
    }

    private FloatArray trainedBlock(int l, FloatArray x) {
      EncoderShape.Block k = trained(l);
      String p = "L" + l + "_";
      Saved s = new Saved(x, new FloatArray(n * 3 * d), new FloatArray(b * h * t * t), new FloatArray(n * d), new FloatArray(n * d),
          new FloatArray(2 * n), new FloatArray(n * d), new FloatArray(n * f), new FloatArray(n * f), new FloatArray(n * d), new FloatArray(2 * n),
          new FloatArray(n * d));
      linear(p + "qkv", x, blocks, k.qkv(), k.qkvBias(), s.qkv(), n, d, 3 * d);
      attention(p, s.qkv(), s.scores(), s.context());
      linear(p + "attention_out", s.context(), blocks, k.output(), k.outputBias(), s.a1(), n, d, d);
      w.graph().task(w.id(p + "attention_residual"), TransformerKernels::residualAdd, x, s.a1(), n * d);
      norm(p + "attention_norm", s.a1(), s.stats1(), k.attentionNorm(), s.h1());
      linear(p + "up", s.h1(), blocks, k.up(), k.upBias(), s.up(), n, d, f);
      w.graph().task(w.id(p + "gelu"), TransformerKernels::geluErfForward, s.up(), s.gelu(), n * f);
      linear(p + "down", s.gelu(), blocks, k.down(), k.downBias(), s.a2(), n, f, d);
      w.graph().task(w.id(p + "output_residual"), TransformerKernels::residualAdd, s.h1(), s.a2(), n * d);
      norm(p + "output_norm", s.a2(), s.stats2(), k.outputNorm(), s.out());
      saved.add(s);
      return s.out();
    }

    private void attention(String p, FloatArray qkv, FloatArray scores, FloatArray context) {
      w.graph().task(w.id(p + "attention_scores"), TransformerKernels::attentionScores, qkv, scores, b, t, d, h, scale)
          .task(w.id(p + "attention_softmax"), TransformerKernels::attentionSoftmax, scores, in.mask, b, t, h)
          .task(w.id(p + "attention_context"), TransformerKernels::attentionContext, scores, qkv, context, b, t, d, h);
    }

    private void norm(String id, FloatArray x, FloatArray stats, int gamma, FloatArray y) {
      w.graph().task(w.id(id + "_stats"), NormKernels::layerNormStats, x, stats, n, d, shape.eps())
          .task(w.id(id), NormKernels::layerNormForward, x, stats, blocks, gamma, y, n, d);
    }

    void linear(String id, FloatArray x, FloatArray weights, int at, int bias, FloatArray y, int rows, int inputs, int outputs) {
      if (naiveDense) w.graph().task(w.id(id), DenseKernels::denseForwardNaive, x, weights, at, bias, y, rows, inputs, outputs);
      else w.graph().task(w.id(id), DenseKernels::denseForward, x, weights, at, bias, y, rows, inputs, outputs);
    }
  }

  /** Trained block {@code l}'s weights' offsets in {@link #blocks}: the encoder's, less {@link #tail}. */
  private EncoderShape.Block trained(int l) {
    EncoderShape.Block k = shape.block(l);
    return new EncoderShape.Block(k.qkv() - tail, k.qkvBias() - tail, k.output() - tail, k.outputBias() - tail, k.attentionNorm() - tail,
        k.up() - tail, k.upBias() - tail, k.down() - tail, k.downBias() - tail, k.outputNorm() - tail);
  }

  /** The forward pass alone: sequences in, logits out. */
  private final class Forward {
    final Pass pass;
    final Input in;
    final ExecutionPlan plan;

    Forward() {
      Wiring w = new Wiring("classify");
      pass = new Pass(w);
      in = pass.in;
      List<Object> resident = new ArrayList<>(List.of(params, pass.types));
      resident.addAll(List.of(trainedArrays()));
      w.graph().transferToDevice(DataTransferMode.FIRST_EXECUTION, resident.toArray())
          .transferToDevice(DataTransferMode.EVERY_EXECUTION, in.ids, in.mask);
      w.graph().transferToHost(DataTransferMode.EVERY_EXECUTION, pass.logits);
      plan = new ExecutionPlan(w.graph().snapshot()).withDevice(device);
    }
  }

  /** The training step: the forward pass, the loss, the backward passes, the updates. */
  private final class Step {
    final Input in;
    final IntArray labels, allRows;
    final FloatArray lossSum = new FloatArray(1), one = FloatArray.fromElements(1f), blockGrads, headGrads;
    final List<String> ids;
    final ImmutableTaskGraph graph;
    final ExecutionPlan plan;
    ExecutionResult last;

    Step() {
      Wiring w = new Wiring("fine_tune");
      Pass p = new Pass(w);
      in = p.in;
      int b = p.b, t = p.t, n = p.n, d = p.d, f = p.f, h = p.h, c = settings.classes();
      labels = new IntArray(b);
      allRows = IntArray.fromElements(n);
      blockGrads = new FloatArray(blocks.getSize());
      headGrads = new FloatArray(head.getSize());
      OptimizerState headState = new OptimizerState(settings.head(), head.getSize()), blockState = new OptimizerState(settings.blocks(),
          blocks.getSize());
      FloatArray probs = new FloatArray(b * c), losses = new FloatArray(b), dLogits = new FloatArray(b * c);
      var g = w.graph();
      boolean blocksTrain = settings.layers() > 0;
      List<Object> resident = new ArrayList<>(List.of(params, p.types, one));
      resident.addAll(List.of(trainedArrays()));
      resident.addAll(headState.arrays);
      if (blocksTrain) {
        resident.add(allRows);
        resident.addAll(blockState.arrays);
      }
      g.transferToDevice(DataTransferMode.FIRST_EXECUTION, resident.toArray())
          .transferToDevice(DataTransferMode.EVERY_EXECUTION, in.ids, in.mask, in.count, labels);
      g.task(w.id("loss"), LossKernels::softmaxCrossEntropyForward, p.logits, labels, in.count, probs, losses, b, c)
          .task(w.id("loss_sum"), LossKernels::lossSum, losses, in.count, lossSum)
          .task(w.id("loss_grad"), LossKernels::softmaxCrossEntropyBackward, probs, labels, in.count, dLogits, b, c)
          .task(w.id("head_dw"), DenseKernels::denseBackwardWeightsNaive, dLogits, p.embedding, headGrads, 0, b, d, c)
          .task(w.id("head_db"), DenseKernels::denseBackwardBias, dLogits, headGrads, c * d, b, c);
      if (blocksTrain) {
        FloatArray dEmbedding = new FloatArray(b * d), dPooled = new FloatArray(b * d);
        FloatArray dOut = new FloatArray(n * d), dNext = new FloatArray(n * d), dA2 = new FloatArray(n * d), dH1 = new FloatArray(n * d);
        FloatArray dA1 = new FloatArray(n * d), dContext = new FloatArray(n * d), dGelu = new FloatArray(n * f), dUp = new FloatArray(n * f);
        FloatArray dScores = new FloatArray(b * h * t * t), dqkv = new FloatArray(n * 3 * d);
        g.task(w.id("head_dx"), DenseKernels::denseBackwardInputNaive, dLogits, head, 0, dEmbedding, b, d, c)
            .task(w.id("normalize_dx"), TransformerBackwardKernels::l2NormalizeBackward, p.pooled, dEmbedding, dPooled, b, d)
            .task(w.id("pool_dx"), TransformerBackwardKernels::meanPoolBackward, dPooled, in.mask, dOut, b, t, d);
        for (int l = shape.layers() - 1; l >= frozen; l--) {
          Saved s = p.saved.get(l - frozen);
          EncoderShape.Block k = trained(l);
          String q = "L" + l + "_";
          normBackward(w, q + "output_norm", dOut, s.a2(), s.stats2(), k.outputNorm(), dA2, n, d);
          linearBackward(w, q + "down", dA2, s.gelu(), k.down(), k.downBias(), dGelu, n, f, d);
          g.task(w.id(q + "gelu_dx"), TransformerKernels::geluErfBackward, s.up(), dGelu, dUp, n * f);
          linearBackward(w, q + "up", dUp, s.h1(), k.up(), k.upBias(), dH1, n, d, f);
          g.task(w.id(q + "output_residual_dx"), TransformerKernels::residualAdd, dA2, dH1, n * d);
          normBackward(w, q + "attention_norm", dH1, s.a1(), s.stats1(), k.attentionNorm(), dA1, n, d);
          linearBackward(w, q + "attention_out", dA1, s.context(), k.output(), k.outputBias(), dContext, n, d, d);
          g.task(w.id(q + "attention_dp"), TransformerBackwardKernels::attentionBackwardProbabilities, dContext, s.qkv(), dScores, b, t, d, h)
              .task(w.id(q + "attention_ds"), TransformerBackwardKernels::attentionBackwardSoftmax, s.scores(), dScores, b, t, h, p.scale)
              .task(w.id(q + "attention_dqkv"), TransformerBackwardKernels::attentionBackwardInputs, s.scores(), dScores, s.qkv(), dContext, dqkv,
                  b, t, d, h);
          // the block's input gradient (the residual's dA1 plus the projections') only where a trained block lies below
          linearBackward(w, q + "qkv", dqkv, s.in(), k.qkv(), k.qkvBias(), l > frozen ? dNext : null, n, d, 3 * d);
          if (l > frozen) {
            g.task(w.id(q + "attention_residual_dx"), TransformerKernels::residualAdd, dA1, dNext, n * d);
            FloatArray swap = dOut;
            dOut = dNext;
            dNext = swap;
          }
        }
        settings.blocks().addUpdate(w, "blocks_", blocks, blockGrads, blockState.arrays, one, blocks.getSize());
      }
      settings.head().addUpdate(w, "head_", head, headGrads, headState.arrays, one, head.getSize());
      g.transferToHost(DataTransferMode.EVERY_EXECUTION, lossSum).transferToHost(DataTransferMode.UNDER_DEMAND, trainedArrays());
      ids = w.ids();
      graph = g.snapshot();
      plan = new ExecutionPlan(graph).withDevice(device);
    }

    private void normBackward(Wiring w, String id, FloatArray dy, FloatArray x, FloatArray stats, int gamma, FloatArray dx, int n, int d) {
      w.graph().task(w.id(id + "_dparams"), NormKernels::layerNormBackwardParams, dy, x, stats, allRows, blockGrads, gamma, n, d)
          .task(w.id(id + "_dx"), NormKernels::layerNormBackwardInput, dy, x, stats, blocks, gamma, allRows, dx, n, d);
    }

    /** A trained linear layer's dW, db and (where {@code dx} is not null) dx = dy · W. */
    private void linearBackward(Wiring w, String id, FloatArray dy, FloatArray x, int at, int bias, FloatArray dx, int n, int inputs, int outputs) {
      var g = w.graph();
      if (naiveDense) g.task(w.id(id + "_dw"), DenseKernels::denseBackwardWeightsNaive, dy, x, blockGrads, at, n, inputs, outputs);
      else g.task(w.id(id + "_dw"), DenseKernels::denseBackwardWeights, dy, x, blockGrads, at, n, inputs, outputs);
      g.task(w.id(id + "_db"), DenseKernels::denseBackwardBias, dy, blockGrads, bias, n, outputs);
      if (dx == null) return;
      if (naiveDense) g.task(w.id(id + "_dx"), DenseKernels::denseBackwardInputNaive, dy, blocks, at, dx, n, inputs, outputs);
      else g.task(w.id(id + "_dx"), DenseKernels::denseBackwardInput, dy, blocks, at, dx, n, inputs, outputs);
    }
  }
}
