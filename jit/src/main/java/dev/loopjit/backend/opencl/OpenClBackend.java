// The opencl backend: every device of every OpenCL platform through libOpenCL.so.1, found without ever throwing.
package dev.loopjit.backend.opencl;

import dev.loopjit.api.Device;
import dev.loopjit.runtime.Backend;
import dev.loopjit.runtime.GraphRunner;
import dev.loopjit.runtime.PlanExecutor;
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
  public synchronized List<Device> devices() {
    if (devices == null) discover();
    return devices;
  }

  @Override
  public synchronized String problem() {
    if (devices == null) discover();
    return problem;
  }

  private void discover() {
    devices = List.of();
    problem = OpenCl.problem();
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
  public PlanExecutor open(Device device) {
    if (!(device instanceof OpenClDevice d))
      throw new IllegalArgumentException(device.id() + " is not an OpenCL device");
    return new GraphRunner(new OpenClRuntime(d));
  }
}
