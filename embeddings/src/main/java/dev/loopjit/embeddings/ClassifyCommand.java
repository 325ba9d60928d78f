// `loopjit classify`: fine-tune a sentence classifier on labelled lines (the head and the encoder's last blocks on the device), then label sentences.
package dev.loopjit.embeddings;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.nn.FineTuning;
import dev.loopjit.nn.Optimizer;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;

/**
 * {@code loopjit classify --train FILE [--test FILE] [options] [SENTENCE...]}: reads labelled
 * sentences ({@code LABEL<TAB>SENTENCE} per line), fine-tunes all-MiniLM-L6-v2 (or another BERT-family
 * model) with a head over the labels found, printing each epoch's loss and, with {@code --test},
 * its accuracy on held-out lines; then prints {@code LABEL<TAB>SENTENCE} for each SENTENCE (or
 * {@code --input} line). Everything is read and checked before the model runs.
 */
public final class ClassifyCommand {
  static final String USAGE = """
      usage: loopjit classify --train FILE [--test FILE] [--epochs N] [--layers N] [--batch N] [--max-tokens N] [--lr-head X] [--lr-blocks X]
                              [--seed S] [--device ID] [--model FILE.onnx --tokenizer FILE.json] [--input FILE] [--profile] [SENTENCE...]
        --train FILE         labelled sentences, one per line: LABEL<TAB>SENTENCE (the labels are those found, in order of appearance)
        --test FILE          held-out lines in the same form: the accuracy after each epoch
        --epochs N           passes over --train (default 3)
        --layers N           the encoder's last blocks that train with the head (default 1; 0: the head alone)
        --batch N            sentences per training step (default 16)
        --max-tokens N       tokens per sentence, [CLS] and [SEP] included; longer ones are cut (default 64)
        --lr-head X          Adam's learning rate for the head (default 0.01)
        --lr-blocks X        Adam's learning rate for the blocks (default 5e-5)
        --seed S             the head's initial weights and the epochs' order (default 1)
        --device ID          the device (default: the best; loopjit devices lists them)
        --model, --tokenizer another BERT-family sentence encoder's ONNX file and tokenizer.json (default: all-MiniLM-L6-v2)
        --input FILE         sentences to label after training, one per line
        --profile            where the last training step's time went, on standard error
        SENTENCE...          sentences to label after training: LABEL<TAB>SENTENCE on standard output
      """;

  private ClassifyCommand() {}

  public static void main(String[] args) throws IOException {
    System.exit(run(args, System.out, System.err));
  }

  /** Labelled lines: the sentences and their labels, in file order. */
  record Labelled(List<String> sentences, List<String> labels) {
    static Labelled read(Path p) {
      List<String> sentences = new ArrayList<>(), labels = new ArrayList<>();
      List<String> lines = EmbedCommand.lines(p);
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        if (line.isBlank()) continue;
        int tab = line.indexOf('\t');
        if (tab <= 0 || tab == line.length() - 1)
          throw new IllegalArgumentException(p + ", line " + (i + 1) + ": expected LABEL<TAB>SENTENCE, got \"" + shorten(line) + "\"");
        labels.add(line.substring(0, tab));
        sentences.add(line.substring(tab + 1));
      }
      if (sentences.isEmpty()) throw new IllegalArgumentException(p + " has no labelled lines");
      return new Labelled(sentences, labels);
    }
  }

  private static String shorten(String s) {
    return s.length() <= 60 ? s : s.substring(0, 57) + "...";
  }

  /** Runs the command; returns the exit status (2: bad arguments or input). */
  static int run(String[] args, PrintStream out, PrintStream err) throws IOException {
    String device = null, train = null, test = null, input = null, model = null, tokenizer = null;
    int epochs = 3, layers = 1, batch = 16, maxTokens = 64;
    float lrHead = 1e-2f, lrBlocks = 5e-5f;
    long seed = 1;
    boolean profile = false;
    List<String> sentences = new ArrayList<>();
    Labelled training, held = null;
    List<String> labels;
    try {
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        switch (a) {
          case "--train" -> train = EmbedCommand.value(args, ++i, a);
          case "--test" -> test = EmbedCommand.value(args, ++i, a);
          case "--input" -> input = EmbedCommand.value(args, ++i, a);
          case "--device" -> device = EmbedCommand.value(args, ++i, a);
          case "--model" -> model = EmbedCommand.value(args, ++i, a);
          case "--tokenizer" -> tokenizer = EmbedCommand.value(args, ++i, a);
          case "--epochs" -> epochs = EmbedCommand.positive(EmbedCommand.value(args, ++i, a), a, 1);
          case "--layers" -> layers = EmbedCommand.positive(EmbedCommand.value(args, ++i, a), a, 0);
          case "--batch" -> batch = EmbedCommand.positive(EmbedCommand.value(args, ++i, a), a, 1);
          case "--max-tokens" -> maxTokens = EmbedCommand.positive(EmbedCommand.value(args, ++i, a), a, 2);
          case "--lr-head" -> lrHead = rate(EmbedCommand.value(args, ++i, a), a);
          case "--lr-blocks" -> lrBlocks = rate(EmbedCommand.value(args, ++i, a), a);
          case "--seed" -> seed = whole(EmbedCommand.value(args, ++i, a), a);
          case "--profile" -> profile = true;
          case "--help", "-h" -> {
            out.print(USAGE);
            return 0;
          }
          default -> {
            if (a.startsWith("--")) throw new IllegalArgumentException("unknown option " + a);
            sentences.add(a);
          }
        }
      }
      if (train == null) throw new IllegalArgumentException("--train FILE is needed: the labelled sentences to learn from");
      if ((model == null) != (tokenizer == null)) throw new IllegalArgumentException("--model and --tokenizer go together");
      if (input != null && !sentences.isEmpty()) throw new IllegalArgumentException("sentences come from --input or the arguments, not both");
      training = Labelled.read(Path.of(train));
      labels = List.copyOf(new LinkedHashSet<>(training.labels()));
      if (labels.size() < 2) throw new IllegalArgumentException(train + " has only the label \"" + labels.get(0) + "\"; a classifier needs two or more");
      if (test != null) {
        held = Labelled.read(Path.of(test));
        for (int i = 0; i < held.labels().size(); i++)
          if (!labels.contains(held.labels().get(i)))
            throw new IllegalArgumentException(test + ": the label \"" + held.labels().get(i) + "\" is not one of " + train + "'s " + labels);
      }
      if (input != null) sentences = EmbedCommand.lines(Path.of(input));
    } catch (IllegalArgumentException e) {
      err.println("loopjit classify: " + e.getMessage());
      err.print(USAGE);
      return 2;
    }
    FineTuning settings = FineTuning.classes(labels.size()).withLayers(layers).withBatch(batch).withMaxTokens(maxTokens)
        .withHeadOptimizer(Optimizer.adam(lrHead)).withBlockOptimizer(Optimizer.adam(lrBlocks)).withSeed(seed);
    SentenceClassifier classifier;
    try {
      Device d = device == null ? Devices.best() : Devices.get(device);
      classifier = model == null ? SentenceClassifier.allMiniLmL6V2(labels, d, settings)
          : SentenceClassifier.load(Path.of(model), Path.of(tokenizer), labels, d, settings);
    } catch (IllegalArgumentException e) {
      // an unknown device, too many blocks or tokens for the model, a missing file, a model that is not what LoopJIT reads
      err.println("loopjit classify: " + e.getMessage());
      return 2;
    }
    try (classifier) {
      if (profile) classifier.classifier().withProfiler();
      err.printf("%d labelled sentences, labels %s; training the head and the last %d of %d blocks on %s%n", training.sentences().size(), labels,
          layers, classifier.classifier().shape().layers(), classifier.classifier().device().id());
      Random random = new Random(seed);
      for (int e = 1; e <= epochs; e++) {
        long t0 = System.nanoTime();
        float loss = classifier.epoch(training.sentences(), training.labels(), random);
        double seconds = (System.nanoTime() - t0) / 1e9;
        String accuracy = held == null ? "" : String.format(", test accuracy %.1f %%", 100 * classifier.accuracy(held.sentences(), held.labels()));
        err.printf("epoch %d/%d: loss %.4f%s (%.1f s)%n", e, epochs, loss, accuracy, seconds);
      }
      if (profile && classifier.classifier().lastProfile() != null) err.print(classifier.classifier().lastProfile());
      List<String> predicted = classifier.predict(sentences);
      for (int i = 0; i < sentences.size(); i++) out.println(predicted.get(i) + "\t" + sentences.get(i));
      out.flush();
      return 0;
    }
  }

  private static float rate(String v, String option) {
    try {
      float x = Float.parseFloat(v);
      if (x > 0f && Float.isFinite(x)) return x;
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(option + " takes a positive number, not " + v);
  }

  private static long whole(String v, String option) {
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " takes a whole number, not " + v);
    }
  }
}
