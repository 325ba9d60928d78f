// The jvm-mt backend: kernels compiled to JVM bytecode and run on every core; the fast default where there is no OpenCL or CUDA device.
package dev.loopjit.backend.jvmmt;

import dev.loopjit.api.Device;
import dev.loopjit.spi.Backend;
import dev.loopjit.spi.DeviceRuntime;
import dev.loopjit.spi.Options;
import dev.loopjit.spi.Recipe;
import java.util.List;

/**
 * The {@code jvm-mt} backend: the same lowered IR the other devices get, compiled to a hidden
 * class ({@link BytecodeEmitter}) and run on a {@link java.util.concurrent.ForkJoinPool} sized to
 * the machine ({@link Cores}). Strict Java semantics come with the JVM's own arithmetic; arrays are
 * the device's own Java copies, so an out-of-bounds index throws and leaves the host arrays as
 * they were. Present on every machine.
 */
public final class JvmMtBackend implements Backend {
  @Override
  public String name() {
    return "jvm-mt";
  }

  @Override
  public List<Device> devices(Options options) {
    return List.of(JvmMtRuntime.DEVICE);
  }

  @Override
  public DeviceRuntime open(Device device, Options options) {
    return new JvmMtRuntime(device, options);
  }

  @Override
  public List<Recipe> recipes() {
    return List.of(JvmMtRecipe.INSTANCE);
  }
}
