// The PTX recipe: the target for a CUDA device (or a compute capability with none) and the PTX a task becomes.
package dev.loopjit.backend.cuda;

import dev.loopjit.api.Device;
import dev.loopjit.ir.Target;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.spi.DeviceCode;
import dev.loopjit.spi.Options;
import dev.loopjit.spi.Recipe;
import dev.loopjit.spi.Targets;

/**
 * PTX from {@link PtxEmitter}, {@code .target} the device's compute capability (offline: the
 * variant, default {@code sm_90}). Math functions PTX has no exact instruction for are compiled
 * from the JDK's own {@code StrictMath} code: the target says which ({@link PtxEmitter#nativeIntrinsics}).
 */
public final class PtxRecipe implements Recipe {
  /** The one instance. */
  public static final PtxRecipe INSTANCE = new PtxRecipe();

  private PtxRecipe() {}

  @Override
  public String language() {
    return "ptx";
  }

  @Override
  public String displayName() {
    return "PTX";
  }

  @Override
  public Target target(Device device, String variant, Options options) {
    String sm = device instanceof CudaDevice d ? d.targetVariant() : variant.isEmpty() ? "sm_90" : variant;
    if (!sm.matches("sm_[0-9]+[a-z]?"))
      throw new IllegalArgumentException("PTX target \"" + sm + "\" is not a compute capability such as sm_80 or sm_90");
    Target t = Targets.of("ptx", sm, device, true, PtxEmitter.nativeIntrinsics(options.fastMath()), options);
    // Arrays of constant size are static shared memory, which stops at 48 KiB; only the launch's dynamic part opts in past it.
    return device instanceof CudaDevice d ? t.withLocalMemoryBytes(d.staticSharedMemoryPerBlock()) : t;
  }

  @Override
  public DeviceCode emit(KernelIR ir, Target target) {
    return DeviceCode.text(ir, "ptx", PtxEmitter.emit(ir, target));
  }
}
