// The cuda backend: every CUDA GPU through libcuda.so.1 (the driver API, no toolkit), found without ever throwing.
package dev.loopjit.backend.cuda;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import dev.loopjit.api.Device;
import dev.loopjit.spi.DeviceRuntime;
import dev.loopjit.spi.DriverBackend;
import dev.loopjit.spi.Options;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code cuda} backend. Devices are {@code cuda:0}, {@code cuda:1}, … in the driver's order
 * (which {@code CUDA_VISIBLE_DEVICES} filters). The library is {@code -Dloopjit.cuda.library}
 * (default {@code libcuda.so.1}, installed by the NVIDIA driver, not the toolkit). When it is
 * missing, or {@code cuInit} fails, {@link #devices} is empty and {@link #problem()} says why.
 */
public final class CudaBackend extends DriverBackend {
  public CudaBackend() {
    super("cuda", PtxRecipe.INSTANCE);
  }

  @Override
  protected List<Device> discover(Options options) {
    Cuda.Loaded loaded = Cuda.load(options.get("cuda.library", "libcuda.so.1"));
    if (loaded.problem() != null) throw new NoDevice(loaded.problem());
    Cuda cuda = loaded.cuda();
    try (Arena a = Arena.ofConfined()) {
      MemorySegment v = a.allocate(JAVA_INT);
      cuda.check(cuda.driverGetVersion(v), "cuDriverGetVersion");
      int version = v.get(JAVA_INT, 0);
      cuda.check(cuda.deviceGetCount(v), "cuDeviceGetCount");
      List<Device> found = new ArrayList<>();
      for (int i = 0; i < v.get(JAVA_INT, 0); i++) found.add(CudaDevice.query(cuda, i, version));
      if (found.isEmpty()) throw new NoDevice("the NVIDIA driver sees no CUDA device (check CUDA_VISIBLE_DEVICES)");
      return found;
    }
  }

  @Override
  public DeviceRuntime open(Device device, Options options) {
    return new CudaRuntime(own(device, CudaDevice.class), recipe(), options);
  }

}
