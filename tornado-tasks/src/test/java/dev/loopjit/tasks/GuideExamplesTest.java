// Keeps the user guide true: the Java examples of its pages on the API, the kernels and the testing library compile.
package dev.loopjit.tasks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loopjit.testing.MarkdownExamples;
import java.nio.file.Path;
import java.util.ArrayList;
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
  void theGuidesExamplesCompile() throws Exception {
    List<String> problems = new ArrayList<>();
    for (String page : List.of("kernelcontext.md", "reductions.md", "task-graphs.md", "prebuilt-kernels.md", "testing-your-kernels.md"))
      problems.addAll(MarkdownExamples.problems(Path.of("../docs/guide", page)));
    assertEquals(List.of(), problems);
  }

  @Test
  void aBrokenExampleIsReported() throws Exception {
    Path page = java.nio.file.Files.createTempFile("broken", ".md");
    java.nio.file.Files.writeString(page, """
        Text.
        <!-- given: FloatArray x -->
        ```java
        x.set(0, 1f);
        x.noSuchMethod();
        ```
        """);
    List<String> problems = MarkdownExamples.problems(page);
    assertEquals(1, problems.size(), problems.toString());
    assertEquals(true, problems.getFirst().contains("example 1 (x.set(0, 1f);)") && problems.getFirst().contains("noSuchMethod"), problems.getFirst());
  }
}
