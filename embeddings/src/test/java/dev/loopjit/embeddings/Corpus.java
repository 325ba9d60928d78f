// Sentences LoopJIT did not write: the license texts every Debian system ships (base-files' /usr/share/common-licenses), split at sentence ends;
// labelled by their license, a classification task.
package dev.loopjit.embeddings;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/** The test corpus: 1,067 distinct sentences of English legal prose, 2 to 123 words each. */
final class Corpus {
  static final Path LICENSES = Path.of("/usr/share/common-licenses");

  private Corpus() {}

  /** Every distinct sentence of at least 12 characters, in file-name order. */
  static List<String> sentences() throws IOException {
    if (!Files.isDirectory(LICENSES)) throw new IllegalStateException(LICENSES + " is missing: it comes with Debian's base-files package");
    List<Path> files;
    try (Stream<Path> s = Files.list(LICENSES)) {
      files = s.filter(p -> !Files.isSymbolicLink(p) && Files.isRegularFile(p)).sorted().toList();
    }
    Set<String> out = new LinkedHashSet<>();
    for (Path f : files) out.addAll(split(new String(Files.readAllBytes(f), StandardCharsets.UTF_8)));
    return new ArrayList<>(out);
  }

  /** A labelled task: each distinct sentence of the named license texts, labelled with its file's name, in file order. */
  static List<String[]> byLicense(String... names) throws IOException {
    Set<String> seen = new LinkedHashSet<>();
    List<String[]> out = new ArrayList<>();
    for (String name : names)
      for (String s : split(Files.readString(LICENSES.resolve(name), StandardCharsets.UTF_8)))
        if (seen.add(s)) out.add(new String[] {name, s});
    return out;
  }

  /** A text's sentences of at least 12 characters, split at sentence ends. */
  private static List<String> split(String text) {
    List<String> out = new ArrayList<>();
    for (String s : text.replaceAll("\\s+", " ").split("(?<=[.!?;:])\\s+")) {
      s = s.strip();
      if (s.length() >= 12) out.add(s);
    }
    return out;
  }

  /** Every {@code step}-th sentence: a sample spread over all the texts. */
  static List<String> sample(int step) throws IOException {
    List<String> all = sentences(), out = new ArrayList<>();
    for (int i = 0; i < all.size(); i += step) out.add(all.get(i));
    return out;
  }
}
