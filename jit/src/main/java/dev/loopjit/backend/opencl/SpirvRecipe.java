// The SPIR-V recipe of OpenCL devices: the target for a device that takes SPIR-V (or none) and the module a task becomes.
package dev.loopjit.backend.opencl;

import dev.loopjit.api.Device;
import dev.loopjit.backend.spirv.SpirvDisassembler;
import dev.loopjit.backend.spirv.SpirvEmitter;
import dev.loopjit.backend.spirv.SpirvTools;
import dev.loopjit.ir.Target;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.spi.DeviceCode;
import dev.loopjit.spi.Options;
import dev.loopjit.spi.Recipe;
import dev.loopjit.spi.Targets;

/**
 * SPIR-V from {@link SpirvEmitter}, as an OpenCL device builds it in the {@link ProgramForm} chosen
 * for it: the version the device lists in CL_DEVICE_IL_VERSION (clCreateProgramWithIL), or the
 * emitter's default for the llvm-spirv bridge and for reading the code with no device (the variant
 * {@code spirv:1.N} picks another). The code's text is LoopJIT's own disassembly (stable, for the
 * cache and errors); {@link #show} prefers {@code spirv-dis} when it is installed.
 *
 * @param form the form the device builds ({@link ProgramForm#SPIRV_IL} for no device)
 */
record SpirvRecipe(ProgramForm form) implements Recipe {
  /** The recipe for reading SPIR-V with no device. */
  static final SpirvRecipe OFFLINE = new SpirvRecipe(ProgramForm.SPIRV_IL);

  @Override
  public String language() {
    return "spirv";
  }

  @Override
  public String displayName() {
    return "SPIR-V";
  }

  @Override
  public Target target(Device device, String variant, Options options) {
    if (!(device instanceof OpenClDevice d)) {
      String version = variant.isEmpty() ? SpirvEmitter.DEFAULT_VERSION : variant;
      if (!version.matches("1\\.[0-9]+")) throw new IllegalArgumentException("SPIR-V version \"" + version + "\" is not 1.N");
      return Targets.of("spirv", version, null, true, null, options);
    }
    String version = form == ProgramForm.SPIRV_IL ? ProgramForm.spirvVersion(d.ilVersion()) : SpirvEmitter.DEFAULT_VERSION;
    return Targets.of("spirv", version, d, d.int64Atomics(), null, options);
  }

  @Override
  public DeviceCode emit(KernelIR ir, Target target) {
    byte[] module = SpirvEmitter.emit(ir, target);
    return DeviceCode.binary(ir, "spirv", SpirvDisassembler.disassemble(module), module);
  }

  @Override
  public String show(DeviceCode code) {
    return SpirvTools.text(code.binary());
  }
}
