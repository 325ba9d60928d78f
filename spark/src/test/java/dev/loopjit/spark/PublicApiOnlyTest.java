// The Spark module is written against the public API only (the engine's API, the arrays, nn-layers), as a user's code would be.
package dev.loopjit.spark;

import dev.loopjit.architecture.ArchitectureRules;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PublicApiOnlyTest {
  @Test
  void mainCodeUsesOnlyTheApiTheArraysAndNnLayers() throws Exception {
    ArchitectureRules.assertUsesOnly(Path.of("target", "classes"), Set.of("api", "types", "nn"));
  }
}
