// The jvm backend: runs each task's Java method itself; the reference every device is compared with.
package dev.loopjit.backend.jvm;

import dev.loopjit.api.Device;
import dev.loopjit.spi.Backend;
import dev.loopjit.spi.DeviceRuntime;
import dev.loopjit.spi.Options;
import java.util.List;

/**
 * The {@code jvm} backend. A {@code @Parallel} task runs by calling its method, so the loops run
 * sequentially exactly as written; a {@code KernelContext} task runs one work-item per call with
 * real work-group barriers. Like any device it works on its own copies of the arrays, so transfer
 * modes mean the same here as on a GPU and a failing kernel leaves the host arrays unchanged.
 */
public final class JvmBackend implements Backend {
  static final Device DEVICE = new JvmDevice();

  @Override
  public String name() {
    return "jvm";
  }

  @Override
  public List<Device> devices(Options options) {
    return List.of(DEVICE);
  }

  @Override
  public DeviceRuntime open(Device device, Options options) {
    return new JvmRuntime(device, options);
  }
}
