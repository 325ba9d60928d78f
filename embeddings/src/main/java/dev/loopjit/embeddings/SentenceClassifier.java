// Sentences in, labels out: a pretrained sentence encoder with a linear head, fine-tuned on labelled sentences with its last blocks, every step on the device.
package dev.loopjit.embeddings;

import dev.loopjit.api.Device;
import dev.loopjit.nn.EncoderClassifier;
import dev.loopjit.nn.FineTuning;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A sentence classifier fine-tuned from a sentence-transformers model: the model's embedding (mean
 * pooling, L2 normalisation) feeds a new linear head over the labels, and training updates the head
 * and the encoder's last blocks ({@link EncoderClassifier}: forward, loss, backward and both Adam
 * updates in one task graph per step, the weights on the device). The pretrained weights themselves
 * are not changed; {@link #tunedEncoder(int)} embeds with the tuned ones.
 *
 * <pre>{@code
 * try (SentenceClassifier c = SentenceClassifier.allMiniLmL6V2(List.of("negative", "positive"), Devices.best(), FineTuning.classes(2))) {
 *   for (int epoch = 0; epoch < 3; epoch++) c.epoch(sentences, labels, new Random(epoch));
 *   List<String> predicted = c.predict(List.of("What a wonderful day."));
 * }
 * }</pre>
 */
public final class SentenceClassifier implements AutoCloseable {
  private final WordPieceTokenizer tokenizer;
  private final BertOnnx.Weights weights;
  private final Device device;
  private final List<String> labels;
  private final Map<String, Integer> index = new HashMap<>();
  private final EncoderClassifier classifier;

  private SentenceClassifier(WordPieceTokenizer tokenizer, BertOnnx.Weights weights, List<String> labels, Device device, FineTuning settings) {
    if (labels.size() != settings.classes())
      throw new IllegalArgumentException(labels.size() + " labels but the settings have " + settings.classes() + " classes");
    if (new LinkedHashSet<>(labels).size() != labels.size() || labels.stream().anyMatch(java.util.Objects::isNull))
      throw new IllegalArgumentException("labels must be distinct and not null: " + labels);
    if (settings.maxTokens() < 2) throw new IllegalArgumentException("a sentence needs room for [CLS] and [SEP]: maxTokens " + settings.maxTokens());
    if (tokenizer.vocabularySize() > weights.shape().vocabulary())
      throw new IllegalArgumentException("the tokenizer has " + tokenizer.vocabularySize() + " tokens; the model's vocabulary only "
          + weights.shape().vocabulary());
    this.tokenizer = tokenizer;
    this.weights = weights;
    this.device = device;
    this.labels = List.copyOf(labels);
    for (int i = 0; i < labels.size(); i++) index.put(labels.get(i), i);
    classifier = new EncoderClassifier(weights.shape(), weights.params(), device, settings);
  }

  /** all-MiniLM-L6-v2 (from the model's jar on the class path) with a head over {@code labels}. */
  public static SentenceClassifier allMiniLmL6V2(List<String> labels, Device device, FineTuning settings) {
    try (InputStream model = SentenceEncoder.resource(SentenceEncoder.MINILM_ONNX)) {
      return new SentenceClassifier(SentenceEncoder.miniLmTokenizer(), BertOnnx.read(model, SentenceEncoder.MINILM_ONNX.substring(1)), labels, device,
          settings);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A BERT-family model from its ONNX file and {@code tokenizer.json}, with a head over {@code labels}. */
  public static SentenceClassifier load(Path onnx, Path tokenizerJson, List<String> labels, Device device, FineTuning settings) throws IOException {
    for (Path p : List.of(onnx, tokenizerJson))
      if (!Files.isRegularFile(p)) throw new IllegalArgumentException(p + " is not a file");
    try (InputStream model = Files.newInputStream(onnx); InputStream tokens = Files.newInputStream(tokenizerJson)) {
      WordPieceTokenizer t = WordPieceTokenizer.read(tokens, tokenizerJson.toString());
      return new SentenceClassifier(t, BertOnnx.read(model, onnx.toString()), labels, device, settings);
    }
  }

  /** One training step on up to {@link FineTuning#batch()} sentences and their labels; returns their mean loss before the update. */
  public float train(List<String> sentences, List<String> sentenceLabels) {
    return classifier.train(tokens(sentences), classes(sentences, sentenceLabels));
  }

  /** One pass over all the sentences in an order drawn from {@code random}, a step per batch; returns the mean of the steps' losses. */
  public float epoch(List<String> sentences, List<String> sentenceLabels, Random random) {
    List<int[]> ids = tokens(sentences);
    int[] classes = classes(sentences, sentenceLabels);
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) order.add(i);
    java.util.Collections.shuffle(order, random);
    int batch = classifier.settings().batch();
    double sum = 0;
    int steps = 0;
    for (int from = 0; from < order.size(); from += batch, steps++) {
      List<Integer> part = order.subList(from, Math.min(from + batch, order.size()));
      List<int[]> x = new ArrayList<>();
      int[] y = new int[part.size()];
      for (int k = 0; k < part.size(); k++) {
        x.add(ids.get(part.get(k)));
        y[k] = classes[part.get(k)];
      }
      sum += classifier.train(x, y);
    }
    return steps == 0 ? 0f : (float) (sum / steps);
  }

  /** Each sentence's label: the class of its largest logit. */
  public List<String> predict(List<String> sentences) {
    List<String> out = new ArrayList<>();
    for (int c : classifier.predict(tokens(sentences))) out.add(labels.get(c));
    return out;
  }

  /** The share of sentences whose predicted label is theirs. */
  public double accuracy(List<String> sentences, List<String> sentenceLabels) {
    int[] expected = classes(sentences, sentenceLabels), got = classifier.predict(tokens(sentences));
    int right = 0;
    for (int i = 0; i < got.length; i++) right += got[i] == expected[i] ? 1 : 0;
    return got.length == 0 ? 0 : (double) right / got.length;
  }

  /** Each sentence's logits, one per label in {@link #labels()}' order. */
  public float[][] logits(List<String> sentences) {
    return classifier.logits(tokens(sentences));
  }

  /** The labels, in the head's order. */
  public List<String> labels() {
    return labels;
  }

  /** The classifier underneath, for its task graph and profile. */
  public EncoderClassifier classifier() {
    return classifier;
  }

  /** A sentence encoder with the weights as tuned so far (its own copy, on the same device), {@code batch} sentences per execution. */
  public SentenceEncoder tunedEncoder(int batch) {
    return new SentenceEncoder(tokenizer, new BertOnnx.Weights(weights.shape(), classifier.encoderParameters()), device, batch);
  }

  private List<int[]> tokens(List<String> sentences) {
    List<int[]> ids = new ArrayList<>(sentences.size());
    for (int i = 0; i < sentences.size(); i++) {
      if (sentences.get(i) == null) throw new IllegalArgumentException("sentence " + i + " is null");
      ids.add(tokenizer.encode(sentences.get(i), classifier.settings().maxTokens()));
    }
    return ids;
  }

  private int[] classes(List<String> sentences, List<String> sentenceLabels) {
    if (sentenceLabels.size() != sentences.size())
      throw new IllegalArgumentException(sentences.size() + " sentences but " + sentenceLabels.size() + " labels");
    int[] out = new int[sentenceLabels.size()];
    for (int i = 0; i < out.length; i++) {
      Integer c = index.get(sentenceLabels.get(i));
      if (c == null) throw new IllegalArgumentException("sentence " + i + " has the label \"" + sentenceLabels.get(i) + "\", not one of " + labels);
      out[i] = c;
    }
    return out;
  }

  @Override
  public void close() {
    classifier.close();
  }
}
