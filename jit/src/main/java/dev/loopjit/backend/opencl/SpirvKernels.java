// A task's kernel for an OpenCL device as a SPIR-V program: the target, the module, the dump, the build and its errors.
package dev.loopjit.backend.opencl;

import dev.loopjit.api.KernelCompilationException;
import dev.loopjit.backend.spirv.SpirvDisassembler;
import dev.loopjit.backend.spirv.SpirvEmitter;
import dev.loopjit.backend.spirv.SpirvTools;
import dev.loopjit.compiler.Compiler;
import dev.loopjit.compiler.MethodRef;
import dev.loopjit.compiler.Target;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.runtime.Settings;
import dev.loopjit.runtime.TaskSpec;
import java.lang.foreign.MemorySegment;

/**
 * What {@link OpenClRuntime} does for a task when the device builds SPIR-V ({@link ProgramForm}):
 * the same lowered IR as for OpenCL C (the runtime binds arguments from it the same way), the
 * module from {@link SpirvEmitter}, the program from the context's {@link SpirvPrograms}.
 * {@code -Dloopjit.dump=spirv} prints the module's disassembly as it is built.
 */
final class SpirvKernels {
  private SpirvKernels() {}

  /** A built kernel program and what it cost; {@code compiled} when no cache had it. */
  record Built(KernelIR ir, MemorySegment program, boolean compiled, long compileNanos, long driverNanos) {}

  /** The compile target: SPIR-V of the version the device lists (the default through the bridge), with the device's capabilities. */
  static Target target(OpenClDevice device, ProgramForm form) {
    String version = form == ProgramForm.SPIRV_IL ? ProgramForm.spirvVersion(device.ilVersion()) : SpirvEmitter.DEFAULT_VERSION;
    return Target.of("spirv", version, device, device.int64Atomics());
  }

  /**
   * The build options: Java's correctly rounded float {@code /} and sqrt where the device has them
   * (OpFDiv and OpenCL.std sqrt may be 2.5 and 3 ulp off otherwise), fast math when asked for.
   */
  static String options(OpenClDevice device, Target target) {
    StringBuilder b = new StringBuilder();
    if (device.correctlyRoundedDivideSqrt()) b.append("-cl-fp32-correctly-rounded-divide-sqrt");
    if (target.fastMath()) b.append(b.isEmpty() ? "" : " ").append("-cl-fast-relaxed-math");
    return b.toString();
  }

  /** Compiles {@code task} to SPIR-V and builds it (or finds it built); throws KernelCompilationException with the driver's log when the device refuses it. */
  static Built build(TaskSpec task, Target target, ProgramForm form, OpenClContext context) {
    OpenClDevice device = context.device();
    long t0 = System.nanoTime();
    KernelIR ir = Compiler.compile(task.method(), target);
    byte[] spv = SpirvEmitter.emit(ir, target);
    long compileNanos = System.nanoTime() - t0;
    String options = options(device, target);
    MemorySegment program = context.spirv().cached(form, spv, options);
    if (program != null) return new Built(ir, program, false, compileNanos, 0);
    if (Settings.dump("spirv")) System.out.println("// SPIR-V of " + task.method().display() + " for " + device + " (" + form.description + ")\n" + SpirvTools.text(spv));
    try {
      ProgramCache.Built b = context.spirv().build(form, spv, options);
      return new Built(ir, b.program(), b.fromSource(), compileNanos, b.driverNanos());
    } catch (ProgramCache.BuildFailure f) {
      throw error(task, device, form, spv, SpirvPrograms.buildOptions(form, options),
          OpenClException.name(f.code) + ", " + (f.log.isBlank() ? "the driver gave no build log" : "build log:\n" + f.log));
    } catch (IllegalStateException e) {   // the bridge's translator
      throw error(task, device, form, spv, SpirvPrograms.buildOptions(form, options), e.getMessage());
    }
  }

  private static KernelCompilationException error(TaskSpec task, OpenClDevice device, ProgramForm form, byte[] spv, String options, String why) {
    MethodRef m = task.method();
    String msg = m.display() + ": the generated " + form.description + " does not build for " + device + " (options \"" + options + "\"): "
        + why + "\n--- generated SPIR-V ---\n" + SpirvDisassembler.disassemble(spv);
    return new KernelCompilationException(m.owner().getName(), m.name(), -1, form.description + " build", msg);
  }
}
