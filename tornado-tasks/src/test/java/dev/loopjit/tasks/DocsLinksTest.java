// Keeps the documentation's links true: every relative link of the README, the changelog and docs/ names a file that exists.
package dev.loopjit.tasks;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class DocsLinksTest {
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)#\\s]+)(#[^)]*)?\\)");

  @Test
  void everyRelativeLinkOfTheDocsNamesAFileThatExists() throws IOException {
    Path root = Path.of("..");
    List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md"), root.resolve("CHANGELOG.md")));
    try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).forEach(pages::add);
    }
    List<String> broken = new ArrayList<>();
    for (Path page : pages) {
      Matcher m = LINK.matcher(Files.readString(page));
      while (m.find()) {
        String target = m.group(1);
        if (target.startsWith("http:") || target.startsWith("https:") || target.startsWith("mailto:")) continue;
        if (!Files.exists(page.getParent().resolve(target))) broken.add(root.relativize(page) + " -> " + target);
      }
    }
    assertTrue(pages.size() > 20, "the user guide's pages: " + pages);
    assertTrue(broken.isEmpty(), "links to no file:\n" + String.join("\n", broken));
  }
}
