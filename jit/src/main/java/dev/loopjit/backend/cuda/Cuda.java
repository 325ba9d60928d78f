// The CUDA driver API as the backend calls it: its constants and one method per C function, over libcuda or a stand-in.
// The policy (contexts, caches, pools, launches) is in CudaContext and CudaRuntime; error names are in CudaException.
package dev.loopjit.backend.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The driver functions the backend calls, each with the arguments of its C function in
 * {@code cuda.h} and returning the {@code CUresult}. {@link CudaLibrary} is the real driver
 * (FFM downcalls into {@code libcuda.so.1}); {@link #load} also takes {@code java:ClassName},
 * a class with a public no-argument constructor that implements this interface in Java — the test
 * suite's PTX simulator is one, so the whole CUDA runtime runs where no GPU is. {@link #load}
 * reports why instead of throwing, so device discovery never fails on a machine without a driver.
 */
interface Cuda {
  int SUCCESS = 0;

  // CUdevice_attribute
  int ATTR_MAX_THREADS_PER_BLOCK = 1, ATTR_MAX_BLOCK_DIM_X = 2, ATTR_MAX_BLOCK_DIM_Y = 3,
      ATTR_MAX_BLOCK_DIM_Z = 4, ATTR_MAX_GRID_DIM_X = 5, ATTR_MAX_GRID_DIM_Y = 6, ATTR_MAX_GRID_DIM_Z = 7,
      ATTR_MAX_SHARED_MEMORY_PER_BLOCK = 8, ATTR_WARP_SIZE = 10, ATTR_CLOCK_RATE = 13, ATTR_MULTIPROCESSOR_COUNT = 16,
      ATTR_INTEGRATED = 18, ATTR_ASYNC_ENGINE_COUNT = 40, ATTR_UNIFIED_ADDRESSING = 41,
      ATTR_COMPUTE_CAPABILITY_MAJOR = 75, ATTR_COMPUTE_CAPABILITY_MINOR = 76,
      ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97, ATTR_HOST_REGISTER_SUPPORTED = 99;

  // CUfunction_attribute
  int FUNC_MAX_THREADS_PER_BLOCK = 0, FUNC_SHARED_SIZE_BYTES = 1, FUNC_NUM_REGS = 4, FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;

  // CUjit_option; values travel in a void* slot each: sizes as the pointer's value, buffers as pointers.
  int JIT_WALL_TIME = 2, JIT_INFO_LOG_BUFFER = 3, JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
      JIT_ERROR_LOG_BUFFER = 5, JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6, JIT_LOG_VERBOSE = 12;

  // CUjitInputType
  int JIT_INPUT_PTX = 1;

  int STREAM_DEFAULT = 0, EVENT_DEFAULT = 0, MEMHOSTREGISTER_PORTABLE = 1;

  /** A driver, or why there is none. */
  record Loaded(Cuda cuda, String problem) {}

  /** The driver named {@code library} (a library name or path, or {@code java:ClassName}), with cuInit done; loaded once per name. */
  static Loaded load(String library) {
    return CudaDrivers.load(library);
  }

  /** {@code cuda} after {@code cuInit(0)}, or why that failed. */
  static Loaded initialized(Cuda cuda) {
    int rc = cuda.init(0);
    if (rc != SUCCESS) return new Loaded(null, "cuInit failed: " + CudaException.name(rc) + " (" + rc + "): " + cuda.describe(rc));
    return new Loaded(cuda, null);
  }

  /** Throws a {@link CudaException} naming {@code what} unless {@code code} is CUDA_SUCCESS. */
  default void check(int code, String what) {
    if (code != SUCCESS) throw new CudaException(code, what, describe(code));
  }

  /** The driver's description of an error code ({@code cuGetErrorString}), or "" when it has none. */
  @SuppressWarnings("restricted")   // the driver returns a pointer to a static C string
  default String describe(int code) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment p = a.allocate(ADDRESS);
      if (getErrorString(code, p) != SUCCESS) return "";
      MemorySegment s = p.get(ADDRESS, 0);
      return s.equals(MemorySegment.NULL) ? "" : s.reinterpret(4096).getString(0);
    }
  }

  /** The driver's own name for an error code ({@code cuGetErrorName}), or null when it does not know the code. */
  @SuppressWarnings("restricted")
  default String driverName(int code) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment p = a.allocate(ADDRESS);
      if (getErrorName(code, p) != SUCCESS) return null;
      MemorySegment s = p.get(ADDRESS, 0);
      return s.equals(MemorySegment.NULL) ? null : s.reinterpret(4096).getString(0);
    }
  }

  int init(int flags);

  int driverGetVersion(MemorySegment version);

  int deviceGetCount(MemorySegment count);

  int deviceGet(MemorySegment device, int ordinal);

  int deviceGetName(MemorySegment name, int len, int device);

  int deviceGetAttribute(MemorySegment value, int attribute, int device);

  int deviceTotalMem(MemorySegment bytes, int device);

  int primaryCtxRetain(MemorySegment ctx, int device);

  int primaryCtxRelease(int device);

  /** cuDevicePrimaryCtxReset: destroys the primary context's state (after a fault has made it unusable); the next retain makes it afresh. */
  int primaryCtxReset(int device);

  int ctxSetCurrent(MemorySegment ctx);

  int memGetInfo(MemorySegment free, MemorySegment total);

  int moduleLoadDataEx(MemorySegment module, MemorySegment image, int n, MemorySegment options, MemorySegment values);

  int moduleGetFunction(MemorySegment function, MemorySegment module, MemorySegment name);

  int moduleUnload(MemorySegment module);

  int funcGetAttribute(MemorySegment value, int attribute, MemorySegment function);

  /** cuFuncSetAttribute: e.g. {@link #FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES}, the opt-in past 48 KiB of shared memory. */
  int funcSetAttribute(MemorySegment function, int attribute, int value);

  int linkCreate(int n, MemorySegment options, MemorySegment values, MemorySegment state);

  int linkAddData(MemorySegment state, int type, MemorySegment data, long size, MemorySegment name);

  int linkComplete(MemorySegment state, MemorySegment cubin, MemorySegment size);

  int linkDestroy(MemorySegment state);

  int memAlloc(MemorySegment pointer, long bytes);

  int memFree(long pointer);

  int memcpyHtoDAsync(long dst, MemorySegment src, long bytes, MemorySegment stream);

  int memcpyDtoHAsync(MemorySegment dst, long src, long bytes, MemorySegment stream);

  /** Synchronous host-to-device copy; {@code src} may be a heap segment. */
  int memcpyHtoD(long dst, MemorySegment src, long bytes);

  /** Synchronous device-to-host copy; {@code dst} may be a heap segment. */
  int memcpyDtoH(MemorySegment dst, long src, long bytes);

  int memHostRegister(MemorySegment p, long bytes, int flags);

  int memHostUnregister(MemorySegment p);

  int streamCreate(MemorySegment stream, int flags);

  int streamSynchronize(MemorySegment stream);

  int streamDestroy(MemorySegment stream);

  int eventCreate(MemorySegment event, int flags);

  int eventRecord(MemorySegment event, MemorySegment stream);

  int eventSynchronize(MemorySegment event);

  /** Milliseconds (a float) between two recorded, completed events. */
  int eventElapsedTime(MemorySegment milliseconds, MemorySegment start, MemorySegment end);

  int eventDestroy(MemorySegment event);

  /** {@code params} is a {@code void*[]} with one pointer to each argument's value; no {@code extra}. */
  int launchKernel(MemorySegment function, int gx, int gy, int gz, int bx, int by, int bz, int sharedBytes,
      MemorySegment stream, MemorySegment params);

  int getErrorName(int code, MemorySegment name);

  int getErrorString(int code, MemorySegment string);
}
