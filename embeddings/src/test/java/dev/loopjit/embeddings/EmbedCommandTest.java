// `loopjit embed` as a user runs it: lines of numbers in input order, a search ranked by meaning, bad arguments refused with exit 2.
package dev.loopjit.embeddings;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.Devices;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbedCommandTest {
  @TempDir Path dir;

  private record Run(int status, String out, String err) {}

  private static Run run(String... args) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
    int status = EmbedCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private static float[] numbers(String line) {
    String[] parts = line.split(" ");
    float[] v = new float[parts.length];
    for (int i = 0; i < parts.length; i++) v[i] = Float.parseFloat(parts[i]);
    return v;
  }

  @Test
  void eachInputLineBecomesOneLineOf384NumbersInOrder() throws IOException {
    List<String> sentences = List.of("The first line.", "", "A third, longer line with more words than the others have.");
    Path input = Files.write(dir.resolve("in.txt"), sentences, StandardCharsets.UTF_8), output = dir.resolve("out.txt");
    Run r = run("--device", "jvm", "--batch", "2", "--input", input.toString(), "--output", output.toString());
    assertEquals(0, r.status(), r.err());
    List<String> lines = Files.readAllLines(output);
    assertEquals(3, lines.size());
    try (SentenceEncoder encoder = SentenceEncoder.allMiniLmL6V2(Devices.get("jvm"))) {
      for (int i = 0; i < 3; i++) {
        float[] v = numbers(lines.get(i));
        assertEquals(384, v.length);
        assertArrayEquals(encoder.encode(sentences.get(i)), v, "line " + i + " reads back to the embedding, bit for bit");
      }
    }
    Run args = run("--device", "jvm", "One.", "Two.");
    assertEquals(0, args.status(), args.err());
    assertEquals(2, args.out().lines().count());
  }

  @Test
  void searchRanksAFilesLinesByMeaning() throws IOException {
    Path file = Files.write(dir.resolve("lines.txt"),
        List.of("Stock markets fell sharply today.", "The cat sat on the mat.", "A kitten is resting on a rug.", "The weather is sunny."));
    Run r = run("--device", "jvm", "--search", file.toString(), "a small cat lying down", "--top", "2");
    assertEquals(0, r.status(), r.err());
    List<String> ranked = r.out().lines().toList();
    assertEquals(2, ranked.size(), r.out());
    assertTrue(ranked.get(0).endsWith("\tA kitten is resting on a rug.") || ranked.get(0).endsWith("\tThe cat sat on the mat."), r.out());
    assertTrue(ranked.stream().noneMatch(l -> l.contains("Stock")), r.out());
    assertTrue(Float.parseFloat(ranked.get(0).split("\t")[0]) >= Float.parseFloat(ranked.get(1).split("\t")[0]), r.out());
  }

  @Test
  void badArgumentsExitWith2AndSayWhy() throws IOException {
    for (String[] args : List.of(new String[] {"--bogus"}, new String[] {"--batch", "0", "x"}, new String[] {"--input", dir.resolve("none").toString()},
        new String[] {"--model", "m.onnx", "x"}, new String[] {"--input", "a", "sentence"}, new String[] {"--search", "f"},
        new String[] {"--top", "-1", "x"})) {
      Run r = run(args);
      assertEquals(2, r.status(), String.join(" ", args));
      assertTrue(r.err().startsWith("loopjit embed: ") && r.err().contains("usage: loopjit embed"), r.err());
      assertEquals("", r.out());
    }
  }

  @Test
  void anUnknownDeviceOrAMissingModelFileExitsWith2NamingIt() throws IOException {
    Run device = run("--device", "no-such-device", "x");
    assertEquals(2, device.status(), device.err());
    assertTrue(device.err().startsWith("loopjit embed: ") && device.err().contains("no-such-device"), device.err());
    Run model = run("--model", dir.resolve("none.onnx").toString(), "--tokenizer", dir.resolve("none.json").toString(), "x");
    assertEquals(2, model.status(), model.err());
    assertTrue(model.err().contains("none.onnx is not a file"), model.err());
    Path junk = Files.write(dir.resolve("junk.onnx"), new byte[] {1, 2, 3}), json = dir.resolve("tokenizer.json");
    try (var in = SentenceEncoder.class.getResourceAsStream(SentenceEncoder.MINILM_TOKENIZER)) {
      Files.copy(in, json);
    }
    Run notOnnx = run("--device", "jvm", "--model", junk.toString(), "--tokenizer", json.toString(), "x");
    assertEquals(2, notOnnx.status(), notOnnx.err());
    assertTrue(notOnnx.err().contains("junk.onnx is not an ONNX model"), notOnnx.err());
  }

  @Test
  void loopjitWithNoArgumentsListsEveryOptionOfEmbed() {
    dev.loopjit.cli.UsageCheck.listsEveryOption("embed", EmbedCommand.USAGE, 9);
  }

}
