// Keeps the training guide true: its Java examples compile.
package dev.loopjit.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loopjit.testing.MarkdownExamples;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class GuideExamplesTest {
  /** The examples compile with the JDK's compiler: a bundle's runtime (a GPU host's) has none, nor the docs; every build with Maven has both. */
  @BeforeEach
  void needsAJavaCompiler() {
    assumeTrue(javax.tools.ToolProvider.getSystemJavaCompiler() != null, "no Java compiler in this runtime: the guide's examples are checked by the build");
  }

  @Test
  void theTrainingGuidesExamplesCompile() throws Exception {
    assertEquals(List.of(), MarkdownExamples.problems(Path.of("../docs/guide/training.md")));
  }
}
