// Keeps the embeddings guide true: its Java examples compile.
package dev.loopjit.embeddings;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loopjit.testing.MarkdownExamples;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class GuideExamplesTest {
  @Test
  void theEmbeddingsGuidesExamplesCompile() throws Exception {
    assertEquals(List.of(), MarkdownExamples.problems(Path.of("../docs/guide/embeddings.md")));
  }
}
