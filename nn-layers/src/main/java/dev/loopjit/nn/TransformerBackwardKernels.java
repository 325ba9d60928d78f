// The transformer blocks' backward passes as @Parallel loops, in TransformerKernels' padded layout: embeddings, attention, pooling, normalisation.
// The linear layers' backward is DenseKernels', LayerNorm's NormKernels', GELU's TransformerKernels.geluErfBackward; a residual passes dy on.
package dev.loopjit.nn;

import dev.loopjit.api.Parallel;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;

/**
 * Gradients of {@link TransformerKernels}' blocks, shapes as there (B sequences of T tokens, N = B·T
 * rows, D features in H heads of E). Every sum runs in a fixed order by one work-item, so the
 * results are the same on every run and device; gradients are written over their outputs unless a
 * kernel says it adds. {@code TransformerGradientTest} checks each against central differences of a
 * double-precision forward.
 */
public final class TransformerBackwardKernels {
  private TransformerBackwardKernels() {}

  /**
   * The word embeddings' gradient, added in: {@code dWord[ids[r]] += dx[r]} for every row r, each
   * feature's rows summed in order by one work-item (rows sharing a word add up). Zero the table first.
   */
  public static void embedBackwardWords(IntArray ids, FloatArray dx, FloatArray grads, int word, int rows, int hidden) {
    for (@Parallel int i = 0; i < hidden; i++)
      for (int r = 0; r < rows; r++) grads.set(word + ids.get(r) * hidden + i, grads.get(word + ids.get(r) * hidden + i) + dx.get(r * hidden + i));
  }

  /** The position embeddings' gradient, written over its first T rows: {@code dPosition[t] = Σ_b dx[b·T + t]}. */
  public static void embedBackwardPositions(FloatArray dx, FloatArray grads, int position, int batch, int tokens, int hidden) {
    for (@Parallel int t = 0; t < tokens; t++)
      for (@Parallel int i = 0; i < hidden; i++) {
        float sum = 0f;
        for (int b = 0; b < batch; b++) sum += dx.get((b * tokens + t) * hidden + i);
        grads.set(position + t * hidden + i, sum);
      }
  }

  /** The token type embeddings' gradient, written over: {@code dType[y] = Σ_{r: types[r] = y} dx[r]}, Y types. */
  public static void embedBackwardTypes(IntArray types, FloatArray dx, FloatArray grads, int type, int rows, int typeCount, int hidden) {
    for (@Parallel int y = 0; y < typeCount; y++)
      for (@Parallel int i = 0; i < hidden; i++) {
        float sum = 0f;
        for (int r = 0; r < rows; r++)
          if (types.get(r) == y) sum += dx.get(r * hidden + i);
        grads.set(type + y * hidden + i, sum);
      }
  }

  /**
   * Attention backward, step 1: {@code dP[b, h, i, j] = dContext_i · v_j} over head h's features,
   * into {@code dScores} (B, H, T, T).
   */
  public static void attentionBackwardProbabilities(FloatArray dContext, FloatArray qkv, FloatArray dScores, int batch, int tokens, int hidden,
      int heads) {
    for (@Parallel int bh = 0; bh < batch * heads; bh++)
      for (@Parallel int ij = 0; ij < tokens * tokens; ij++) {
        int e = hidden / heads, b = bh / heads, h = bh % heads, i = ij / tokens, j = ij % tokens;
        int c = (b * tokens + i) * hidden + h * e, v = (b * tokens + j) * 3 * hidden + 2 * hidden + h * e;
        float s = 0f;
        for (int d = 0; d < e; d++) s += dContext.get(c + d) * qkv.get(v + d);
        dScores.set(bh * tokens * tokens + ij, s);
      }
  }

  /**
   * Attention backward, step 2, the softmax's, in place: {@code dS = p ⊙ (dP - Σ_j p_j dP_j) / scale}
   * per scores row, p the forward's probabilities ({@code scores} after {@link TransformerKernels#attentionSoftmax});
   * the division by the scale is the scores' own ({@code s = q·k / scale}).
   */
  public static void attentionBackwardSoftmax(FloatArray probabilities, FloatArray dScores, int batch, int tokens, int heads, float scale) {
    for (@Parallel int row = 0; row < batch * heads * tokens; row++) {
      int at = row * tokens;
      float dot = 0f;
      for (int j = 0; j < tokens; j++) dot += probabilities.get(at + j) * dScores.get(at + j);
      for (int j = 0; j < tokens; j++) dScores.set(at + j, probabilities.get(at + j) * (dScores.get(at + j) - dot) / scale);
    }
  }

  /**
   * Attention backward, step 3: the gradient of each row's query, key and value, dqkv (N, 3D):
   * {@code dq_i = Σ_j dS[i, j] k_j}, {@code dk_j = Σ_i dS[i, j] q_i}, {@code dv_j = Σ_i p[i, j] dContext_i},
   * per head over its features.
   */
  public static void attentionBackwardInputs(FloatArray probabilities, FloatArray dScores, FloatArray qkv, FloatArray dContext, FloatArray dqkv,
      int batch, int tokens, int hidden, int heads) {
    for (@Parallel int r = 0; r < batch * tokens; r++)
      for (@Parallel int c = 0; c < 3 * hidden; c++) {
        int e = hidden / heads, b = r / tokens, t = r % tokens, part = c / hidden, f = c % hidden, h = f / e;
        int scores = (b * heads + h) * tokens * tokens;
        float s = 0f;
        if (part == 0)
          for (int j = 0; j < tokens; j++) s += dScores.get(scores + t * tokens + j) * qkv.get((b * tokens + j) * 3 * hidden + hidden + f);
        else if (part == 1)
          for (int i = 0; i < tokens; i++) s += dScores.get(scores + i * tokens + t) * qkv.get((b * tokens + i) * 3 * hidden + f);
        else
          for (int i = 0; i < tokens; i++) s += probabilities.get(scores + i * tokens + t) * dContext.get((b * tokens + i) * hidden + f);
        dqkv.set(r * 3 * hidden + c, s);
      }
  }

  /** Mean pooling's backward: {@code dx[b·T + t] = mask · dy[b] / max(Σ mask, 1)}, 0 for padding. */
  public static void meanPoolBackward(FloatArray dy, IntArray mask, FloatArray dx, int batch, int tokens, int hidden) {
    for (@Parallel int r = 0; r < batch * tokens; r++)
      for (@Parallel int i = 0; i < hidden; i++) {
        int b = r / tokens, count = 0;
        for (int t = 0; t < tokens; t++) count += mask.get(b * tokens + t) != 0 ? 1 : 0;
        dx.set(r * hidden + i, mask.get(r) != 0 ? dy.get(b * hidden + i) / Math.max(count, 1) : 0f);
      }
  }

  /**
   * L2 normalisation's backward, from its input x (before {@link TransformerKernels#l2Normalize}):
   * {@code dx = (dy - y (y · dy)) / n}, {@code n = max(‖x‖, 1e-12)}, {@code y = x / n}; where the
   * floor applies, {@code dx = dy / n}.
   */
  public static void l2NormalizeBackward(FloatArray x, FloatArray dy, FloatArray dx, int batch, int width) {
    for (@Parallel int b = 0; b < batch; b++) {
      float squares = 0f;
      for (int i = 0; i < width; i++) squares += x.get(b * width + i) * x.get(b * width + i);
      float length = (float) Math.sqrt(squares), n = Math.max(length, 1e-12f), dot = 0f;
      for (int i = 0; i < width; i++) dot += x.get(b * width + i) / n * dy.get(b * width + i);
      for (int i = 0; i < width; i++) {
        float y = x.get(b * width + i) / n, g = dy.get(b * width + i);
        dx.set(b * width + i, length >= 1e-12f ? (g - y * dot) / n : g / n);
      }
    }
  }
}
