// FFM bindings to the CUDA driver API in libcuda.so.1: constants and one typed Java method per C function, nothing more.
// The policy (contexts, caches, pools, launches) is in CudaContext and CudaRuntime; error names are in CudaException.
package dev.loopjit.backend.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.HashMap;
import java.util.Map;

/**
 * The CUDA driver functions the backend calls, each as a Java method with the C signature of
 * {@code cuda.h} (CUDA 13): handles ({@code CUcontext}, {@code CUmodule}, {@code CUfunction},
 * {@code CUstream}, {@code CUevent}, {@code CUlinkState}) and host pointers are
 * {@link MemorySegment}s, {@code CUdevice}, {@code CUresult} and {@code unsigned int} are
 * {@code int}, {@code CUdeviceptr} and {@code size_t} are {@code long}. The symbols are the ABI
 * names the header's macros expand to ({@code cuMemAlloc_v2}, …), all present in every driver
 * since CUDA 11. Loaded once per library name; {@link #load} reports why instead of throwing, so
 * device discovery never fails on a machine without a driver.
 */
final class Cuda {
  static final int SUCCESS = 0;

  // CUdevice_attribute
  static final int ATTR_MAX_THREADS_PER_BLOCK = 1, ATTR_MAX_BLOCK_DIM_X = 2, ATTR_MAX_BLOCK_DIM_Y = 3,
      ATTR_MAX_BLOCK_DIM_Z = 4, ATTR_MAX_GRID_DIM_X = 5, ATTR_MAX_GRID_DIM_Y = 6, ATTR_MAX_GRID_DIM_Z = 7,
      ATTR_MAX_SHARED_MEMORY_PER_BLOCK = 8, ATTR_WARP_SIZE = 10, ATTR_CLOCK_RATE = 13, ATTR_MULTIPROCESSOR_COUNT = 16,
      ATTR_INTEGRATED = 18, ATTR_ASYNC_ENGINE_COUNT = 40, ATTR_UNIFIED_ADDRESSING = 41,
      ATTR_COMPUTE_CAPABILITY_MAJOR = 75, ATTR_COMPUTE_CAPABILITY_MINOR = 76,
      ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97, ATTR_HOST_REGISTER_SUPPORTED = 99;

  // CUfunction_attribute
  static final int FUNC_MAX_THREADS_PER_BLOCK = 0, FUNC_SHARED_SIZE_BYTES = 1, FUNC_NUM_REGS = 4;

  // CUjit_option; values travel in a void* slot each: sizes as the pointer's value, buffers as pointers.
  static final int JIT_WALL_TIME = 2, JIT_INFO_LOG_BUFFER = 3, JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
      JIT_ERROR_LOG_BUFFER = 5, JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6, JIT_LOG_VERBOSE = 12;

  // CUjitInputType
  static final int JIT_INPUT_PTX = 1;

  static final int STREAM_DEFAULT = 0, EVENT_DEFAULT = 0, MEMHOSTREGISTER_PORTABLE = 1;

  /** The bindings over one library, or why there are none. */
  record Loaded(Cuda cuda, String problem) {}

  private static final Map<String, Loaded> LOADED = new HashMap<>();

  /** The bindings over {@code library}, with cuInit done; loaded once per name. */
  static synchronized Loaded load(String library) {
    return LOADED.computeIfAbsent(library, Cuda::open);
  }

  @SuppressWarnings("restricted")   // loading a native library is the point of this class
  private static Loaded open(String name) {
    SymbolLookup lib;
    try {
      lib = SymbolLookup.libraryLookup(name, Arena.global());
    } catch (IllegalArgumentException e) {
      return new Loaded(null, name + " not found (no NVIDIA driver)");
    }
    Cuda cuda;
    try {
      cuda = new Cuda(lib);
    } catch (RuntimeException e) {
      return new Loaded(null, name + " is not a usable CUDA driver library: " + e.getMessage());
    }
    int rc = cuda.init(0);
    if (rc != SUCCESS) return new Loaded(null, "cuInit failed: " + CudaException.name(rc) + " (" + rc + "): " + cuda.describe(rc));
    return new Loaded(cuda, null);
  }

  private final MethodHandle init, driverGetVersion, deviceGetCount, deviceGet, deviceGetName, deviceGetAttribute,
      deviceTotalMem, primaryCtxRetain, primaryCtxRelease, ctxSetCurrent, memGetInfo, moduleLoadDataEx,
      moduleGetFunction, moduleUnload, funcGetAttribute, linkCreate, linkAddData, linkComplete, linkDestroy, memAlloc,
      memFree, memcpyHtoDAsync, memcpyDtoHAsync, memcpyHtoD, memcpyDtoH, memHostRegister, memHostUnregister,
      streamCreate, streamSynchronize, streamDestroy, eventCreate, eventRecord, eventSynchronize, eventElapsedTime,
      eventDestroy, launchKernel, getErrorName, getErrorString;

  private Cuda(SymbolLookup lib) {
    init = bind(lib, "cuInit", JAVA_INT);
    driverGetVersion = bind(lib, "cuDriverGetVersion", ADDRESS);
    deviceGetCount = bind(lib, "cuDeviceGetCount", ADDRESS);
    deviceGet = bind(lib, "cuDeviceGet", ADDRESS, JAVA_INT);
    deviceGetName = bind(lib, "cuDeviceGetName", ADDRESS, JAVA_INT, JAVA_INT);
    deviceGetAttribute = bind(lib, "cuDeviceGetAttribute", ADDRESS, JAVA_INT, JAVA_INT);
    deviceTotalMem = bind(lib, "cuDeviceTotalMem_v2", ADDRESS, JAVA_INT);
    primaryCtxRetain = bind(lib, "cuDevicePrimaryCtxRetain", ADDRESS, JAVA_INT);
    primaryCtxRelease = bind(lib, "cuDevicePrimaryCtxRelease_v2", JAVA_INT);
    ctxSetCurrent = bind(lib, "cuCtxSetCurrent", ADDRESS);
    memGetInfo = bind(lib, "cuMemGetInfo_v2", ADDRESS, ADDRESS);
    moduleLoadDataEx = bind(lib, "cuModuleLoadDataEx", ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
    moduleGetFunction = bind(lib, "cuModuleGetFunction", ADDRESS, ADDRESS, ADDRESS);
    moduleUnload = bind(lib, "cuModuleUnload", ADDRESS);
    funcGetAttribute = bind(lib, "cuFuncGetAttribute", ADDRESS, JAVA_INT, ADDRESS);
    linkCreate = bind(lib, "cuLinkCreate_v2", JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
    linkAddData = bind(lib, "cuLinkAddData_v2", ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
    linkComplete = bind(lib, "cuLinkComplete", ADDRESS, ADDRESS, ADDRESS);
    linkDestroy = bind(lib, "cuLinkDestroy", ADDRESS);
    memAlloc = bind(lib, "cuMemAlloc_v2", ADDRESS, JAVA_LONG);
    memFree = bind(lib, "cuMemFree_v2", JAVA_LONG);
    memcpyHtoDAsync = bind(lib, "cuMemcpyHtoDAsync_v2", JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS);
    memcpyDtoHAsync = bind(lib, "cuMemcpyDtoHAsync_v2", ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS);
    // Heap arrays go straight to the driver: critical(true) lets a heap segment through and keeps the
    // GC from moving it during the call, so only the synchronous copies get it.
    memcpyHtoD = bind(lib, "cuMemcpyHtoD_v2", new MemoryLayout[] {JAVA_LONG, ADDRESS, JAVA_LONG}, Linker.Option.critical(true));
    memcpyDtoH = bind(lib, "cuMemcpyDtoH_v2", new MemoryLayout[] {ADDRESS, JAVA_LONG, JAVA_LONG}, Linker.Option.critical(true));
    memHostRegister = bind(lib, "cuMemHostRegister_v2", ADDRESS, JAVA_LONG, JAVA_INT);
    memHostUnregister = bind(lib, "cuMemHostUnregister", ADDRESS);
    streamCreate = bind(lib, "cuStreamCreate", ADDRESS, JAVA_INT);
    streamSynchronize = bind(lib, "cuStreamSynchronize", ADDRESS);
    streamDestroy = bind(lib, "cuStreamDestroy_v2", ADDRESS);
    eventCreate = bind(lib, "cuEventCreate", ADDRESS, JAVA_INT);
    eventRecord = bind(lib, "cuEventRecord", ADDRESS, ADDRESS);
    eventSynchronize = bind(lib, "cuEventSynchronize", ADDRESS);
    // CUDA 12.8 added a _v2 (cuda.h 13 maps the name to it); older drivers have only the first.
    eventElapsedTime = bind(lib, lib.find("cuEventElapsedTime_v2").isPresent() ? "cuEventElapsedTime_v2" : "cuEventElapsedTime",
        ADDRESS, ADDRESS, ADDRESS);
    eventDestroy = bind(lib, "cuEventDestroy_v2", ADDRESS);
    launchKernel = bind(lib, "cuLaunchKernel", ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT,
        ADDRESS, ADDRESS, ADDRESS);
    getErrorName = bind(lib, "cuGetErrorName", JAVA_INT, ADDRESS);
    getErrorString = bind(lib, "cuGetErrorString", JAVA_INT, ADDRESS);
  }

  /** Every function returns a CUresult. */
  private static MethodHandle bind(SymbolLookup lib, String name, MemoryLayout... args) {
    return bind(lib, name, args, new Linker.Option[0]);
  }

  @SuppressWarnings("restricted")
  private static MethodHandle bind(SymbolLookup lib, String name, MemoryLayout[] args, Linker.Option... options) {
    MemorySegment symbol = lib.find(name).orElseThrow(() -> new IllegalArgumentException("no symbol " + name));
    return Linker.nativeLinker().downcallHandle(symbol, FunctionDescriptor.of(JAVA_INT, args), options);
  }

  /** Throws a {@link CudaException} naming {@code what} unless {@code code} is CUDA_SUCCESS. */
  void check(int code, String what) {
    if (code != SUCCESS) throw new CudaException(code, what, describe(code));
  }

  /** The driver's description of an error code ({@code cuGetErrorString}), or "" when it has none. */
  @SuppressWarnings("restricted")   // the driver returns a pointer to a static C string
  String describe(int code) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment p = a.allocate(ADDRESS);
      if (getErrorString(code, p) != SUCCESS) return "";
      MemorySegment s = p.get(ADDRESS, 0);
      return s.equals(MemorySegment.NULL) ? "" : s.reinterpret(4096).getString(0);
    }
  }

  /** The driver's own name for an error code ({@code cuGetErrorName}), or null when it does not know the code. */
  @SuppressWarnings("restricted")
  String driverName(int code) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment p = a.allocate(ADDRESS);
      if (getErrorName(code, p) != SUCCESS) return null;
      MemorySegment s = p.get(ADDRESS, 0);
      return s.equals(MemorySegment.NULL) ? null : s.reinterpret(4096).getString(0);
    }
  }

  private static RuntimeException fail(Throwable t) {
    if (t instanceof RuntimeException r) return r;
    if (t instanceof Error e) throw e;
    return new IllegalStateException(t);
  }

  int init(int flags) {
    try { return (int) init.invokeExact(flags); } catch (Throwable t) { throw fail(t); }
  }

  int driverGetVersion(MemorySegment version) {
    try { return (int) driverGetVersion.invokeExact(version); } catch (Throwable t) { throw fail(t); }
  }

  int deviceGetCount(MemorySegment count) {
    try { return (int) deviceGetCount.invokeExact(count); } catch (Throwable t) { throw fail(t); }
  }

  int deviceGet(MemorySegment device, int ordinal) {
    try { return (int) deviceGet.invokeExact(device, ordinal); } catch (Throwable t) { throw fail(t); }
  }

  int deviceGetName(MemorySegment name, int len, int device) {
    try { return (int) deviceGetName.invokeExact(name, len, device); } catch (Throwable t) { throw fail(t); }
  }

  int deviceGetAttribute(MemorySegment value, int attribute, int device) {
    try { return (int) deviceGetAttribute.invokeExact(value, attribute, device); } catch (Throwable t) { throw fail(t); }
  }

  int deviceTotalMem(MemorySegment bytes, int device) {
    try { return (int) deviceTotalMem.invokeExact(bytes, device); } catch (Throwable t) { throw fail(t); }
  }

  int primaryCtxRetain(MemorySegment ctx, int device) {
    try { return (int) primaryCtxRetain.invokeExact(ctx, device); } catch (Throwable t) { throw fail(t); }
  }

  int primaryCtxRelease(int device) {
    try { return (int) primaryCtxRelease.invokeExact(device); } catch (Throwable t) { throw fail(t); }
  }

  int ctxSetCurrent(MemorySegment ctx) {
    try { return (int) ctxSetCurrent.invokeExact(ctx); } catch (Throwable t) { throw fail(t); }
  }

  int memGetInfo(MemorySegment free, MemorySegment total) {
    try { return (int) memGetInfo.invokeExact(free, total); } catch (Throwable t) { throw fail(t); }
  }

  int moduleLoadDataEx(MemorySegment module, MemorySegment image, int n, MemorySegment options, MemorySegment values) {
    try { return (int) moduleLoadDataEx.invokeExact(module, image, n, options, values); } catch (Throwable t) { throw fail(t); }
  }

  int moduleGetFunction(MemorySegment function, MemorySegment module, MemorySegment name) {
    try { return (int) moduleGetFunction.invokeExact(function, module, name); } catch (Throwable t) { throw fail(t); }
  }

  int moduleUnload(MemorySegment module) {
    try { return (int) moduleUnload.invokeExact(module); } catch (Throwable t) { throw fail(t); }
  }

  int funcGetAttribute(MemorySegment value, int attribute, MemorySegment function) {
    try { return (int) funcGetAttribute.invokeExact(value, attribute, function); } catch (Throwable t) { throw fail(t); }
  }

  int linkCreate(int n, MemorySegment options, MemorySegment values, MemorySegment state) {
    try { return (int) linkCreate.invokeExact(n, options, values, state); } catch (Throwable t) { throw fail(t); }
  }

  int linkAddData(MemorySegment state, int type, MemorySegment data, long size, MemorySegment name) {
    try {
      return (int) linkAddData.invokeExact(state, type, data, size, name, 0, MemorySegment.NULL, MemorySegment.NULL);
    } catch (Throwable t) { throw fail(t); }
  }

  int linkComplete(MemorySegment state, MemorySegment cubin, MemorySegment size) {
    try { return (int) linkComplete.invokeExact(state, cubin, size); } catch (Throwable t) { throw fail(t); }
  }

  int linkDestroy(MemorySegment state) {
    try { return (int) linkDestroy.invokeExact(state); } catch (Throwable t) { throw fail(t); }
  }

  int memAlloc(MemorySegment pointer, long bytes) {
    try { return (int) memAlloc.invokeExact(pointer, bytes); } catch (Throwable t) { throw fail(t); }
  }

  int memFree(long pointer) {
    try { return (int) memFree.invokeExact(pointer); } catch (Throwable t) { throw fail(t); }
  }

  int memcpyHtoDAsync(long dst, MemorySegment src, long bytes, MemorySegment stream) {
    try { return (int) memcpyHtoDAsync.invokeExact(dst, src, bytes, stream); } catch (Throwable t) { throw fail(t); }
  }

  int memcpyDtoHAsync(MemorySegment dst, long src, long bytes, MemorySegment stream) {
    try { return (int) memcpyDtoHAsync.invokeExact(dst, src, bytes, stream); } catch (Throwable t) { throw fail(t); }
  }

  /** Synchronous host-to-device copy; {@code src} may be a heap segment. */
  int memcpyHtoD(long dst, MemorySegment src, long bytes) {
    try { return (int) memcpyHtoD.invokeExact(dst, src, bytes); } catch (Throwable t) { throw fail(t); }
  }

  /** Synchronous device-to-host copy; {@code dst} may be a heap segment. */
  int memcpyDtoH(MemorySegment dst, long src, long bytes) {
    try { return (int) memcpyDtoH.invokeExact(dst, src, bytes); } catch (Throwable t) { throw fail(t); }
  }

  int memHostRegister(MemorySegment p, long bytes, int flags) {
    try { return (int) memHostRegister.invokeExact(p, bytes, flags); } catch (Throwable t) { throw fail(t); }
  }

  int memHostUnregister(MemorySegment p) {
    try { return (int) memHostUnregister.invokeExact(p); } catch (Throwable t) { throw fail(t); }
  }

  int streamCreate(MemorySegment stream, int flags) {
    try { return (int) streamCreate.invokeExact(stream, flags); } catch (Throwable t) { throw fail(t); }
  }

  int streamSynchronize(MemorySegment stream) {
    try { return (int) streamSynchronize.invokeExact(stream); } catch (Throwable t) { throw fail(t); }
  }

  int streamDestroy(MemorySegment stream) {
    try { return (int) streamDestroy.invokeExact(stream); } catch (Throwable t) { throw fail(t); }
  }

  int eventCreate(MemorySegment event, int flags) {
    try { return (int) eventCreate.invokeExact(event, flags); } catch (Throwable t) { throw fail(t); }
  }

  int eventRecord(MemorySegment event, MemorySegment stream) {
    try { return (int) eventRecord.invokeExact(event, stream); } catch (Throwable t) { throw fail(t); }
  }

  int eventSynchronize(MemorySegment event) {
    try { return (int) eventSynchronize.invokeExact(event); } catch (Throwable t) { throw fail(t); }
  }

  /** Milliseconds (a float) between two recorded, completed events. */
  int eventElapsedTime(MemorySegment milliseconds, MemorySegment start, MemorySegment end) {
    try { return (int) eventElapsedTime.invokeExact(milliseconds, start, end); } catch (Throwable t) { throw fail(t); }
  }

  int eventDestroy(MemorySegment event) {
    try { return (int) eventDestroy.invokeExact(event); } catch (Throwable t) { throw fail(t); }
  }

  /** {@code params} is a {@code void*[]} with one pointer to each argument's value; no {@code extra}. */
  int launchKernel(MemorySegment function, int gx, int gy, int gz, int bx, int by, int bz, int sharedBytes,
      MemorySegment stream, MemorySegment params) {
    try {
      return (int) launchKernel.invokeExact(function, gx, gy, gz, bx, by, bz, sharedBytes, stream, params, MemorySegment.NULL);
    } catch (Throwable t) { throw fail(t); }
  }

  int getErrorName(int code, MemorySegment name) {
    try { return (int) getErrorName.invokeExact(code, name); } catch (Throwable t) { throw fail(t); }
  }

  int getErrorString(int code, MemorySegment string) {
    try { return (int) getErrorString.invokeExact(code, string); } catch (Throwable t) { throw fail(t); }
  }
}
