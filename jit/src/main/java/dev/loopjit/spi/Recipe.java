// How one target language turns a task into device code: one recipe, shared by the runtime that runs it and the dump.
package dev.loopjit.spi;

import dev.loopjit.api.Device;
import dev.loopjit.compiler.Compiler;
import dev.loopjit.ir.Target;
import dev.loopjit.ir.KernelIR;

/**
 * A target language's recipe: the compile {@link Target} for a device (or for no device, to read
 * the code offline), and the code a task becomes. A backend's runtime compiles through its recipe,
 * and {@code KernelCode.of} / {@code loopjit dump} call the same one, so what is dumped is what runs.
 */
public interface Recipe {
  /** The language: {@code "opencl"}, {@code "ptx"}, {@code "spirv"}. */
  String language();

  /** The language as people name it: {@code "OpenCL C"}, {@code "PTX"}, {@code "SPIR-V"}. */
  String displayName();

  /**
   * The compile target for {@code device}, or for no device ({@code null}: every capability, for
   * reading code offline). {@code variant} selects a sub-target ({@code "sm_90"}), empty for the default.
   */
  Target target(Device device, String variant, Options options);

  /** The code of {@code task} for {@code target}; KernelCompilationException when it cannot be compiled. */
  default DeviceCode generate(TaskSpec task, Target target, Options options) {
    return emit(Compiler.compile(task.method(), target, options.dump(), options.flag("verifyIr")), target);
  }

  /** The code of a lowered kernel. */
  DeviceCode emit(KernelIR ir, Target target);

  /** The code as people read it (a binary language's disassembly); by default its text. */
  default String show(DeviceCode code) {
    return code.text();
  }
}
