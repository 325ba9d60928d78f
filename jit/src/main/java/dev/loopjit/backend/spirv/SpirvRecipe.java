// The SPIR-V recipe of OpenCL devices: the target for a device that takes SPIR-V (or none) and the module a task becomes.
package dev.loopjit.backend.spirv;

import dev.loopjit.api.Device;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Target;
import dev.loopjit.spi.DeviceCode;
import dev.loopjit.spi.Options;
import dev.loopjit.spi.Recipe;
import dev.loopjit.spi.Targets;

/**
 * SPIR-V from {@link SpirvEmitter}, as a device builds it: in {@code version} (an OpenCL device's
 * CL_DEVICE_IL_VERSION for clCreateProgramWithIL, or the emitter's default for the llvm-spirv bridge;
 * with no device, the variant {@code spirv:1.N} or the default), {@code bridged} when the device
 * builds it through the llvm-spirv bridge (the build then needs the bridge's options), 64-bit atomics
 * as the device has them. The code's text is LoopJIT's own disassembly (stable, for the cache and
 * errors); {@link #show} prefers {@code spirv-dis} when it is installed. A backend makes one per device
 * (OpenCL's: {@code OpenClBackend}); this package depends on no backend.
 *
 * @param version      the SPIR-V version the device builds; null for reading the code with no device
 * @param int64Atomics the device has 64-bit atomic add
 * @param bridged      the device builds SPIR-V through the llvm-spirv bridge (PoCL without IL)
 */
public record SpirvRecipe(String version, boolean int64Atomics, boolean bridged) implements Recipe {
  /** The recipe for reading SPIR-V with no device. */
  public static final SpirvRecipe OFFLINE = new SpirvRecipe(null, true, false);

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
    if (device == null || version == null) {
      String v = variant.isEmpty() ? SpirvEmitter.DEFAULT_VERSION : variant;
      if (!v.matches("1\\.[0-9]+")) throw new IllegalArgumentException("SPIR-V version \"" + v + "\" is not 1.N");
      return Targets.of("spirv", v, null, true, null, options);
    }
    return Targets.of("spirv", version, device, int64Atomics, null, options);
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
