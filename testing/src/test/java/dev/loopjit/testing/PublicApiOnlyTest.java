// loopjit-testing is written against the public API only, as a user's tests would be.
package dev.loopjit.testing;

import dev.loopjit.architecture.ArchitectureRules;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PublicApiOnlyTest {
  @Test
  void mainCodeUsesOnlyTheApiAndTheArrays() throws Exception {
    ArchitectureRules.assertUsesOnly(Path.of("target", "classes"), Set.of("api", "types"));
  }
}
