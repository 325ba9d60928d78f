// Compiles a generated kernel for every target without running it: a refusal or a crash of the compiler or an emitter is a finding.
package dev.loopjit.fuzz;

import dev.loopjit.backend.cuda.PtxEmitter;
import dev.loopjit.backend.cuda.Ptxas;
import dev.loopjit.backend.opencl.OpenClEmitter;
import dev.loopjit.compiler.Compiler;
import dev.loopjit.ir.MethodRef;
import dev.loopjit.ir.Target;
import dev.loopjit.conformance.SpirvCheck;
import dev.loopjit.fuzz.Differential.Finding;
import dev.loopjit.spi.TaskSpec;
import java.io.Serializable;
import java.util.List;

/**
 * The fast half of the fuzzer ({@code scripts/fuzz} with {@code FUZZ_COMPILE_ONLY=1}): every
 * generated kernel is valid Java that LoopJIT must compile, so each is lowered and emitted for
 * OpenCL on a CPU (the {@code uniform} pass's shape), OpenCL on a GPU, and PTX, which {@code ptxas}
 * assembles where the CUDA toolkit is installed, and SPIR-V, which {@code spirv-val} validates where
 * SPIRV-Tools are installed ({@link SpirvCheck}) — no device, no driver, some thousands of kernels a
 * minute. It finds what the structurer or a pass refuses or crashes on, and code a tool rejects;
 * only the device runs find wrong results.
 */
final class OfflineCheck {
  private OfflineCheck() {}

  private static final List<Target> TARGETS = List.of(
      Target.of("opencl").withLocalMemoryBytes(64 * 1024).withMaxWorkGroupSize(4096).withCpu(true),
      Target.offline("opencl", ""),
      Target.offline("ptx", "sm_90", PtxEmitter.nativeIntrinsics(false), false));

  /** The places {@link #check} compiles for, as the fuzzer's run counts name them. */
  static final List<String> PLACES = List.of("compile:opencl-cpu", "compile:opencl", "compile:ptx", "compile:spirv");

  /** Null when every target compiles {@code k} ({@code task}), else what went wrong (device: the target's language). */
  static Finding check(FuzzKernel k, Serializable task) {
    MethodRef m = MethodRef.ofLambda(task, "k");
    try {   // refused for its meaning (a value carried between iterations): refused on the jvm too, so on every target alike
      Compiler.checkParallelMeaning(m);
    } catch (dev.loopjit.api.KernelCompilationException e) {
      return null;
    }
    for (Target t : TARGETS) {
      String where = "compile:" + t.language() + (t.cpu() ? "-cpu" : "");
      try {
        String code = t.language().equals("ptx") ? PtxEmitter.emit(Compiler.compile(m, t), t) : OpenClEmitter.emit(Compiler.compile(m, t), t);
        if (code.isEmpty()) return new Finding(where, "throws", "empty code", "the emitter gave no code");
        if (t.language().equals("ptx") && Ptxas.present()) {
          Ptxas.Result r = Ptxas.assemble(code, t.variant());
          if (!r.ok()) return new Finding("ptxas:" + t.variant(), "refuses", r.output().lines().findFirst().orElse("").replaceAll("[0-9]+", "N"),
              r.output() + "\n" + code);
        }
      } catch (RuntimeException | AssertionError e) {
        boolean refused = e instanceof dev.loopjit.api.KernelCompilationException;
        return new Finding(where, refused ? "refuses" : "throws", Differential.key(e), Differential.firstLines(e, 40));
      }
    }
    try {
      String why = SpirvCheck.check(TaskSpec.of("fuzz", "k", task, k.arguments()));
      if (why != null) return new Finding("compile:spirv", why.startsWith("spirv-val") ? "refuses" : "throws",
          why.lines().findFirst().orElse("").replaceAll("[0-9]+", "N").replaceAll("'[^']*'", "'…'"), why);
    } catch (RuntimeException | AssertionError e) {
      return new Finding("compile:spirv", "throws", Differential.key(e), Differential.firstLines(e, 40));
    }
    return null;
  }
}
