// The offline check every checked kernel gets: its SPIR-V is emitted, read back by our disassembler, and accepted by spirv-val.
package dev.loopjit.conformance;

import dev.loopjit.backend.spirv.SpirvDisassembler;
import dev.loopjit.backend.spirv.SpirvTools;
import dev.loopjit.runtime.Backends;
import dev.loopjit.spi.Options;
import dev.loopjit.spi.Recipe;
import dev.loopjit.spi.TaskSpec;
import dev.loopjit.testing.KernelCheck;
import java.util.List;

/**
 * Compiles a task for SPIR-V (no device needed) and checks the module: LoopJIT's disassembler
 * reads it whole, and, where SPIRV-Tools are installed, {@code spirv-val} accepts it as SPIR-V 1.2
 * in the OpenCL 2.2 environment and, with only the version word changed, as SPIR-V 1.0 in the
 * OpenCL 1.2 environment (modules with 64-bit atomics against the core rules, see
 * {@link SpirvTools#targetEnv}). Where spirv-val is missing the modules are still emitted and
 * disassembled; {@code SpirvEmitterTest.theValidatorIsInstalledAndRejectsABrokenModule} is then
 * reported as skipped, with the reason, so the gap shows in the test report.
 */
final class SpirvCheck {
  private SpirvCheck() {}

  static List<KernelCheck.OfflineEmitter> emitters() {
    return List.of(new KernelCheck.OfflineEmitter(SpirvTools.validator() != null ? "spirv-val" : "SPIR-V emission (spirv-val not installed)",
        k -> check(RepositoryChecks.task(k))));
  }

  /** Null when the task's SPIR-V is emitted and accepted; else what went wrong, with the module's text. */
  static String check(TaskSpec task) {
    Recipe spirv = Backends.recipe("spirv");
    byte[] spv;
    try {
      spv = spirv.generate(task, spirv.target(null, "", Options.DEFAULTS), Options.DEFAULTS).binary();
    } catch (RuntimeException e) {
      return "SPIR-V emission failed: " + e;
    }
    String text;
    try {
      text = SpirvDisassembler.disassemble(spv);
    } catch (RuntimeException e) {
      return "LoopJIT's disassembler cannot read the module: " + e;
    }
    if (SpirvTools.validator() == null) return null;
    for (byte[] module : List.of(spv, withVersion(spv, 0))) {
      String env = SpirvTools.targetEnv(module);
      SpirvTools.Result r = SpirvTools.validate(module, env);
      if (!r.ok()) return "spirv-val --target-env " + env + ": " + r.output() + "\n" + text;
    }
    return null;
  }

  /** The same module declaring SPIR-V 1.{@code minor}. */
  static byte[] withVersion(byte[] spv, int minor) {
    byte[] copy = spv.clone();
    copy[5] = (byte) minor;   // word 1 is 0x0001mm00, little-endian: byte 5 is the minor version
    return copy;
  }
}
