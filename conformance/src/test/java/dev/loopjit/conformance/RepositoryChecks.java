// LoopJIT's own extension of KernelCheck: every kernel any of the repository's tests checks is also assembled and validated offline.
package dev.loopjit.conformance;

import dev.loopjit.spi.TaskSpec;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.testing.KernelCheckExtension;
import java.util.ArrayList;
import java.util.List;

/**
 * The checks loopjit-testing runs for this repository besides the device comparison: {@code ptxas}
 * for sm_80 and sm_90 where the CUDA toolkit is installed ({@link PtxCheck}) and SPIR-V emission,
 * disassembly and {@code spirv-val} ({@link SpirvCheck}). Named in this module's test
 * {@code META-INF/services}, and so found in the test jar that tornado-tasks' and nn-layers' tests
 * put on their class path.
 */
public final class RepositoryChecks implements KernelCheckExtension {
  @Override
  public List<KernelCheck.OfflineEmitter> offlineEmitters() {
    List<KernelCheck.OfflineEmitter> all = new ArrayList<>(PtxCheck.emitters());
    all.addAll(SpirvCheck.emitters());
    return all;
  }

  /** The engine's task for a checked kernel, as the emitters' recipes take it. */
  static TaskSpec task(KernelCheck.CheckedKernel k) {
    return TaskSpec.of("check", k.name().replaceAll("[^A-Za-z0-9_]", "_"), k.kernel(), k.args().toArray());
  }
}
