// Fine-tuning all-MiniLM-L6-v2 on a real labelled task (which license a sentence comes from), through the API and `loopjit classify`.
package dev.loopjit.embeddings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.nn.FineTuning;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The task: sentences of four license texts Debian ships (GPL-3, Apache-2.0, MPL-2.0, GFDL-1.3),
 * labelled with their license; every fifth held out. A fresh head is at chance (~25 %); two epochs
 * of the head and the last block reach ~70 % on the held-out sentences (the 6 layers' gradients
 * run on a CPU device of the run; nn-layers' EncoderClassifierTest shows the same bits on every device).
 */
class SentenceClassifierTest {
  private static final List<String> LICENSES = List.of("GPL-3", "Apache-2.0", "MPL-2.0", "GFDL-1.3");
  @TempDir Path dir;

  /** The run's fastest CPU device: PoCL's, else jvm-mt, else the jvm (the simulated CUDA device would take hours for MiniLM's steps). */
  private static Device host() {
    for (String id : List.of("opencl:0", "jvm-mt"))
      for (Device d : Devices.all())
        if (d.id().equals(id) && d.kind() != Device.Kind.GPU) return d;
    return Devices.get("jvm");
  }

  private record Split(List<String> train, List<String> trainLabels, List<String> test, List<String> testLabels) {}

  private static Split split() throws IOException {
    Split s = new Split(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    List<String[]> all = Corpus.byLicense(LICENSES.toArray(String[]::new));
    for (int i = 0; i < all.size(); i++) {
      boolean held = i % 5 == 4;
      (held ? s.test() : s.train()).add(all.get(i)[1]);
      (held ? s.testLabels() : s.trainLabels()).add(all.get(i)[0]);
    }
    return s;
  }

  @Test
  void fineTuningTheLastBlockLearnsWhichLicenseASentenceComesFrom() throws IOException {
    Split data = split();
    FineTuning tune = FineTuning.classes(4).withMaxTokens(32);
    try (SentenceClassifier c = SentenceClassifier.allMiniLmL6V2(LICENSES, host(), tune)) {
      double before = c.accuracy(data.test(), data.testLabels());
      float first = c.epoch(data.train(), data.trainLabels(), new Random(1)), second = c.epoch(data.train(), data.trainLabels(), new Random(2));
      double after = c.accuracy(data.test(), data.testLabels());
      assertTrue(before < 0.4, "a fresh head is near chance: " + before);
      assertTrue(second < first, "the loss falls: " + first + " → " + second);
      assertTrue(after >= 0.6, "held-out accuracy after two epochs: " + after + " (" + data.test().size() + " sentences)");

      // the tuned block is in the tuned encoder: its embeddings differ from the pretrained ones, and give the classifier's logits
      float[] head = c.classifier().headParameters();
      try (SentenceEncoder tuned = c.tunedEncoder(4); SentenceEncoder pretrained = SentenceEncoder.allMiniLmL6V2(host(), 4)) {
        // sentences the classifier saw whole (it cuts at 32 tokens, the encoder at 256)
        List<String> some = data.test().stream().filter(s -> tuned.tokenizer().encode(s, 256).length <= 32).limit(4).toList();
        float[][] logits = c.logits(some);
        List<float[]> e = tuned.encode(some), p = pretrained.encode(some);
        double moved = 0;
        for (int s = 0; s < some.size(); s++) {
          for (int i = 0; i < 384; i++) moved = Math.max(moved, Math.abs(e.get(s)[i] - p.get(s)[i]));
          for (int k = 0; k < 4; k++) {
            float z = head[4 * 384 + k];
            for (int i = 0; i < 384; i++) z += head[k * 384 + i] * e.get(s)[i];
            assertEquals(z, logits[s][k], 1e-4, "sentence " + s + ", class " + k);
          }
        }
        assertTrue(moved > 1e-3, "the last block learned: the embeddings moved by " + moved);
      }
    }
  }

  @Test
  void labelsAreCheckedBeforeAnythingRuns() {
    Device jvm = Devices.get("jvm");
    assertEquals("3 labels but the settings have 2 classes", assertThrows(IllegalArgumentException.class,
        () -> SentenceClassifier.allMiniLmL6V2(List.of("a", "b", "c"), jvm, FineTuning.classes(2))).getMessage());
    assertEquals("labels must be distinct and not null: [a, a]", assertThrows(IllegalArgumentException.class,
        () -> SentenceClassifier.allMiniLmL6V2(List.of("a", "a"), jvm, FineTuning.classes(2))).getMessage());
    try (SentenceClassifier c = SentenceClassifier.allMiniLmL6V2(List.of("yes", "no"), jvm, FineTuning.classes(2).withLayers(0))) {
      assertEquals("sentence 1 has the label \"maybe\", not one of [yes, no]", assertThrows(IllegalArgumentException.class,
          () -> c.train(List.of("One.", "Two."), List.of("yes", "maybe"))).getMessage());
      assertEquals("sentence 0 is null", assertThrows(IllegalArgumentException.class,
          () -> c.predict(java.util.Arrays.asList((String) null))).getMessage());
      assertEquals(null, c.classifier().lastProfile(), "nothing ran");
    }
  }

  private record Run(int status, String out, String err) {}

  private static Run classify(String... args) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
    int status = ClassifyCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void loopjitClassifyTrainsReportsAndLabels() throws IOException {
    Split data = split();
    List<String> train = new ArrayList<>(), test = new ArrayList<>();
    for (int i = 0; i < data.train().size(); i += 4) train.add(data.trainLabels().get(i) + "\t" + data.train().get(i));
    for (int i = 0; i < data.test().size(); i += 4) test.add(data.testLabels().get(i) + "\t" + data.test().get(i));
    Path trainFile = Files.write(dir.resolve("train.tsv"), train), testFile = Files.write(dir.resolve("test.tsv"), test);
    Run r = classify("--train", trainFile.toString(), "--test", testFile.toString(), "--epochs", "1", "--max-tokens", "16", "--device", host().id(),
        "You may obtain a copy of the License at", "Permission is granted to copy this document.");
    assertEquals(0, r.status(), r.err());
    assertTrue(r.err().contains("labels [GPL-3, Apache-2.0, MPL-2.0, GFDL-1.3]; training the head and the last 1 of 6 blocks on " + host().id()), r.err());
    assertTrue(r.err().matches("(?s).*epoch 1/1: loss \\d+\\.\\d+, test accuracy \\d+\\.\\d %.*"), r.err());
    List<String> lines = r.out().lines().toList();
    assertEquals(2, lines.size(), r.out());
    assertTrue(LICENSES.contains(lines.get(0).split("\t")[0]) && lines.get(0).endsWith("\tYou may obtain a copy of the License at"), lines.get(0));
  }

  @Test
  void badArgumentsAndFilesAreRefusedWithStatus2() throws IOException {
    Path noTab = Files.write(dir.resolve("bad.tsv"), List.of("yes\tA sentence.", "no label here"));
    Path one = Files.write(dir.resolve("one.tsv"), List.of("yes\tA sentence.", "yes\tAnother."));
    Path good = Files.write(dir.resolve("good.tsv"), List.of("yes\tA sentence.", "no\tAnother."));
    Path other = Files.write(dir.resolve("other.tsv"), List.of("maybe\tA third."));
    Run r = classify("--train", noTab.toString());
    assertEquals(2, r.status());
    assertTrue(r.err().startsWith("loopjit classify: " + noTab + ", line 2: expected LABEL<TAB>SENTENCE, got \"no label here\""), r.err());
    assertTrue(classify("--train", one.toString()).err().contains("has only the label \"yes\"; a classifier needs two or more"));
    assertTrue(classify("--train", good.toString(), "--test", other.toString()).err().contains("the label \"maybe\" is not one of"));
    assertTrue(classify("A sentence.").err().startsWith("loopjit classify: --train FILE is needed"));
    assertTrue(classify("--train", good.toString(), "--lr-head", "-1").err().startsWith("loopjit classify: --lr-head takes a positive number"));
    Run blocks = classify("--train", good.toString(), "--layers", "7", "--device", "jvm");
    assertEquals(2, blocks.status());
    assertEquals("loopjit classify: cannot train the last 7 blocks of an encoder of 6\n", blocks.err());
    assertEquals(0, classify("--help").status());
    dev.loopjit.cli.UsageCheck.listsEveryOption("classify", ClassifyCommand.USAGE, 16);
  }
}
