// The CUDA driver API bound through FFM to libcuda.so.1: each Cuda method is a downcall to the C function of that name.
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
import java.util.Map;

/**
 * {@link Cuda} over the NVIDIA driver, each method with the C signature of {@code cuda.h} (CUDA 13):
 * handles ({@code CUcontext}, {@code CUmodule}, {@code CUfunction}, {@code CUstream},
 * {@code CUevent}, {@code CUlinkState}) and host pointers are {@link MemorySegment}s,
 * {@code CUdevice}, {@code CUresult}, enums and {@code unsigned int} are {@code int},
 * {@code CUdeviceptr} and {@code size_t} are {@code long}. The symbols are the ABI names the
 * header's macros expand to ({@code cuMemAlloc_v2}, …), all present in every driver since CUDA 11;
 * {@link #SIGNATURES} lists them with their descriptors (a test checks them against {@code cuda.h}).
 */
final class CudaLibrary implements Cuda {
  /** The bindings over the library {@code name}, with cuInit done, or why there are none. */
  @SuppressWarnings("restricted")   // loading a native library is the point of this class
  static Loaded open(String name) {
    SymbolLookup lib = lookup(name);
    if (lib == null)
      return new Loaded(null, name + " not found (no NVIDIA driver): looked on the loader's path and in "
          + String.join(", ", DRIVER_FOLDERS) + "; name the library with -Dloopjit.cuda.library=/path/to/libcuda.so.1");
    Cuda cuda;
    try {
      cuda = new CudaLibrary(lib);
    } catch (RuntimeException e) {
      return new Loaded(null, name + " is not a usable CUDA driver library: " + e.getMessage());
    }
    return Cuda.initialized(cuda);
  }

  /** Where NVIDIA's driver installs libcuda.so.1 when the loader's path does not name it (containers, WSL). */
  static final java.util.List<String> DRIVER_FOLDERS = java.util.List.of("/usr/lib/x86_64-linux-gnu", "/usr/lib64",
      "/usr/local/nvidia/lib64", "/usr/lib/wsl/lib");

  /** The library {@code name} as the loader finds it, else (a bare name) from the first driver folder that has it; null when none. */
  @SuppressWarnings("restricted")
  private static SymbolLookup lookup(String name) {
    try {
      return SymbolLookup.libraryLookup(name, Arena.global());
    } catch (IllegalArgumentException e) {
      if (name.contains("/")) return null;
    }
    for (String folder : DRIVER_FOLDERS) {
      java.nio.file.Path p = java.nio.file.Path.of(folder, name);
      if (!java.nio.file.Files.exists(p)) continue;
      try {
        return SymbolLookup.libraryLookup(p, Arena.global());
      } catch (IllegalArgumentException e) {
        // a library the loader cannot use (another architecture): try the next folder
      }
    }
    return null;
  }

  private static FunctionDescriptor returnsResult(MemoryLayout... args) {
    return FunctionDescriptor.of(JAVA_INT, args);
  }

  /** Every symbol bound, with its descriptor: each returns a CUresult. */
  static final Map<String, FunctionDescriptor> SIGNATURES = Map.ofEntries(
      Map.entry("cuInit", returnsResult(JAVA_INT)),
      Map.entry("cuDriverGetVersion", returnsResult(ADDRESS)),
      Map.entry("cuDeviceGetCount", returnsResult(ADDRESS)),
      Map.entry("cuDeviceGet", returnsResult(ADDRESS, JAVA_INT)),
      Map.entry("cuDeviceGetName", returnsResult(ADDRESS, JAVA_INT, JAVA_INT)),
      Map.entry("cuDeviceGetAttribute", returnsResult(ADDRESS, JAVA_INT, JAVA_INT)),
      Map.entry("cuDeviceTotalMem_v2", returnsResult(ADDRESS, JAVA_INT)),
      Map.entry("cuDevicePrimaryCtxRetain", returnsResult(ADDRESS, JAVA_INT)),
      Map.entry("cuDevicePrimaryCtxRelease_v2", returnsResult(JAVA_INT)),
      Map.entry("cuDevicePrimaryCtxReset_v2", returnsResult(JAVA_INT)),
      Map.entry("cuCtxSetCurrent", returnsResult(ADDRESS)),
      Map.entry("cuMemGetInfo_v2", returnsResult(ADDRESS, ADDRESS)),
      Map.entry("cuModuleLoadDataEx", returnsResult(ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS)),
      Map.entry("cuModuleGetFunction", returnsResult(ADDRESS, ADDRESS, ADDRESS)),
      Map.entry("cuModuleUnload", returnsResult(ADDRESS)),
      Map.entry("cuFuncGetAttribute", returnsResult(ADDRESS, JAVA_INT, ADDRESS)),
      Map.entry("cuFuncSetAttribute", returnsResult(ADDRESS, JAVA_INT, JAVA_INT)),
      Map.entry("cuLinkCreate_v2", returnsResult(JAVA_INT, ADDRESS, ADDRESS, ADDRESS)),
      Map.entry("cuLinkAddData_v2", returnsResult(ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_INT, ADDRESS, ADDRESS)),
      Map.entry("cuLinkComplete", returnsResult(ADDRESS, ADDRESS, ADDRESS)),
      Map.entry("cuLinkDestroy", returnsResult(ADDRESS)),
      Map.entry("cuMemAlloc_v2", returnsResult(ADDRESS, JAVA_LONG)),
      Map.entry("cuMemFree_v2", returnsResult(JAVA_LONG)),
      Map.entry("cuMemcpyHtoDAsync_v2", returnsResult(JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS)),
      Map.entry("cuMemcpyDtoHAsync_v2", returnsResult(ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS)),
      Map.entry("cuMemcpyHtoD_v2", returnsResult(JAVA_LONG, ADDRESS, JAVA_LONG)),
      Map.entry("cuMemcpyDtoH_v2", returnsResult(ADDRESS, JAVA_LONG, JAVA_LONG)),
      Map.entry("cuMemHostRegister_v2", returnsResult(ADDRESS, JAVA_LONG, JAVA_INT)),
      Map.entry("cuMemHostUnregister", returnsResult(ADDRESS)),
      Map.entry("cuStreamCreate", returnsResult(ADDRESS, JAVA_INT)),
      Map.entry("cuStreamSynchronize", returnsResult(ADDRESS)),
      Map.entry("cuStreamDestroy_v2", returnsResult(ADDRESS)),
      Map.entry("cuEventCreate", returnsResult(ADDRESS, JAVA_INT)),
      Map.entry("cuEventRecord", returnsResult(ADDRESS, ADDRESS)),
      Map.entry("cuEventSynchronize", returnsResult(ADDRESS)),
      Map.entry("cuEventElapsedTime_v2", returnsResult(ADDRESS, ADDRESS, ADDRESS)),
      Map.entry("cuEventElapsedTime", returnsResult(ADDRESS, ADDRESS, ADDRESS)),
      Map.entry("cuEventDestroy_v2", returnsResult(ADDRESS)),
      Map.entry("cuLaunchKernel", returnsResult(ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT,
          ADDRESS, ADDRESS, ADDRESS)),
      Map.entry("cuGetErrorName", returnsResult(JAVA_INT, ADDRESS)),
      Map.entry("cuGetErrorString", returnsResult(JAVA_INT, ADDRESS)));

  private final MethodHandle init, driverGetVersion, deviceGetCount, deviceGet, deviceGetName, deviceGetAttribute,
      deviceTotalMem, primaryCtxRetain, primaryCtxRelease, primaryCtxReset, ctxSetCurrent, memGetInfo, moduleLoadDataEx,
      moduleGetFunction, moduleUnload, funcGetAttribute, funcSetAttribute, linkCreate, linkAddData, linkComplete, linkDestroy, memAlloc,
      memFree, memcpyHtoDAsync, memcpyDtoHAsync, memcpyHtoD, memcpyDtoH, memHostRegister, memHostUnregister,
      streamCreate, streamSynchronize, streamDestroy, eventCreate, eventRecord, eventSynchronize, eventElapsedTime,
      eventDestroy, launchKernel, getErrorName, getErrorString;

  private CudaLibrary(SymbolLookup lib) {
    init = bind(lib, "cuInit");
    driverGetVersion = bind(lib, "cuDriverGetVersion");
    deviceGetCount = bind(lib, "cuDeviceGetCount");
    deviceGet = bind(lib, "cuDeviceGet");
    deviceGetName = bind(lib, "cuDeviceGetName");
    deviceGetAttribute = bind(lib, "cuDeviceGetAttribute");
    deviceTotalMem = bind(lib, "cuDeviceTotalMem_v2");
    primaryCtxRetain = bind(lib, "cuDevicePrimaryCtxRetain");
    primaryCtxRelease = bind(lib, "cuDevicePrimaryCtxRelease_v2");
    primaryCtxReset = bind(lib, "cuDevicePrimaryCtxReset_v2");
    ctxSetCurrent = bind(lib, "cuCtxSetCurrent");
    memGetInfo = bind(lib, "cuMemGetInfo_v2");
    moduleLoadDataEx = bind(lib, "cuModuleLoadDataEx");
    moduleGetFunction = bind(lib, "cuModuleGetFunction");
    moduleUnload = bind(lib, "cuModuleUnload");
    funcGetAttribute = bind(lib, "cuFuncGetAttribute");
    funcSetAttribute = bind(lib, "cuFuncSetAttribute");
    linkCreate = bind(lib, "cuLinkCreate_v2");
    linkAddData = bind(lib, "cuLinkAddData_v2");
    linkComplete = bind(lib, "cuLinkComplete");
    linkDestroy = bind(lib, "cuLinkDestroy");
    memAlloc = bind(lib, "cuMemAlloc_v2");
    memFree = bind(lib, "cuMemFree_v2");
    memcpyHtoDAsync = bind(lib, "cuMemcpyHtoDAsync_v2");
    memcpyDtoHAsync = bind(lib, "cuMemcpyDtoHAsync_v2");
    // Heap arrays go straight to the driver: critical(true) lets a heap segment through and keeps the
    // GC from moving it during the call, so only the synchronous copies get it.
    memcpyHtoD = bind(lib, "cuMemcpyHtoD_v2", Linker.Option.critical(true));
    memcpyDtoH = bind(lib, "cuMemcpyDtoH_v2", Linker.Option.critical(true));
    memHostRegister = bind(lib, "cuMemHostRegister_v2");
    memHostUnregister = bind(lib, "cuMemHostUnregister");
    streamCreate = bind(lib, "cuStreamCreate");
    streamSynchronize = bind(lib, "cuStreamSynchronize");
    streamDestroy = bind(lib, "cuStreamDestroy_v2");
    eventCreate = bind(lib, "cuEventCreate");
    eventRecord = bind(lib, "cuEventRecord");
    eventSynchronize = bind(lib, "cuEventSynchronize");
    // CUDA 12.8 added a _v2 (cuda.h 13 maps the name to it); older drivers have only the first.
    eventElapsedTime = bind(lib, lib.find("cuEventElapsedTime_v2").isPresent() ? "cuEventElapsedTime_v2" : "cuEventElapsedTime");
    eventDestroy = bind(lib, "cuEventDestroy_v2");
    launchKernel = bind(lib, "cuLaunchKernel");
    getErrorName = bind(lib, "cuGetErrorName");
    getErrorString = bind(lib, "cuGetErrorString");
  }

  @SuppressWarnings("restricted")
  private static MethodHandle bind(SymbolLookup lib, String name, Linker.Option... options) {
    MemorySegment symbol = lib.find(name).orElseThrow(() -> new IllegalArgumentException("no symbol " + name));
    return Linker.nativeLinker().downcallHandle(symbol, SIGNATURES.get(name), options);
  }

  private static RuntimeException fail(Throwable t) {
    if (t instanceof RuntimeException r) return r;
    if (t instanceof Error e) throw e;
    return new IllegalStateException(t);
  }

  @Override
  public int init(int flags) {
    try { return (int) init.invokeExact(flags); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int driverGetVersion(MemorySegment version) {
    try { return (int) driverGetVersion.invokeExact(version); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int deviceGetCount(MemorySegment count) {
    try { return (int) deviceGetCount.invokeExact(count); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int deviceGet(MemorySegment device, int ordinal) {
    try { return (int) deviceGet.invokeExact(device, ordinal); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int deviceGetName(MemorySegment name, int len, int device) {
    try { return (int) deviceGetName.invokeExact(name, len, device); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int deviceGetAttribute(MemorySegment value, int attribute, int device) {
    try { return (int) deviceGetAttribute.invokeExact(value, attribute, device); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int deviceTotalMem(MemorySegment bytes, int device) {
    try { return (int) deviceTotalMem.invokeExact(bytes, device); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int primaryCtxRetain(MemorySegment ctx, int device) {
    try { return (int) primaryCtxRetain.invokeExact(ctx, device); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int primaryCtxRelease(int device) {
    try { return (int) primaryCtxRelease.invokeExact(device); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int primaryCtxReset(int device) {
    try { return (int) primaryCtxReset.invokeExact(device); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int ctxSetCurrent(MemorySegment ctx) {
    try { return (int) ctxSetCurrent.invokeExact(ctx); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int memGetInfo(MemorySegment free, MemorySegment total) {
    try { return (int) memGetInfo.invokeExact(free, total); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int moduleLoadDataEx(MemorySegment module, MemorySegment image, int n, MemorySegment options, MemorySegment values) {
    try { return (int) moduleLoadDataEx.invokeExact(module, image, n, options, values); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int moduleGetFunction(MemorySegment function, MemorySegment module, MemorySegment name) {
    try { return (int) moduleGetFunction.invokeExact(function, module, name); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int moduleUnload(MemorySegment module) {
    try { return (int) moduleUnload.invokeExact(module); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int funcGetAttribute(MemorySegment value, int attribute, MemorySegment function) {
    try { return (int) funcGetAttribute.invokeExact(value, attribute, function); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int funcSetAttribute(MemorySegment function, int attribute, int value) {
    try { return (int) funcSetAttribute.invokeExact(function, attribute, value); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int linkCreate(int n, MemorySegment options, MemorySegment values, MemorySegment state) {
    try { return (int) linkCreate.invokeExact(n, options, values, state); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int linkAddData(MemorySegment state, int type, MemorySegment data, long size, MemorySegment name) {
    try {
      return (int) linkAddData.invokeExact(state, type, data, size, name, 0, MemorySegment.NULL, MemorySegment.NULL);
    } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int linkComplete(MemorySegment state, MemorySegment cubin, MemorySegment size) {
    try { return (int) linkComplete.invokeExact(state, cubin, size); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int linkDestroy(MemorySegment state) {
    try { return (int) linkDestroy.invokeExact(state); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int memAlloc(MemorySegment pointer, long bytes) {
    try { return (int) memAlloc.invokeExact(pointer, bytes); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int memFree(long pointer) {
    try { return (int) memFree.invokeExact(pointer); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int memcpyHtoDAsync(long dst, MemorySegment src, long bytes, MemorySegment stream) {
    try { return (int) memcpyHtoDAsync.invokeExact(dst, src, bytes, stream); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int memcpyDtoHAsync(MemorySegment dst, long src, long bytes, MemorySegment stream) {
    try { return (int) memcpyDtoHAsync.invokeExact(dst, src, bytes, stream); } catch (Throwable t) { throw fail(t); }
  }

  /** Synchronous host-to-device copy; {@code src} may be a heap segment. */
  @Override
  public int memcpyHtoD(long dst, MemorySegment src, long bytes) {
    try { return (int) memcpyHtoD.invokeExact(dst, src, bytes); } catch (Throwable t) { throw fail(t); }
  }

  /** Synchronous device-to-host copy; {@code dst} may be a heap segment. */
  @Override
  public int memcpyDtoH(MemorySegment dst, long src, long bytes) {
    try { return (int) memcpyDtoH.invokeExact(dst, src, bytes); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int memHostRegister(MemorySegment p, long bytes, int flags) {
    try { return (int) memHostRegister.invokeExact(p, bytes, flags); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int memHostUnregister(MemorySegment p) {
    try { return (int) memHostUnregister.invokeExact(p); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int streamCreate(MemorySegment stream, int flags) {
    try { return (int) streamCreate.invokeExact(stream, flags); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int streamSynchronize(MemorySegment stream) {
    try { return (int) streamSynchronize.invokeExact(stream); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int streamDestroy(MemorySegment stream) {
    try { return (int) streamDestroy.invokeExact(stream); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int eventCreate(MemorySegment event, int flags) {
    try { return (int) eventCreate.invokeExact(event, flags); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int eventRecord(MemorySegment event, MemorySegment stream) {
    try { return (int) eventRecord.invokeExact(event, stream); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int eventSynchronize(MemorySegment event) {
    try { return (int) eventSynchronize.invokeExact(event); } catch (Throwable t) { throw fail(t); }
  }

  /** Milliseconds (a float) between two recorded, completed events. */
  @Override
  public int eventElapsedTime(MemorySegment milliseconds, MemorySegment start, MemorySegment end) {
    try { return (int) eventElapsedTime.invokeExact(milliseconds, start, end); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int eventDestroy(MemorySegment event) {
    try { return (int) eventDestroy.invokeExact(event); } catch (Throwable t) { throw fail(t); }
  }

  /** {@code params} is a {@code void*[]} with one pointer to each argument's value; no {@code extra}. */
  @Override
  public int launchKernel(MemorySegment function, int gx, int gy, int gz, int bx, int by, int bz, int sharedBytes,
      MemorySegment stream, MemorySegment params) {
    try {
      return (int) launchKernel.invokeExact(function, gx, gy, gz, bx, by, bz, sharedBytes, stream, params, MemorySegment.NULL);
    } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int getErrorName(int code, MemorySegment name) {
    try { return (int) getErrorName.invokeExact(code, name); } catch (Throwable t) { throw fail(t); }
  }

  @Override
  public int getErrorString(int code, MemorySegment string) {
    try { return (int) getErrorString.invokeExact(code, string); } catch (Throwable t) { throw fail(t); }
  }
}
