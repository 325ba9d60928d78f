// A transformer encoder's blocks as @Parallel-loop kernels: embeddings, masked multi-head self-attention, exact GELU, residuals, mean pooling.
// BERT's forward pass in the order its ONNX export computes it; the linear layers are DenseKernels', LayerNorm's reference NormKernels'.
package dev.loopjit.nn;

import dev.loopjit.api.Parallel;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;

/**
 * Encoder kernels, in two layouts. The padded ones are the plain references: B sequences of T
 * tokens each, padding marked by a mask. The packed ones ({@code …Rows}) are what
 * {@link TransformerEncoder} runs: the sequences' tokens one after another, then padding rows up to
 * the launch's size; attention and pooling read each sequence's own rows only. Each packed kernel
 * computes the same values in the same order as its padded reference (bit-identical,
 * {@code TransformerKernelsTest}). The linear layers are {@link DenseKernels}', the residuals
 * {@link #residualAdd} and the activation {@link #geluErfForward}, over all N rows. Shapes, row-major:
 * <pre>
 * padded: N = B·T rows; ids, types, mask (N); mask 1 for a token and 0 for padding
 * packed: N rows; sequence b is rows [starts[b], starts[b+1]), then padding rows
 *         ids, types, positions (N) per row; first, length (N): the row's sequence's first row and
 *         token count (0 for padding)
 * D hidden features, H heads of E = D/H features; x (N, D)
 * qkv (N, 3D): each row's query (D), key (D), value (D), head h's part at h·E of each
 * scores (B, H, T, T) padded, (H, N, T) packed: one query's attention over its sequence's keys
 * </pre>
 * Padding keys get weight exactly 0 (as {@code exp} of the export's large negative mask does), so
 * a sequence's result does not depend on how far its batch is padded; a row whose keys are all
 * padding (a batch's unused sequence) gets weight 0 everywhere and so a context of 0.
 */
public final class TransformerKernels {
  private TransformerKernels() {}

  /**
   * {@code x[r] = word[ids[r]] + type[types[r]] + position[r mod T]}: BERT's embeddings, added in
   * that order. params: word (V, D) at word, position (P, D) at position, type (2, D) at type.
   */
  public static void embed(IntArray ids, IntArray types, FloatArray params, int word, int position, int type, FloatArray x, int rows, int tokens,
      int hidden) {
    for (@Parallel int r = 0; r < rows; r++)
      for (@Parallel int i = 0; i < hidden; i++) {
        float v = params.get(word + ids.get(r) * hidden + i) + params.get(type + types.get(r) * hidden + i);
        x.set(r * hidden + i, v + params.get(position + (r % tokens) * hidden + i));
      }
  }

  /** {@code scores[b, h, i, j] = q_i · k_j / scale} for every query i and key j of sequence b, head h (scale = √E). */
  public static void attentionScores(FloatArray qkv, FloatArray scores, int batch, int tokens, int hidden, int heads, float scale) {
    for (@Parallel int bh = 0; bh < batch * heads; bh++)
      for (@Parallel int ij = 0; ij < tokens * tokens; ij++) {
        int e = hidden / heads, b = bh / heads, h = bh % heads, i = ij / tokens, j = ij % tokens;
        int q = (b * tokens + i) * 3 * hidden + h * e, k = (b * tokens + j) * 3 * hidden + hidden + h * e;
        float s = 0f;
        for (int d = 0; d < e; d++) s += qkv.get(q + d) * qkv.get(k + d);
        scores.set(bh * tokens * tokens + ij, s / scale);
      }
  }

  /** Softmax of each scores row over the keys with mask 1, in place: {@code exp(s - max) / Σ exp(s - max)}; 0 for padding keys. */
  public static void attentionSoftmax(FloatArray scores, IntArray mask, int batch, int tokens, int heads) {
    for (@Parallel int row = 0; row < batch * heads * tokens; row++) {
      int b = row / (heads * tokens), at = row * tokens;
      float max = Float.NEGATIVE_INFINITY;
      for (int j = 0; j < tokens; j++)
        if (mask.get(b * tokens + j) != 0) max = Math.max(max, scores.get(at + j));
      float sum = 0f;
      for (int j = 0; j < tokens; j++) {
        float p = mask.get(b * tokens + j) != 0 ? (float) Math.exp(scores.get(at + j) - max) : 0f;
        scores.set(at + j, p);
        sum += p;
      }
      for (int j = 0; j < tokens; j++) scores.set(at + j, sum > 0f ? scores.get(at + j) / sum : 0f);
    }
  }

  /** {@code context[b·T + i, h·E + d] = Σ_j p[b, h, i, j] · v_j[h·E + d]}: the heads' outputs side by side, (N, D). */
  public static void attentionContext(FloatArray scores, FloatArray qkv, FloatArray context, int batch, int tokens, int hidden, int heads) {
    for (@Parallel int r = 0; r < batch * tokens; r++)
      for (@Parallel int c = 0; c < hidden; c++) {
        int e = hidden / heads, b = r / tokens, i = r % tokens, h = c / e;
        int p = ((b * heads + h) * tokens + i) * tokens, v = b * tokens * 3 * hidden + 2 * hidden + c;
        float s = 0f;
        for (int j = 0; j < tokens; j++) s += scores.get(p + j) * qkv.get(v + j * 3 * hidden);
        context.set(r * hidden + c, s);
      }
  }

  /** The residual connection, in place: {@code y += x}. */
  public static void residualAdd(FloatArray x, FloatArray y, int n) {
    for (@Parallel int i = 0; i < n; i++) y.set(i, y.get(i) + x.get(i));
  }

  /** Exact GELU (BERT's): {@code y = x (erf(x/√2) + 1) / 2}, in the ONNX export's order of operations. */
  public static void geluErfForward(FloatArray x, FloatArray y, int n) {
    for (@Parallel int i = 0; i < n; i++) {
      float v = x.get(i);
      y.set(i, v * (erf(v / SQRT2) + 1f) * 0.5f);
    }
  }

  /** {@code dx = dy · ((erf(x/√2) + 1)/2 + x · e^{-x²/2} / √(2π))}. */
  public static void geluErfBackward(FloatArray x, FloatArray dy, FloatArray dx, int n) {
    for (@Parallel int i = 0; i < n; i++) {
      float v = x.get(i);
      float cdf = (erf(v / SQRT2) + 1f) * 0.5f, pdf = (float) Math.exp(-0.5f * v * v) * INV_SQRT_2PI;
      dx.set(i, dy.get(i) * (cdf + v * pdf));
    }
  }

  /** Each sequence's mean over its tokens with mask 1: {@code y[b] = Σ_t mask · x[b·T + t] / max(Σ_t mask, 1)}, y (B, D). */
  public static void meanPool(FloatArray x, IntArray mask, FloatArray y, int batch, int tokens, int hidden) {
    for (@Parallel int b = 0; b < batch; b++)
      for (@Parallel int i = 0; i < hidden; i++) {
        float sum = 0f;
        int count = 0;
        for (int t = 0; t < tokens; t++)
          if (mask.get(b * tokens + t) != 0) {
            sum += x.get((b * tokens + t) * hidden + i);
            count++;
          }
        y.set(b * hidden + i, sum / Math.max(count, 1));
      }
  }

  /** Packed {@link #embed}: row r's word, type and position embeddings (padding rows, id 0 at position 0, are computed and unused). */
  public static void embedRows(IntArray ids, IntArray types, IntArray positions, FloatArray params, int word, int position, int type, FloatArray x,
      int rows, int hidden) {
    for (@Parallel int r = 0; r < rows; r++)
      for (@Parallel int i = 0; i < hidden; i++) {
        float v = params.get(word + ids.get(r) * hidden + i) + params.get(type + types.get(r) * hidden + i);
        x.set(r * hidden + i, v + params.get(position + positions.get(r) * hidden + i));
      }
  }

  /**
   * Attention of packed sequences, one work-item per (head, row): the row's query scored against
   * the keys of its sequence (rows [first[r], first[r] + length[r])), into its row of
   * {@code scores} (H, N, T); their softmax; and its head's E context features —
   * {@link #attentionScores}, {@link #attentionSoftmax} and {@link #attentionContext} in one launch,
   * with the same operations in the same order. Padding rows (length 0) do nothing.
   */
  public static void attentionRows(FloatArray qkv, IntArray first, IntArray length, FloatArray scores, FloatArray context, int rows, int tokens,
      int hidden, int heads, float scale) {
    for (@Parallel int h = 0; h < heads; h++)
      for (@Parallel int r = 0; r < rows; r++) {
        int e = hidden / heads, start = first.get(r), keys = length.get(r);
        if (keys > 0) {
          int q = r * 3 * hidden + h * e, row = (h * rows + r) * tokens;
          float max = Float.NEGATIVE_INFINITY;
          for (int j = 0; j < keys; j++) {
            int k = (start + j) * 3 * hidden + hidden + h * e;
            float s = 0f;
            for (int d = 0; d < e; d++) s += qkv.get(q + d) * qkv.get(k + d);
            s = s / scale;
            scores.set(row + j, s);
            max = Math.max(max, s);
          }
          float sum = 0f;
          for (int j = 0; j < keys; j++) {
            float p = (float) Math.exp(scores.get(row + j) - max);
            scores.set(row + j, p);
            sum += p;
          }
          for (int j = 0; j < keys; j++) scores.set(row + j, scores.get(row + j) / sum);
          for (int d = 0; d < e; d++) {
            int v = start * 3 * hidden + 2 * hidden + h * e + d;
            float c = 0f;
            for (int j = 0; j < keys; j++) c += scores.get(row + j) * qkv.get(v + j * 3 * hidden);
            context.set(r * hidden + h * e + d, c);
          }
        }
      }
  }

  /**
   * LayerNorm of each row, its statistics and its normalisation in one work-item:
   * {@link NormKernels#layerNormStats} then {@link NormKernels#layerNormForward}, the same operations in the same order.
   */
  public static void layerNormRows(FloatArray x, FloatArray params, int g, FloatArray y, int rows, int features, float eps) {
    for (@Parallel int r = 0; r < rows; r++) {
      float sum = 0f;
      for (int i = 0; i < features; i++) sum += x.get(r * features + i);
      float mean = sum / features, squares = 0f;
      for (int i = 0; i < features; i++) {
        float d = x.get(r * features + i) - mean;
        squares += d * d;
      }
      float invStd = 1f / (float) Math.sqrt(squares / features + eps);
      for (int i = 0; i < features; i++) {
        float xhat = (x.get(r * features + i) - mean) * invStd;
        y.set(r * features + i, params.get(g + i) * xhat + params.get(g + features + i));
      }
    }
  }

  /** Packed {@link #meanPool}: each sequence's mean over its rows [starts[b], starts[b+1]), y (B, D); 0 for an empty sequence. */
  public static void meanPoolRows(FloatArray x, IntArray starts, FloatArray y, int batch, int hidden) {
    for (@Parallel int b = 0; b < batch; b++)
      for (@Parallel int i = 0; i < hidden; i++) {
        int start = starts.get(b), count = starts.get(b + 1) - start;
        float sum = 0f;
        for (int t = 0; t < count; t++) sum += x.get((start + t) * hidden + i);
        y.set(b * hidden + i, sum / Math.max(count, 1));
      }
  }

  /** Each row divided by its Euclidean length, in place (a row of zeros stays zeros): {@code y[b] /= max(‖y[b]‖, 1e-12)}. */
  public static void l2Normalize(FloatArray y, int batch, int width) {
    for (@Parallel int b = 0; b < batch; b++) {
      float squares = 0f;
      for (int i = 0; i < width; i++) squares += y.get(b * width + i) * y.get(b * width + i);
      float norm = Math.max((float) Math.sqrt(squares), 1e-12f);
      for (int i = 0; i < width; i++) y.set(b * width + i, y.get(b * width + i) / norm);
    }
  }

  static final float SQRT2 = 1.4142135f;
  static final float INV_SQRT_2PI = 0.3989422804f;

  /**
   * The error function, to within 2.5e-7: where |x| < 1 its Taylor series
   * {@code 2/√π Σ (-1)ⁿ x^{2n+1} / (n! (2n+1))} to n = 10, in Horner form (no division); else
   * Abramowitz and Stegun 7.1.26 ({@code 1 - (a₁t + … + a₅t⁵) e^{-x²}}, {@code t = 1/(1 + 0.3275911 |x|)},
   * error 1.5e-7); odd. Inlined into the kernels that call it.
   */
  static float erf(float x) {
    float a = Math.abs(x), y;
    if (a < 1f) {
      float x2 = a * a;
      float series = 1.1283791671f + x2 * (-0.37612638903f + x2 * (0.11283791671f + x2 * (-0.026866170645f + x2 * (0.0052239776254f
          + x2 * (-8.5483270235e-4f + x2 * (1.2055332982e-4f + x2 * (-1.4925650358e-5f + x2 * (1.6462114366e-6f + x2 * (-1.6365844691e-7f
          + x2 * 1.4807192816e-8f)))))))));
      y = a * series;
    } else {
      float t = 1f / (1f + 0.3275911f * a);
      float poly = t * (0.254829592f + t * (-0.284496736f + t * (1.421413741f + t * (-1.453152027f + t * 1.061405429f))));
      y = 1f - poly * (float) Math.exp(-a * a);
    }
    return x < 0f ? -y : y;
  }
}
