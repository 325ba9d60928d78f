// The opencl backend: every device of every OpenCL platform through libOpenCL.so.1, found without ever throwing.
package dev.loopjit.backend.opencl;

import dev.loopjit.backend.spirv.SpirvRecipe;

import dev.loopjit.api.Device;
import dev.loopjit.spi.DeviceRuntime;
import dev.loopjit.spi.DriverBackend;
import dev.loopjit.spi.Options;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code opencl} backend. Devices are numbered {@code opencl:0}, {@code opencl:1}, … in
 * platform order, then device order within a platform. When the OpenCL loader, a platform or a
 * device is missing, {@link #devices()} is empty and {@link #problem()} says what to install.
 */
public final class OpenClBackend extends DriverBackend {
  public OpenClBackend() {
    super("opencl", OpenClRecipe.INSTANCE, SpirvRecipe.OFFLINE);
  }

  @Override
  protected List<Device> discover(Options options) {
    String library = options.get("opencl.library", "libOpenCL.so.1");
    String missing = OpenCl.problem(library);
    if (missing != null) throw new NoDevice(missing);
    // Listing platforms loads the drivers (ICDs), whose signal handlers need the JVM's chained.
    String refused = dev.loopjit.spi.SignalChaining.beforeLoading("the OpenCL drivers (through " + library + ")", options);
    if (refused != null) throw new NoDevice(refused);
    DriverCacheDir.beforeLoading(options);   // PoCL reads its cache settings when it loads, below
    OpenCl cl = OpenCl.get();
    List<MemorySegment> platforms = OpenClInfo.platforms(cl);
    if (platforms.isEmpty())
      throw new NoDevice("no OpenCL platform found: install an ICD such as pocl-opencl-icd (CPU) or a GPU driver "
          + "(the loader reads /etc/OpenCL/vendors)");
    List<Device> found = new ArrayList<>();
    for (MemorySegment p : platforms)
      for (MemorySegment d : OpenClInfo.devices(cl, p)) found.add(OpenClDevice.query(cl, "opencl:" + found.size(), p, d));
    if (found.isEmpty()) throw new NoDevice(platforms.size() + " OpenCL platform(s) but no device");
    return found;
  }

  @Override
  public DeviceRuntime open(Device device, Options options) {
    OpenClDevice d = own(device, OpenClDevice.class);
    ProgramForm form = ProgramForm.of(d, options);
    return new OpenClRuntime(d, form == ProgramForm.SOURCE ? recipe() : spirv(d, form), options);
  }


  /** SPIR-V as {@code d} builds it in {@code form}: its IL version through clCreateProgramWithIL, or the emitter's default through the bridge. */
  static SpirvRecipe spirv(OpenClDevice d, ProgramForm form) {
    String version = form == ProgramForm.SPIRV_IL ? ProgramForm.spirvVersion(d.ilVersion()) : dev.loopjit.backend.spirv.SpirvEmitter.DEFAULT_VERSION;
    return new SpirvRecipe(version, d.int64Atomics(), form == ProgramForm.SPIRV_BRIDGE);
  }
}
