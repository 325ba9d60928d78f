// The OpenCL C recipe: the target for an OpenCL device (or none) and the OpenCL C a task becomes.
package dev.loopjit.backend.opencl;

import dev.loopjit.api.Device;
import dev.loopjit.ir.Target;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.spi.DeviceCode;
import dev.loopjit.spi.Options;
import dev.loopjit.spi.Recipe;
import dev.loopjit.spi.Targets;

/** OpenCL C 1.2 from {@link OpenClEmitter}; every intrinsic is an OpenCL built-in. */
public final class OpenClRecipe implements Recipe {
  /** The one instance. */
  public static final OpenClRecipe INSTANCE = new OpenClRecipe();

  private OpenClRecipe() {}

  @Override
  public String language() {
    return "opencl";
  }

  @Override
  public String displayName() {
    return "OpenCL C";
  }

  @Override
  public Target target(Device device, String variant, Options options) {
    boolean int64Atomics = device == null || device instanceof OpenClDevice d && d.int64Atomics();
    return Targets.of("opencl", "", device, int64Atomics, null, options);
  }

  @Override
  public DeviceCode emit(KernelIR ir, Target target) {
    return DeviceCode.text(ir, "opencl", OpenClEmitter.emit(ir, target));
  }
}
