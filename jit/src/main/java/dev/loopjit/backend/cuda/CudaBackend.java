// The cuda backend: every CUDA GPU through libcuda.so.1 (the driver API, no toolkit), found without ever throwing.
package dev.loopjit.backend.cuda;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import dev.loopjit.api.Device;
import dev.loopjit.spi.Backend;
import dev.loopjit.spi.DeviceRuntime;
import dev.loopjit.spi.Options;
import dev.loopjit.spi.Recipe;
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
public final class CudaBackend implements Backend {
  private List<Device> devices;
  private String problem;

  @Override
  public String name() {
    return "cuda";
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
    Cuda.Loaded loaded = Cuda.load(options.get("cuda.library", "libcuda.so.1"));
    problem = loaded.problem();
    if (problem != null) return;
    Cuda cuda = loaded.cuda();
    try (Arena a = Arena.ofConfined()) {
      MemorySegment v = a.allocate(JAVA_INT);
      cuda.check(cuda.driverGetVersion(v), "cuDriverGetVersion");
      int version = v.get(JAVA_INT, 0);
      cuda.check(cuda.deviceGetCount(v), "cuDeviceGetCount");
      int count = v.get(JAVA_INT, 0);
      List<Device> found = new ArrayList<>();
      for (int i = 0; i < count; i++) found.add(CudaDevice.query(cuda, i, version));
      devices = List.copyOf(found);
      if (found.isEmpty()) problem = "the NVIDIA driver sees no CUDA device (check CUDA_VISIBLE_DEVICES)";
    } catch (RuntimeException e) {
      problem = "CUDA device discovery failed: " + e.getMessage();
    }
  }

  @Override
  public DeviceRuntime open(Device device, Options options) {
    if (!(device instanceof CudaDevice d)) throw new IllegalArgumentException(device.id() + " is not a CUDA device");
    return new CudaRuntime(d, options);
  }

  @Override
  public List<Recipe> recipes() {
    return List.of(PtxRecipe.INSTANCE);
  }
}
