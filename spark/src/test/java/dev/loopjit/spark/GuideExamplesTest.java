// Keeps the Spark guide true: its Java examples compile (but the one that names kernels of your own).
package dev.loopjit.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loopjit.testing.MarkdownExamples;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class GuideExamplesTest {
  @Test
  void theSparkGuidesExamplesCompile() throws Exception {
    assertEquals(List.of(), MarkdownExamples.problems(Path.of("../docs/guide/spark.md")));
  }
}
