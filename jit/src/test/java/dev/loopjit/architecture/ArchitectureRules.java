// The architecture rules other modules' tests apply to their own classes: programs use the public API only.
package dev.loopjit.architecture;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/** Checks, for a module's tests, which LoopJIT packages its main classes use. */
public final class ArchitectureRules {
  private ArchitectureRules() {}

  /**
   * Fails when a class under {@code classes} (a module's {@code target/classes}) uses a LoopJIT
   * package other than {@code allowed} (as folded by {@link PackageGraph}: {@code "api"},
   * {@code "types"}, {@code "tasks"}, …) or its own.
   */
  public static void assertUsesOnly(Path classes, Set<String> allowed) throws IOException {
    if (!Files.isDirectory(classes)) throw new AssertionError("no classes at " + classes.toAbsolutePath());
    PackageGraph g = PackageGraph.of(classes);
    List<String> wrong = g.uses().stream()
        .filter(u -> !PackageGraph.packageOf(u.from()).equals(PackageGraph.packageOf(u.to())))
        .filter(u -> !allowed.contains(PackageGraph.packageOf(u.to())))
        .map(u -> u.from() + " uses " + u.to()).distinct().toList();
    if (!wrong.isEmpty())
      throw new AssertionError("only the public API (" + allowed + ") may be used here:\n  " + String.join("\n  ", wrong));
  }
}
