// One OpenCL device as LoopJIT sees it: what Device reports, plus what the runtime needs to allocate, build and launch.
package dev.loopjit.backend.opencl;

import dev.loopjit.api.Device;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Set;

/**
 * An OpenCL device ({@code opencl:N}), with its facts read once at discovery. Besides the
 * {@link Device} fields it knows its handles, whether it shares memory with the host (zero-copy
 * buffers), its base-address alignment, its float and atomics capabilities and its version strings
 * (part of the disk-cache key). It owns, lazily, the process-wide {@link OpenClContext} that every
 * plan on the device shares.
 */
public final class OpenClDevice implements Device {
  private final String id, name, platformName, platformVersion, deviceVersion, driver, extensions, ilVersion;
  private final MemorySegment platform, handle;
  private final Kind kind;
  private final int computeUnits, maxWorkGroupSize, baseAddressAlignment;
  private final long memoryBytes, localMemoryBytes, maxAllocationBytes;
  private final long[] maxWorkItemSizes;
  private final boolean fp64, fp16, hostUnifiedMemory, correctlyRoundedDivideSqrt, int64Atomics;
  private OpenClContext context;

  private OpenClDevice(OpenCl cl, String id, MemorySegment platform, MemorySegment handle) {
    this.id = id;
    this.platform = platform;
    this.handle = handle;
    platformName = OpenClInfo.platformString(cl, platform, OpenCl.PLATFORM_NAME);
    platformVersion = OpenClInfo.platformString(cl, platform, OpenCl.PLATFORM_VERSION);
    name = OpenClInfo.deviceString(cl, handle, OpenCl.DEVICE_NAME);
    deviceVersion = OpenClInfo.deviceString(cl, handle, OpenCl.DEVICE_VERSION);
    driver = OpenClInfo.deviceString(cl, handle, OpenCl.DRIVER_VERSION);
    extensions = OpenClInfo.deviceString(cl, handle, OpenCl.DEVICE_EXTENSIONS);
    ilVersion = OpenClInfo.deviceString(cl, handle, OpenCl.DEVICE_IL_VERSION);
    long type = OpenClInfo.deviceLong(cl, handle, OpenCl.DEVICE_TYPE);
    kind = (type & OpenCl.DEVICE_TYPE_GPU) != 0 ? Kind.GPU
        : (type & OpenCl.DEVICE_TYPE_ACCELERATOR) != 0 ? Kind.ACCELERATOR : Kind.CPU;
    computeUnits = OpenClInfo.deviceInt(cl, handle, OpenCl.DEVICE_MAX_COMPUTE_UNITS);
    memoryBytes = OpenClInfo.deviceLong(cl, handle, OpenCl.DEVICE_GLOBAL_MEM_SIZE);
    localMemoryBytes = OpenClInfo.deviceLong(cl, handle, OpenCl.DEVICE_LOCAL_MEM_SIZE);
    maxAllocationBytes = OpenClInfo.deviceLong(cl, handle, OpenCl.DEVICE_MAX_MEM_ALLOC_SIZE);
    maxWorkGroupSize = (int) Math.min(Integer.MAX_VALUE, OpenClInfo.deviceLong(cl, handle, OpenCl.DEVICE_MAX_WORK_GROUP_SIZE));
    int dims = OpenClInfo.deviceInt(cl, handle, OpenCl.DEVICE_MAX_WORK_ITEM_DIMENSIONS);
    long[] sizes = OpenClInfo.deviceSizes(cl, handle, OpenCl.DEVICE_MAX_WORK_ITEM_SIZES, Math.max(dims, 1));
    maxWorkItemSizes = Arrays.copyOf(sizes, 3);
    for (int d = sizes.length; d < 3; d++) maxWorkItemSizes[d] = 1;
    Set<String> ext = Set.of(extensions.split("\\s+"));
    fp64 = OpenClInfo.deviceLong(cl, handle, OpenCl.DEVICE_DOUBLE_FP_CONFIG) != 0 || ext.contains("cl_khr_fp64");
    fp16 = ext.contains("cl_khr_fp16");
    int64Atomics = ext.contains("cl_khr_int64_base_atomics");
    correctlyRoundedDivideSqrt =
        (OpenClInfo.deviceLong(cl, handle, OpenCl.DEVICE_SINGLE_FP_CONFIG) & OpenCl.FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;
    hostUnifiedMemory = OpenClInfo.deviceInt(cl, handle, OpenCl.DEVICE_HOST_UNIFIED_MEMORY) != 0;
    baseAddressAlignment = Math.max(1, OpenClInfo.deviceInt(cl, handle, OpenCl.DEVICE_MEM_BASE_ADDR_ALIGN) / 8);
  }

  /** Reads a device's facts; throws OpenClException when a query fails. */
  static OpenClDevice query(OpenCl cl, String id, MemorySegment platform, MemorySegment device) {
    return new OpenClDevice(cl, id, platform, device);
  }

  @Override public String id() { return id; }
  @Override public String name() { return name; }
  @Override public String backend() { return "opencl"; }
  @Override public Kind kind() { return kind; }
  @Override public int computeUnits() { return computeUnits; }
  @Override public long memoryBytes() { return memoryBytes; }
  @Override public long localMemoryBytes() { return localMemoryBytes; }
  @Override public int maxWorkGroupSize() { return maxWorkGroupSize; }
  @Override public boolean supportsFp64() { return fp64; }
  @Override public boolean supportsFp16() { return fp16; }
  @Override public boolean supportsSpirv() { return ProgramForm.spirvVersion(ilVersion) != null; }

  /** {@code "3.1+debian (OpenCL 3.0 PoCL 3.1+debian …)"}: the driver version, then the platform's. */
  @Override
  public String driverVersion() {
    return driver + " (" + platformVersion + ")";
  }

  /** The platform's name, e.g. {@code Portable Computing Language}. */
  public String platformName() { return platformName; }

  /** CL_PLATFORM_VERSION. */
  public String platformVersion() { return platformVersion; }

  /** CL_DEVICE_VERSION. */
  public String deviceVersion() { return deviceVersion; }

  /** CL_DRIVER_VERSION alone. */
  public String driver() { return driver; }

  /** CL_DEVICE_EXTENSIONS, space-separated. */
  public String extensions() { return extensions; }

  /** CL_DEVICE_IL_VERSION (e.g. {@code SPIR-V_1.2}); empty when the device takes no intermediate language. */
  public String ilVersion() { return ilVersion; }

  /** Whether the device computes in host memory (a CPU, or a GPU sharing memory with the host), so buffers may use it in place. */
  public boolean sharesHostMemory() {
    return kind == Kind.CPU || hostUnifiedMemory;
  }

  /** CL_DEVICE_HOST_UNIFIED_MEMORY. */
  public boolean hostUnifiedMemory() { return hostUnifiedMemory; }

  /** CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes: how host memory must be aligned to be used in place. */
  public int baseAddressAlignment() { return baseAddressAlignment; }

  /** Whether CL_DEVICE_SINGLE_FP_CONFIG has CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT, i.e. float / and sqrt can be IEEE (Java's). */
  public boolean correctlyRoundedDivideSqrt() { return correctlyRoundedDivideSqrt; }

  /** Whether the device has cl_khr_int64_base_atomics (64-bit atomic add). */
  public boolean int64Atomics() { return int64Atomics; }

  /** CL_DEVICE_MAX_MEM_ALLOC_SIZE: the largest single buffer. */
  @Override public long maxAllocationBytes() { return maxAllocationBytes; }

  /** CL_DEVICE_MAX_WORK_ITEM_SIZES, three entries (1 for dimensions the device lacks). */
  public long[] maxWorkItemSizes() { return maxWorkItemSizes.clone(); }

  MemorySegment platformHandle() { return platform; }

  MemorySegment handle() { return handle; }

  /** The device's shared context, created on first use and kept for the process. */
  synchronized OpenClContext context() {
    if (context == null) context = OpenClContext.create(this);
    return context;
  }

  @Override
  public String toString() {
    return id + " (" + name + ")";
  }
}
