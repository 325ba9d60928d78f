// nn-layers is written against the public API only, as a user's code would be.
package dev.loopjit.nn;

import dev.loopjit.architecture.ArchitectureRules;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PublicApiOnlyTest {
  @Test
  void mainCodeUsesOnlyTheApiTheArraysAndTheLibrary() throws Exception {
    ArchitectureRules.assertUsesOnly(Path.of("target", "classes"), Set.of("api", "types", "tasks"));
  }
}
