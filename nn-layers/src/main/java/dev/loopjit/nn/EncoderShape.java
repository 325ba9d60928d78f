// A BERT-style transformer encoder's sizes, and where each of its weights lies in the one flat parameter array.
package dev.loopjit.nn;

/**
 * The sizes of a BERT-style encoder (post-norm blocks: attention, add and LayerNorm, GELU
 * feed-forward, add and LayerNorm) and the layout of its parameters in one {@code FloatArray}:
 * <pre>
 * word (V, D) | position (P, D) | type (Y, D) | embedding norm γ, β (D each)
 * each layer: qkv W (3D, D) | qkv b (3D) | output W (D, D) | output b (D) | norm γ, β
 *             | up W (F, D) | up b (F) | down W (D, F) | down b (D) | norm γ, β
 * </pre>
 * Every W is (OUT, IN), as {@link DenseKernels} reads it; qkv stacks the query, key and value
 * projections, so one launch computes all three. sentence-transformers' all-MiniLM-L6-v2 is
 * {@code new EncoderShape(30522, 512, 2, 384, 12, 1536, 6, 1e-12f)}.
 *
 * @param vocabulary V, token ids run over [0, V)
 * @param positions P, the longest sequence the position table covers
 * @param tokenTypes Y, token type ids run over [0, Y)
 * @param hidden D, features per token
 * @param heads H, attention heads; D must be a multiple of H
 * @param intermediate F, the feed-forward layer's width
 * @param layers encoder blocks
 * @param eps LayerNorm's ε
 */
public record EncoderShape(int vocabulary, int positions, int tokenTypes, int hidden, int heads, int intermediate, int layers, float eps) {
  public EncoderShape {
    if (vocabulary <= 0 || positions <= 0 || tokenTypes <= 0 || hidden <= 0 || heads <= 0 || intermediate <= 0 || layers <= 0)
      throw new IllegalArgumentException("every size of an encoder must be positive: " + describe(vocabulary, positions, tokenTypes, hidden, heads,
          intermediate, layers));
    if (hidden % heads != 0) throw new IllegalArgumentException(hidden + " hidden features do not split into " + heads + " heads");
    if (!(eps > 0f)) throw new IllegalArgumentException("LayerNorm's ε must be positive, not " + eps);
    long total = (long) (vocabulary + positions + tokenTypes + 2) * hidden + (long) layers * layerSize(hidden, intermediate);
    if (total > Integer.MAX_VALUE - 8) throw new IllegalArgumentException("an encoder of " + total + " parameters does not fit one FloatArray");
  }

  private static String describe(int v, int p, int y, int d, int h, int f, int l) {
    return "vocabulary " + v + ", positions " + p + ", token types " + y + ", hidden " + d + ", heads " + h + ", intermediate " + f + ", layers "
        + l;
  }

  private static long layerSize(long d, long f) {
    return 3 * d * d + 3 * d + d * d + d + 2 * d + f * d + f + d * f + d + 2 * d;
  }

  /** Where one block's weights start in the parameter array. */
  public record Block(int qkv, int qkvBias, int output, int outputBias, int attentionNorm, int up, int upBias, int down, int downBias,
      int outputNorm) {}

  /** Features per head, D/H. */
  public int headSize() {
    return hidden / heads;
  }

  /** Start of the word embeddings (V, D). */
  public int word() {
    return 0;
  }

  /** Start of the position embeddings (P, D). */
  public int position() {
    return vocabulary * hidden;
  }

  /** Start of the token type embeddings (Y, D). */
  public int type() {
    return position() + positions * hidden;
  }

  /** Start of the embeddings' LayerNorm γ (D), β after it. */
  public int embeddingNorm() {
    return type() + tokenTypes * hidden;
  }

  /** Where block {@code layer} (0-based) keeps its weights. */
  public Block block(int layer) {
    if (layer < 0 || layer >= layers) throw new IndexOutOfBoundsException("layer " + layer + " of " + layers);
    int d = hidden, f = intermediate;
    int at = embeddingNorm() + 2 * d + layer * (int) layerSize(d, f);
    int qkvBias = at + 3 * d * d, output = qkvBias + 3 * d, outputBias = output + d * d, attentionNorm = outputBias + d;
    int up = attentionNorm + 2 * d, upBias = up + f * d, down = upBias + f, downBias = down + d * f, outputNorm = downBias + d;
    return new Block(at, qkvBias, output, outputBias, attentionNorm, up, upBias, down, downBias, outputNorm);
  }

  /** All parameters. */
  public int parameters() {
    return embeddingNorm() + 2 * hidden + layers * (int) layerSize(hidden, intermediate);
  }
}
