// The opencl backend: every device of every OpenCL platform through libOpenCL.so.1, found without ever throwing.
package dev.loopjit.backend.opencl;

import dev.loopjit.api.Device;
import dev.loopjit.spi.Backend;
import dev.loopjit.spi.DeviceRuntime;
import dev.loopjit.spi.Options;
import dev.loopjit.spi.Recipe;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code opencl} backend. Devices are numbered {@code opencl:0}, {@code opencl:1}, … in
 * platform order, then device order within a platform. When the OpenCL loader, a platform or a
 * device is missing, {@link #devices()} is empty and {@link #problem()} says what to install.
 */
public final class OpenClBackend implements Backend {
  private List<Device> devices;
  private String problem;

  @Override
  public String name() {
    return "opencl";
  }

  @Override
  public synchronized List<Device> devices(Options options) {
    if (devices == null) discover(options);
    return devices;
  }

  @Override
  public synchronized String problem() {
    return problem;
  }

  private void discover(Options options) {
    devices = List.of();
    problem = OpenCl.problem(options.get("opencl.library", "libOpenCL.so.1"));
    if (problem != null) return;
    try {
      OpenCl cl = OpenCl.get();
      List<MemorySegment> platforms = OpenClInfo.platforms(cl);
      if (platforms.isEmpty()) {
        problem = "no OpenCL platform found: install an ICD such as pocl-opencl-icd (CPU) or a GPU driver "
            + "(the loader reads /etc/OpenCL/vendors)";
        return;
      }
      List<Device> found = new ArrayList<>();
      for (MemorySegment p : platforms)
        for (MemorySegment d : OpenClInfo.devices(cl, p)) found.add(OpenClDevice.query(cl, "opencl:" + found.size(), p, d));
      devices = List.copyOf(found);
      if (found.isEmpty()) problem = platforms.size() + " OpenCL platform(s) but no device";
    } catch (RuntimeException e) {
      problem = "OpenCL device discovery failed: " + e.getMessage();
    }
  }

  @Override
  public DeviceRuntime open(Device device, Options options) {
    if (!(device instanceof OpenClDevice d))
      throw new IllegalArgumentException(device.id() + " is not an OpenCL device");
    return new OpenClRuntime(d, options);
  }

  @Override
  public List<Recipe> recipes() {
    return List.of(OpenClRecipe.INSTANCE);
  }
}
