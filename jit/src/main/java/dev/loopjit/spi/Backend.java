// The backend SPI: a way of running kernels (jvm, opencl, cuda), found by ServiceLoader.
package dev.loopjit.spi;

import dev.loopjit.api.Device;
import java.util.List;

/**
 * A backend: lists its devices, opens a {@link DeviceRuntime} on one of them, and offers the
 * {@link Recipe}s of the languages it runs. Implementations are named in
 * {@code META-INF/services/dev.loopjit.spi.Backend}. The runtime's task-graph runner drives the
 * {@link DeviceRuntime}; a backend never sees the plan.
 */
public interface Backend {
  /** {@code "jvm"}, {@code "opencl"}, {@code "cuda"}. */
  String name();

  /** Its devices, discovered once (with the options of the first call); empty (not an exception) when its driver is missing. */
  List<Device> devices(Options options);

  /** Why {@link #devices} is empty (driver not found, …), or null. */
  default String problem() {
    return null;
  }

  /** Opens a runtime on {@code device} for one plan. */
  DeviceRuntime open(Device device, Options options);

  /** The code recipes of the languages this backend runs ({@code opencl}, {@code ptx}, …), for the runtime and the dump. */
  default List<Recipe> recipes() {
    return List.of();
  }
}
