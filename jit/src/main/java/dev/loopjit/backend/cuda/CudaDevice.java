// One CUDA GPU as LoopJIT sees it: what Device reports, plus the limits and compute capability the runtime needs.
package dev.loopjit.backend.cuda;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.loopjit.api.Device;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A CUDA device ({@code cuda:N}, N the driver's ordinal), with its facts read once at discovery:
 * streaming multiprocessors, memory, shared memory and threads per block, block and grid limits,
 * compute capability (which names the PTX target, {@code sm_90}) and the driver's CUDA version
 * (part of the disk-cache key). It owns, lazily, the process-wide {@link CudaContext} (the
 * device's primary context) that every plan on the device shares.
 */
public final class CudaDevice implements Device {
  private final Cuda cuda;
  private final String id, name;
  private final int ordinal, handle, major, minor, multiprocessors, maxThreadsPerBlock, warpSize, driverApiVersion,
      clockKhz, copyEngines;
  private final long memoryBytes, sharedPerBlock, sharedPerBlockOptIn;
  private final long[] maxBlock, maxGrid;
  private final boolean integrated, hostRegisterSupported;
  private CudaContext context;
  private int faultCode;   // with faultMessage, set once a fault has made the device unusable for this process
  private String faultMessage;

  private CudaDevice(Cuda cuda, int ordinal, int driverApiVersion, Arena a) {
    this.cuda = cuda;
    this.ordinal = ordinal;
    this.id = "cuda:" + ordinal;
    this.driverApiVersion = driverApiVersion;
    MemorySegment i = a.allocate(JAVA_INT);
    cuda.check(cuda.deviceGet(i, ordinal), "cuDeviceGet(" + ordinal + ")");
    handle = i.get(JAVA_INT, 0);
    MemorySegment n = a.allocate(256);
    cuda.check(cuda.deviceGetName(n, 255, handle), "cuDeviceGetName of " + id);
    name = n.getString(0).strip();
    MemorySegment bytes = a.allocate(JAVA_LONG);
    cuda.check(cuda.deviceTotalMem(bytes, handle), "cuDeviceTotalMem of " + id);
    memoryBytes = bytes.get(JAVA_LONG, 0);
    major = attribute(Cuda.ATTR_COMPUTE_CAPABILITY_MAJOR, a);
    minor = attribute(Cuda.ATTR_COMPUTE_CAPABILITY_MINOR, a);
    multiprocessors = attribute(Cuda.ATTR_MULTIPROCESSOR_COUNT, a);
    maxThreadsPerBlock = attribute(Cuda.ATTR_MAX_THREADS_PER_BLOCK, a);
    warpSize = attribute(Cuda.ATTR_WARP_SIZE, a);
    sharedPerBlock = attribute(Cuda.ATTR_MAX_SHARED_MEMORY_PER_BLOCK, a);
    sharedPerBlockOptIn = optional(Cuda.ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, (int) sharedPerBlock, a);
    maxBlock = new long[] {attribute(Cuda.ATTR_MAX_BLOCK_DIM_X, a), attribute(Cuda.ATTR_MAX_BLOCK_DIM_Y, a),
        attribute(Cuda.ATTR_MAX_BLOCK_DIM_Z, a)};
    maxGrid = new long[] {attribute(Cuda.ATTR_MAX_GRID_DIM_X, a), attribute(Cuda.ATTR_MAX_GRID_DIM_Y, a),
        attribute(Cuda.ATTR_MAX_GRID_DIM_Z, a)};
    clockKhz = optional(Cuda.ATTR_CLOCK_RATE, 0, a);
    copyEngines = optional(Cuda.ATTR_ASYNC_ENGINE_COUNT, 0, a);
    integrated = optional(Cuda.ATTR_INTEGRATED, 0, a) != 0;
    // Drivers older than the attribute register anyway; a refusal only costs pageable copies.
    hostRegisterSupported = optional(Cuda.ATTR_HOST_REGISTER_SUPPORTED, 1, a) != 0;
  }

  /** Reads the facts of device {@code ordinal}; throws CudaException when a query fails. */
  static CudaDevice query(Cuda cuda, int ordinal, int driverApiVersion) {
    try (Arena a = Arena.ofConfined()) {
      return new CudaDevice(cuda, ordinal, driverApiVersion, a);
    }
  }

  private int attribute(int attribute, Arena a) {
    MemorySegment v = a.allocate(JAVA_INT);
    cuda.check(cuda.deviceGetAttribute(v, attribute, handle), "cuDeviceGetAttribute(" + attribute + ") of " + id);
    return v.get(JAVA_INT, 0);
  }

  /** An attribute an older driver may not know: {@code fallback} then. */
  private int optional(int attribute, int fallback, Arena a) {
    MemorySegment v = a.allocate(JAVA_INT);
    return cuda.deviceGetAttribute(v, attribute, handle) == Cuda.SUCCESS ? v.get(JAVA_INT, 0) : fallback;
  }

  @Override public String id() { return id; }
  @Override public String name() { return name; }
  @Override public String backend() { return "cuda"; }
  @Override public Kind kind() { return Kind.GPU; }
  /** Streaming multiprocessors. */
  @Override public int computeUnits() { return multiprocessors; }
  @Override public long memoryBytes() { return memoryBytes; }
  /**
   * Shared memory a block may have: what the device allows a kernel that opts in (227 KiB on an
   * H100, 99 KiB on an RTX 30x0), which the runtime does for a launch whose local arrays sized at
   * run time need it. Arrays of constant size are static shared memory and stop at
   * {@link #staticSharedMemoryPerBlock()}.
   */
  @Override public long localMemoryBytes() { return Math.max(sharedPerBlock, sharedPerBlockOptIn); }

  /** Static shared memory per block, and all of it without opting in: 48 KiB on every GPU since Kepler. */
  public long staticSharedMemoryPerBlock() { return sharedPerBlock; }
  @Override public int maxWorkGroupSize() { return maxThreadsPerBlock; }
  /** Every GPU the driver API still supports has doubles (slow on consumer parts, but exact). */
  @Override public boolean supportsFp64() { return true; }
  /** Half arithmetic from compute capability 5.3 on. */
  @Override public boolean supportsFp16() { return major > 5 || (major == 5 && minor >= 3); }

  /** {@code "CUDA 12.4"}: the highest CUDA version the installed driver supports. */
  @Override
  public String driverVersion() {
    return "CUDA " + driverApiVersion / 1000 + "." + driverApiVersion % 1000 / 10;
  }

  /** {@code cuDriverGetVersion}, e.g. 12040. */
  public int driverApiVersion() { return driverApiVersion; }

  /** The driver's ordinal. */
  public int ordinal() { return ordinal; }

  /** Compute capability major version (9 on an H100). */
  public int computeCapabilityMajor() { return major; }

  /** Compute capability minor version. */
  public int computeCapabilityMinor() { return minor; }

  /** The PTX target and compile variant for this device: {@code "sm_" + major + minor}, e.g. {@code sm_90}. */
  public String targetVariant() { return "sm_" + major + minor; }

  /** Threads per warp (32). */
  public int warpSize() { return warpSize; }

  /** Shared memory per block a kernel may opt in to. */
  public long sharedMemoryPerBlockOptIn() { return sharedPerBlockOptIn; }

  /** Largest block in x, y, z (1024, 1024, 64). */
  public long[] maxBlockDims() { return maxBlock.clone(); }

  /** Largest grid in blocks in x, y, z (2^31-1, 65535, 65535). */
  public long[] maxGridDims() { return maxGrid.clone(); }

  /** Peak SM clock in kHz, 0 when the driver does not say. */
  public int clockKhz() { return clockKhz; }

  /** Copy engines (ASYNC_ENGINE_COUNT): 2 lets copies in and out overlap each other and kernels. */
  public int copyEngines() { return copyEngines; }

  /** Whether the GPU is integrated with the host's memory (Jetson-class devices). */
  public boolean integrated() { return integrated; }

  /** Whether host memory can be page-locked in place (cuMemHostRegister). */
  public boolean hostRegisterSupported() { return hostRegisterSupported; }

  Cuda cuda() { return cuda; }

  int handle() { return handle; }

  /**
   * The device's primary context, retained on first use and kept for the process — unless a fault
   * has made it unusable: then it is reset (its modules, memory and registrations go with it) and
   * retained afresh. NVIDIA's driver refuses that with the fault's error until the process exits
   * (seen on an H200, driver 580), so from then on every plan on this device fails at once, with a
   * message that names the first fault and says to restart the JVM; a driver that does recover
   * gives the next plan a fresh context.
   */
  synchronized CudaContext context() {
    if (faultMessage != null) throw unusable();
    if (context != null && context.lost()) {
      String first = context.lostBecause();
      cuda.primaryCtxReset(handle);   // whatever it returns, the next retain says whether the device can go on
      PinnedMemory.PROCESS.forgetAll();
      context = null;
      try {
        context = CudaContext.create(cuda, this);
      } catch (CudaException e) {
        if (!e.sticky()) throw e;
        faultCode = e.code();
        faultMessage = id + " (" + name + ") cannot run anything more in this process: a kernel faulted earlier [" + first
            + "], and the driver refuses a new context with the same error until the process exits; restart the JVM to use"
            + " the GPU again";
        throw unusable();
      }
    }
    if (context == null) context = CudaContext.create(cuda, this);
    return context;
  }

  /** The exception for a plan on a device that a fault has made unusable in this process: a new one each time, for its stack. */
  private CudaException unusable() {
    return new CudaException(faultCode, faultMessage, null);
  }

  @Override
  public String toString() {
    return id + " (" + name + ")";
  }
}
