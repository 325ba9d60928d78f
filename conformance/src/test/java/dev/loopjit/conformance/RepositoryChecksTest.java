// The repository's offline checks are on: every KernelCheck in this build also emits SPIR-V (and PTX for ptxas where installed).
package dev.loopjit.conformance;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.backend.cuda.Ptxas;
import dev.loopjit.testing.KernelCheck;
import java.util.List;
import org.junit.jupiter.api.Test;

class RepositoryChecksTest {
  @Test
  void kernelCheckFindsTheRepositoryExtension() {
    List<String> names = KernelCheck.OFFLINE_EMITTERS.stream().map(KernelCheck.OfflineEmitter::name).toList();
    assertTrue(names.stream().anyMatch(n -> n.startsWith("spirv-val") || n.startsWith("SPIR-V emission")), names.toString());
    if (Ptxas.present()) assertTrue(names.containsAll(List.of("ptxas sm_80", "ptxas sm_90")), names.toString());
  }
}
