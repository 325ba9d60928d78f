// The offline check every checked kernel gets where ptxas is installed: its PTX assembles for sm_80 and sm_90.
package dev.loopjit.conformance;

import dev.loopjit.backend.cuda.PtxRecipe;
import dev.loopjit.backend.cuda.Ptxas;
import dev.loopjit.compiler.Target;
import dev.loopjit.spi.Options;
import dev.loopjit.spi.TaskSpec;
import dev.loopjit.testing.KernelCheck;
import java.util.ArrayList;
import java.util.List;

/**
 * Compiles a task for PTX and assembles it with {@code ptxas} (CUDA toolkit, no GPU needed). The
 * list is empty where ptxas is absent, so machines without the toolkit run the device checks only.
 */
final class PtxCheck {
  static final List<String> ARCHITECTURES = List.of("sm_80", "sm_90");

  private PtxCheck() {}

  static List<KernelCheck.OfflineEmitter> emitters() {
    List<KernelCheck.OfflineEmitter> out = new ArrayList<>();
    if (!Ptxas.present()) return out;
    for (String sm : ARCHITECTURES) out.add(new KernelCheck.OfflineEmitter("ptxas " + sm, k -> assemble(RepositoryChecks.task(k), sm)));
    return out;
  }

  /** Null when the task's PTX assembles for {@code sm}; else what went wrong, with the PTX. */
  static String assemble(TaskSpec task, String sm) {
    Target target = PtxRecipe.INSTANCE.target(null, sm, Options.DEFAULTS);
    String ptx;
    try {
      ptx = PtxRecipe.INSTANCE.generate(task, target, Options.DEFAULTS).text();
    } catch (RuntimeException e) {
      return "PTX emission failed: " + e;
    }
    Ptxas.Result r = Ptxas.assemble(ptx, sm);
    return r.ok() ? null : r.output() + "\n" + ptx;
  }
}
