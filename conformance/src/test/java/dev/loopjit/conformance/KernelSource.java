// The line of a marker comment in a conformance kernel's source, read as a test resource (so the suite also runs from the bundle).
package dev.loopjit.conformance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** For tests that expect a kernel's line in an exception: the source files are test resources (conformance/pom.xml). */
final class KernelSource {
  private KernelSource() {}

  /** The 1-based line of {@code kernels}' source file that contains {@code marker}. */
  static int lineOf(Class<?> kernels, String marker) throws IOException {
    String file = kernels.getSimpleName() + ".java";
    List<String> lines;
    try (var in = kernels.getResourceAsStream(file)) {
      if (in == null) throw new AssertionError(file + " is not on the class path (a test resource of conformance/pom.xml)");
      lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
    for (int i = 0; i < lines.size(); i++) if (lines.get(i).contains(marker)) return i + 1;
    throw new AssertionError("no line with " + marker + " in " + file);
  }
}
