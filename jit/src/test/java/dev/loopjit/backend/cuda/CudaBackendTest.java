// Device discovery: ids, the Device fields, what the runtime reads, error names, and a missing driver reported rather than thrown.
package dev.loopjit.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.runtime.Settings;
import dev.loopjit.spi.Backend;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CudaBackendTest {
  // ---- anywhere ----

  @Test
  void theErrorsOfAFirstRunOnANewHostSayWhatToInstall() {
    String jit = new CudaException(221, "cuModuleLoadDataEx", null).getMessage();
    assertTrue(jit.startsWith("cuModuleLoadDataEx: CUDA_ERROR_JIT_COMPILER_NOT_FOUND (221)") && jit.contains("libnvidia-ptxjitcompiler.so.1"), jit);
    assertTrue(new CudaException(34, "cuInit", null).getMessage().contains("stub"));
    assertEquals("cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (2): out of memory", new CudaException(2, "cuMemAlloc", "out of memory").getMessage());
  }

  @Test
  void aMissingDriverIsAProblemNotAnException() {
    String saved = System.getProperty("loopjit.cuda.library");
    System.setProperty("loopjit.cuda.library", "libNoSuch.so");
    try {
      CudaBackend b = new CudaBackend();
      assertEquals("cuda", b.name());
      assertEquals(List.of(), b.devices(Settings.options()));
      assertEquals("libNoSuch.so not found (no NVIDIA driver): looked on the loader's path and in /usr/lib/x86_64-linux-gnu,"
          + " /usr/lib64, /usr/local/nvidia/lib64, /usr/lib/wsl/lib; name the library with -Dloopjit.cuda.library=/path/to/libcuda.so.1",
          b.problem());
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.open(Devices.jvm(), Settings.options()));
      assertTrue(e.getMessage().contains("not a device of the cuda backend"), e.getMessage());
    } finally {
      if (saved == null) System.clearProperty("loopjit.cuda.library");
      else System.setProperty("loopjit.cuda.library", saved);
    }
  }

  @Test
  void theBackendIsRegisteredAndEitherHasDevicesOrSaysWhyNot() {
    Backend b = CudaTesting.backend();
    assertTrue(b.devices(Settings.options()).isEmpty() == (b.problem() != null), "devices " + b.devices(Settings.options()) + ", problem " + b.problem());
    if (System.getProperty("loopjit.cuda.library") == null && System.getenv("LOOPJIT_CUDA_LIBRARY") == null)
      assertEquals("libcuda.so.1", Settings.options().get("cuda.library", "libcuda.so.1"), "the driver's library, not the toolkit's");
  }

  @Test
  void errorCodesHaveTheirNames() {
    assertEquals("CUDA_SUCCESS", CudaException.name(0));
    assertEquals("CUDA_ERROR_OUT_OF_MEMORY", CudaException.name(2));
    assertEquals("CUDA_ERROR_NO_DEVICE", CudaException.name(100));
    assertEquals("CUDA_ERROR_INVALID_PTX", CudaException.name(218));
    assertEquals("CUDA_ERROR_UNSUPPORTED_PTX_VERSION", CudaException.name(222));
    assertEquals("CUDA_ERROR_ILLEGAL_ADDRESS", CudaException.name(700));
    assertEquals("CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", CudaException.name(701));
    assertEquals("CUDA_ERROR_UNKNOWN", CudaException.name(999));
    assertEquals("CUDA_ERROR", CudaException.name(12345));
    CudaException e = new CudaException(2, "cuMemAlloc of 4096 bytes for FloatArray[1024] on cuda:0", "out of memory");
    assertEquals("cuMemAlloc of 4096 bytes for FloatArray[1024] on cuda:0: CUDA_ERROR_OUT_OF_MEMORY (2): out of memory", e.getMessage());
    assertTrue(e.outOfMemory());
    assertFalse(e.sticky());
    assertEquals(2, e.code());
    assertEquals("x: CUDA_ERROR_INVALID_VALUE (1)", new CudaException(1, "x", "").getMessage(), "no description, no colon");
    assertTrue(new CudaException(700, "k", "").sticky(), "an illegal address poisons the context");
    assertTrue(new CudaException(719, "k", "").sticky(), "so does a launch failure");
    assertTrue(new CudaException(226, "k", "").sticky(), "cuda.h: a contained error needs the process relaunched");
    assertFalse(new CudaException(218, "k", "").sticky(), "a PTX the JIT refuses does not");
  }

  // ---- on a CUDA GPU ----

  @Test
  void devicesAreNumberedInOrderAndDescribeThemselves() {
    CudaTesting.device();
    Backend b = CudaTesting.backend();
    assertNull(b.problem());
    List<Device> devices = b.devices(Settings.options());
    for (int i = 0; i < devices.size(); i++) {
      Device d = devices.get(i);
      assertEquals("cuda:" + i, d.id());
      assertEquals("cuda", d.backend());
      assertSame(d, Devices.get(d.id()));
      assertEquals(Device.Kind.GPU, d.kind());
      assertFalse(d.name().isBlank(), "name");
      assertTrue(d.computeUnits() >= 1, "streaming multiprocessors");
      assertTrue(d.memoryBytes() >= 1L << 30, "at least 1 GiB: " + d.memoryBytes());
      assertTrue(d.localMemoryBytes() >= 48 * 1024, "48 KiB of shared memory per block: " + d.localMemoryBytes());
      assertTrue(d.maxWorkGroupSize() >= 1024, "1024 threads per block: " + d.maxWorkGroupSize());
      assertTrue(d.supportsFp64());
      assertTrue(d.driverVersion().matches("CUDA \\d+\\.\\d+"), d.driverVersion());
      assertTrue(d.describe().startsWith(d.id()), d.describe());
    }
    assertEquals("cuda", Devices.best().backend(), "best() prefers a CUDA GPU unless loopjit.device says otherwise: "
        + Settings.device());
  }

  @Test
  void deviceFactsTheRuntimeNeeds() {
    CudaDevice d = CudaTesting.device();
    assertTrue(d.computeCapabilityMajor() >= 5, "the driver API's oldest supported GPUs are Maxwell");
    assertEquals("sm_" + d.computeCapabilityMajor() + d.computeCapabilityMinor(), d.targetVariant());
    assertEquals(d.computeCapabilityMajor() > 5 || d.computeCapabilityMinor() >= 3, d.supportsFp16());
    assertEquals(32, d.warpSize());
    long[] block = d.maxBlockDims(), grid = d.maxGridDims();
    assertEquals(3, block.length);
    assertTrue(block[0] >= 1024 && block[1] >= 1024 && block[2] >= 64, java.util.Arrays.toString(block));
    assertTrue(grid[0] >= Integer.MAX_VALUE && grid[1] >= 65535 && grid[2] >= 65535, java.util.Arrays.toString(grid));
    assertTrue(d.sharedMemoryPerBlockOptIn() >= d.localMemoryBytes());
    assertTrue(d.driverApiVersion() >= 11000, "a driver for CUDA 11 or later: " + d.driverApiVersion());
    assertEquals(d.ordinal(), Integer.parseInt(d.id().substring(5)));
    assertTrue(d.copyEngines() >= 1, "copy engines: " + d.copyEngines());
  }

  @Test
  void ourErrorNamesAreTheDriversNames() {
    CudaDevice d = CudaTesting.device();
    assumeFalse(d.cuda() instanceof SimulatedCuda, "a question for NVIDIA's driver; CudaHeaderTest checks the names against cuda.h");
    int compared = 0;
    for (int code = 0; code < 1000; code++) {
      String ours = CudaException.name(code), driver = d.cuda().driverName(code);
      if (ours.equals("CUDA_ERROR") || driver == null) continue;   // a code one side does not know (newer or older than cuda.h 13)
      assertEquals(driver, ours, "code " + code);
      compared++;
    }
    assertTrue(compared >= 80, "compared " + compared + " codes with the driver");
    assertFalse(d.cuda().describe(2).isBlank(), "the driver describes its errors");
  }
}
