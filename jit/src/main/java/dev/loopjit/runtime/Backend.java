// The backend SPI: a way of running task graphs (jvm, opencl, cuda), found by ServiceLoader.
package dev.loopjit.runtime;

import dev.loopjit.api.Device;
import java.util.List;

/**
 * A backend: lists its devices and opens a {@link PlanExecutor} on one of them. Implementations
 * are named in {@code META-INF/services/dev.loopjit.runtime.Backend}. Accelerator backends are an
 * emitter plus a {@link DeviceRuntime}, run by the shared {@link GraphRunner}.
 */
public interface Backend {
  /** {@code "jvm"}, {@code "opencl"}, {@code "cuda"}. */
  String name();

  /** Its devices, discovered once; empty (not an exception) when its driver is missing. */
  List<Device> devices();

  /** Why {@link #devices()} is empty (driver not found, …), or null. */
  default String problem() {
    return null;
  }

  /** Opens an executor that owns device memory and kernels for one plan. */
  PlanExecutor open(Device device);
}
