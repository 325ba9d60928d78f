// FFM bindings to the OpenCL C API in libOpenCL.so.1: constants and one typed Java method per C function, nothing more.
// Queries that read strings and arrays are in OpenClInfo; the policy (caches, pools, launches) is in OpenClRuntime.
package dev.loopjit.backend.opencl;

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

/**
 * The OpenCL functions the runtime calls, each as a Java method with the C signature (handles and
 * pointers are {@link MemorySegment}s, {@code cl_uint}/{@code cl_int}/{@code cl_bool} are
 * {@code int}, {@code size_t} and bitfields are {@code long}). Loaded once; {@link #problem()}
 * says why when the library cannot be loaded, so device discovery never throws.
 */
final class OpenCl {
  static final int SUCCESS = 0;
  static final int DEVICE_NOT_FOUND = -1;
  static final int PLATFORM_NOT_FOUND_KHR = -1001;

  static final int PLATFORM_PROFILE = 0x0900, PLATFORM_VERSION = 0x0901, PLATFORM_NAME = 0x0902, PLATFORM_VENDOR = 0x0903;

  static final long DEVICE_TYPE_CPU = 1 << 1, DEVICE_TYPE_GPU = 1 << 2, DEVICE_TYPE_ACCELERATOR = 1 << 3,
      DEVICE_TYPE_ALL = 0xFFFFFFFFL;

  static final int DEVICE_TYPE = 0x1000, DEVICE_MAX_COMPUTE_UNITS = 0x1002, DEVICE_MAX_WORK_ITEM_DIMENSIONS = 0x1003,
      DEVICE_MAX_WORK_GROUP_SIZE = 0x1004, DEVICE_MAX_WORK_ITEM_SIZES = 0x1005, DEVICE_MAX_MEM_ALLOC_SIZE = 0x1010,
      DEVICE_MEM_BASE_ADDR_ALIGN = 0x1019, DEVICE_SINGLE_FP_CONFIG = 0x101B, DEVICE_GLOBAL_MEM_SIZE = 0x101F,
      DEVICE_LOCAL_MEM_SIZE = 0x1023, DEVICE_AVAILABLE = 0x1027, DEVICE_NAME = 0x102B, DEVICE_VENDOR = 0x102C,
      DRIVER_VERSION = 0x102D, DEVICE_VERSION = 0x102F, DEVICE_EXTENSIONS = 0x1030, DEVICE_DOUBLE_FP_CONFIG = 0x1032,
      DEVICE_HOST_UNIFIED_MEMORY = 0x1035, DEVICE_OPENCL_C_VERSION = 0x103D, DEVICE_IL_VERSION = 0x105B;

  static final long FP_CORRECTLY_ROUNDED_DIVIDE_SQRT = 1 << 7;
  static final long QUEUE_PROFILING_ENABLE = 1 << 1;
  static final long MEM_READ_WRITE = 1, MEM_USE_HOST_PTR = 1 << 3;
  static final long MAP_READ = 1, MAP_WRITE = 1 << 1, MAP_WRITE_INVALIDATE_REGION = 1 << 2;

  static final int PROGRAM_BINARY_SIZES = 0x1165, PROGRAM_BINARIES = 0x1166;
  static final int PROGRAM_BUILD_STATUS = 0x1181, PROGRAM_BUILD_LOG = 0x1183;
  static final int KERNEL_WORK_GROUP_SIZE = 0x11B0;
  static final int PROFILING_COMMAND_START = 0x1282, PROFILING_COMMAND_END = 0x1283;

  static final int TRUE = 1, FALSE = 0;

  private static final Object LOCK = new Object();
  private static OpenCl loaded;
  private static String problem;
  private static boolean tried;

  /** The bindings loaded by {@link #problem(String)}; throws IllegalStateException saying why when there are none. */
  static OpenCl get() {
    synchronized (LOCK) {
      if (loaded == null) throw new IllegalStateException(tried ? problem : "the OpenCL library was not loaded (no device was listed)");
      return loaded;
    }
  }

  /** Loads {@code library} (the first call decides for the process) and says why it cannot be used, or null when it can. */
  static String problem(String library) {
    synchronized (LOCK) {
      if (!tried) load(library);
      return problem;
    }
  }

  private static void load(String library) {
    tried = true;
    Object o = open(library);
    if (o instanceof OpenCl cl) loaded = cl;
    else problem = (String) o;
  }

  /** Why {@code library} cannot serve as the OpenCL loader, or null when it can; loads nothing for good. */
  static String problemOf(String library) {
    return open(library) instanceof String p ? p : null;
  }

  /** The bindings over {@code name}, or a String saying why there are none. */
  @SuppressWarnings("restricted")   // loading a native library is the point of this class
  private static Object open(String name) {
    SymbolLookup lib;
    try {
      lib = SymbolLookup.libraryLookup(name, Arena.global());
    } catch (IllegalArgumentException e) {
      return name + " not found: install ocl-icd-libopencl1 and an ICD such as pocl-opencl-icd (or a GPU driver), "
          + "or point -Dloopjit.opencl.library at the OpenCL loader";
    }
    try {
      return new OpenCl(lib);
    } catch (RuntimeException e) {
      return name + " is not a usable OpenCL 1.2 library: " + e.getMessage();
    }
  }

  private final MethodHandle getPlatformIDs, getPlatformInfo, getDeviceIDs, getDeviceInfo, createContext,
      createCommandQueue, createProgramWithSource, createProgramWithBinary, buildProgram, getProgramBuildInfo,
      getProgramInfo, createKernel, setKernelArg, getKernelWorkGroupInfo, enqueueNDRangeKernel, createBuffer,
      enqueueWriteBuffer, enqueueWriteHeap, enqueueReadBuffer, enqueueReadHeap, enqueueMapBuffer,
      enqueueUnmapMemObject, finish, waitForEvents, getEventProfilingInfo, releaseContext, releaseCommandQueue,
      releaseProgram, releaseKernel, releaseMemObject, releaseEvent;
  /** clCreateProgramWithIL (OpenCL 2.1), or null where the loader predates it. */
  private final MethodHandle createProgramWithIL;

  private OpenCl(SymbolLookup lib) {
    getPlatformIDs = bind(lib, "clGetPlatformIDs", JAVA_INT, JAVA_INT, ADDRESS, ADDRESS);
    getPlatformInfo = bind(lib, "clGetPlatformInfo", JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS);
    getDeviceIDs = bind(lib, "clGetDeviceIDs", JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS);
    getDeviceInfo = bind(lib, "clGetDeviceInfo", JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS);
    createContext = bind(lib, "clCreateContext", ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS);
    createCommandQueue = bind(lib, "clCreateCommandQueue", ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS);
    createProgramWithSource = bind(lib, "clCreateProgramWithSource", ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
    createProgramWithBinary = bind(lib, "clCreateProgramWithBinary", ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS,
        ADDRESS, ADDRESS);
    buildProgram = bind(lib, "clBuildProgram", JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS);
    getProgramBuildInfo = bind(lib, "clGetProgramBuildInfo", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS);
    getProgramInfo = bind(lib, "clGetProgramInfo", JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS);
    createKernel = bind(lib, "clCreateKernel", ADDRESS, ADDRESS, ADDRESS, ADDRESS);
    setKernelArg = bind(lib, "clSetKernelArg", JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS);
    getKernelWorkGroupInfo = bind(lib, "clGetKernelWorkGroupInfo", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS,
        ADDRESS);
    enqueueNDRangeKernel = bind(lib, "clEnqueueNDRangeKernel", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS,
        JAVA_INT, ADDRESS, ADDRESS);
    createBuffer = bind(lib, "clCreateBuffer", ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS);
    MemoryLayout[] copy = {ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_INT, ADDRESS, ADDRESS};
    enqueueWriteBuffer = bind(lib, "clEnqueueWriteBuffer", JAVA_INT, copy);
    enqueueReadBuffer = bind(lib, "clEnqueueReadBuffer", JAVA_INT, copy);
    // Heap arrays go straight to the driver: critical(true) lets a heap segment through and keeps
    // the GC from moving it during the call, so these variants are only for blocking copies.
    enqueueWriteHeap = bind(lib, "clEnqueueWriteBuffer", JAVA_INT, copy, Linker.Option.critical(true));
    enqueueReadHeap = bind(lib, "clEnqueueReadBuffer", JAVA_INT, copy, Linker.Option.critical(true));
    enqueueMapBuffer = bind(lib, "clEnqueueMapBuffer", ADDRESS, ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG,
        JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
    enqueueUnmapMemObject = bind(lib, "clEnqueueUnmapMemObject", JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT, ADDRESS,
        ADDRESS);
    finish = bind(lib, "clFinish", JAVA_INT, ADDRESS);
    waitForEvents = bind(lib, "clWaitForEvents", JAVA_INT, JAVA_INT, ADDRESS);
    getEventProfilingInfo = bind(lib, "clGetEventProfilingInfo", JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS);
    releaseContext = bind(lib, "clReleaseContext", JAVA_INT, ADDRESS);
    releaseCommandQueue = bind(lib, "clReleaseCommandQueue", JAVA_INT, ADDRESS);
    releaseProgram = bind(lib, "clReleaseProgram", JAVA_INT, ADDRESS);
    releaseKernel = bind(lib, "clReleaseKernel", JAVA_INT, ADDRESS);
    releaseMemObject = bind(lib, "clReleaseMemObject", JAVA_INT, ADDRESS);
    releaseEvent = bind(lib, "clReleaseEvent", JAVA_INT, ADDRESS);
    createProgramWithIL = lib.find("clCreateProgramWithIL").isPresent()
        ? bind(lib, "clCreateProgramWithIL", ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS) : null;
  }

  private static MethodHandle bind(SymbolLookup lib, String name, MemoryLayout result, MemoryLayout... args) {
    return bind(lib, name, result, args, new Linker.Option[0]);
  }

  @SuppressWarnings("restricted")
  private static MethodHandle bind(SymbolLookup lib, String name, MemoryLayout result, MemoryLayout[] args,
      Linker.Option... options) {
    MemorySegment symbol = lib.find(name).orElseThrow(() -> new IllegalArgumentException("no symbol " + name));
    return Linker.nativeLinker().downcallHandle(symbol, FunctionDescriptor.of(result, args), options);
  }

  /** Throws an {@link OpenClException} naming {@code what} unless {@code code} is CL_SUCCESS. */
  static void check(int code, String what) {
    if (code != SUCCESS) throw new OpenClException(code, what);
  }

  private static RuntimeException fail(Throwable t) {
    if (t instanceof RuntimeException r) return r;
    if (t instanceof Error e) throw e;
    return new IllegalStateException(t);
  }

  int getPlatformIDs(int n, MemorySegment platforms, MemorySegment count) {
    try { return (int) getPlatformIDs.invokeExact(n, platforms, count); } catch (Throwable t) { throw fail(t); }
  }

  int getPlatformInfo(MemorySegment p, int param, long size, MemorySegment value, MemorySegment sizeRet) {
    try { return (int) getPlatformInfo.invokeExact(p, param, size, value, sizeRet); } catch (Throwable t) { throw fail(t); }
  }

  int getDeviceIDs(MemorySegment p, long type, int n, MemorySegment devices, MemorySegment count) {
    try { return (int) getDeviceIDs.invokeExact(p, type, n, devices, count); } catch (Throwable t) { throw fail(t); }
  }

  int getDeviceInfo(MemorySegment d, int param, long size, MemorySegment value, MemorySegment sizeRet) {
    try { return (int) getDeviceInfo.invokeExact(d, param, size, value, sizeRet); } catch (Throwable t) { throw fail(t); }
  }

  MemorySegment createContext(MemorySegment props, int n, MemorySegment devices, MemorySegment err) {
    try {
      return (MemorySegment) createContext.invokeExact(props, n, devices, MemorySegment.NULL, MemorySegment.NULL, err);
    } catch (Throwable t) { throw fail(t); }
  }

  MemorySegment createCommandQueue(MemorySegment ctx, MemorySegment device, long props, MemorySegment err) {
    try { return (MemorySegment) createCommandQueue.invokeExact(ctx, device, props, err); } catch (Throwable t) { throw fail(t); }
  }

  MemorySegment createProgramWithSource(MemorySegment ctx, int count, MemorySegment strings, MemorySegment lengths,
      MemorySegment err) {
    try {
      return (MemorySegment) createProgramWithSource.invokeExact(ctx, count, strings, lengths, err);
    } catch (Throwable t) { throw fail(t); }
  }

  MemorySegment createProgramWithBinary(MemorySegment ctx, int n, MemorySegment devices, MemorySegment lengths,
      MemorySegment binaries, MemorySegment status, MemorySegment err) {
    try {
      return (MemorySegment) createProgramWithBinary.invokeExact(ctx, n, devices, lengths, binaries, status, err);
    } catch (Throwable t) { throw fail(t); }
  }

  /** Whether the loader has clCreateProgramWithIL (OpenCL 2.1). */
  boolean hasCreateProgramWithIL() {
    return createProgramWithIL != null;
  }

  /** A program from an intermediate language (SPIR-V) module of {@code length} bytes. */
  MemorySegment createProgramWithIL(MemorySegment ctx, MemorySegment il, long length, MemorySegment err) {
    if (createProgramWithIL == null)
      throw new IllegalStateException("the OpenCL loader has no clCreateProgramWithIL (OpenCL 2.1)");
    try { return (MemorySegment) createProgramWithIL.invokeExact(ctx, il, length, err); } catch (Throwable t) { throw fail(t); }
  }

  int buildProgram(MemorySegment program, int n, MemorySegment devices, MemorySegment options) {
    try {
      return (int) buildProgram.invokeExact(program, n, devices, options, MemorySegment.NULL, MemorySegment.NULL);
    } catch (Throwable t) { throw fail(t); }
  }

  int getProgramBuildInfo(MemorySegment program, MemorySegment device, int param, long size, MemorySegment value,
      MemorySegment sizeRet) {
    try {
      return (int) getProgramBuildInfo.invokeExact(program, device, param, size, value, sizeRet);
    } catch (Throwable t) { throw fail(t); }
  }

  int getProgramInfo(MemorySegment program, int param, long size, MemorySegment value, MemorySegment sizeRet) {
    try { return (int) getProgramInfo.invokeExact(program, param, size, value, sizeRet); } catch (Throwable t) { throw fail(t); }
  }

  MemorySegment createKernel(MemorySegment program, MemorySegment name, MemorySegment err) {
    try { return (MemorySegment) createKernel.invokeExact(program, name, err); } catch (Throwable t) { throw fail(t); }
  }

  int setKernelArg(MemorySegment kernel, int index, long size, MemorySegment value) {
    try { return (int) setKernelArg.invokeExact(kernel, index, size, value); } catch (Throwable t) { throw fail(t); }
  }

  int getKernelWorkGroupInfo(MemorySegment kernel, MemorySegment device, int param, long size, MemorySegment value,
      MemorySegment sizeRet) {
    try {
      return (int) getKernelWorkGroupInfo.invokeExact(kernel, device, param, size, value, sizeRet);
    } catch (Throwable t) { throw fail(t); }
  }

  int enqueueNDRangeKernel(MemorySegment queue, MemorySegment kernel, int dims, MemorySegment global, MemorySegment local,
      MemorySegment event) {
    try {
      return (int) enqueueNDRangeKernel.invokeExact(queue, kernel, dims, MemorySegment.NULL, global, local, 0,
          MemorySegment.NULL, event);
    } catch (Throwable t) { throw fail(t); }
  }

  MemorySegment createBuffer(MemorySegment ctx, long flags, long size, MemorySegment host, MemorySegment err) {
    try { return (MemorySegment) createBuffer.invokeExact(ctx, flags, size, host, err); } catch (Throwable t) { throw fail(t); }
  }

  /** Host-to-device copy from native memory; {@code blocking} is TRUE or FALSE. */
  int enqueueWriteBuffer(MemorySegment queue, MemorySegment mem, int blocking, long size, MemorySegment from,
      MemorySegment event) {
    try {
      return (int) enqueueWriteBuffer.invokeExact(queue, mem, blocking, 0L, size, from, 0, MemorySegment.NULL, event);
    } catch (Throwable t) { throw fail(t); }
  }

  /** Blocking host-to-device copy straight from a heap array's segment (no staging copy). */
  int enqueueWriteHeap(MemorySegment queue, MemorySegment mem, long size, MemorySegment from, MemorySegment event) {
    try {
      return (int) enqueueWriteHeap.invokeExact(queue, mem, TRUE, 0L, size, from, 0, MemorySegment.NULL, event);
    } catch (Throwable t) { throw fail(t); }
  }

  /** Device-to-host copy into native memory; {@code blocking} is TRUE or FALSE. */
  int enqueueReadBuffer(MemorySegment queue, MemorySegment mem, int blocking, long size, MemorySegment to,
      MemorySegment event) {
    try {
      return (int) enqueueReadBuffer.invokeExact(queue, mem, blocking, 0L, size, to, 0, MemorySegment.NULL, event);
    } catch (Throwable t) { throw fail(t); }
  }

  /** Blocking device-to-host copy straight into a heap array's segment. */
  int enqueueReadHeap(MemorySegment queue, MemorySegment mem, long size, MemorySegment to, MemorySegment event) {
    try {
      return (int) enqueueReadHeap.invokeExact(queue, mem, TRUE, 0L, size, to, 0, MemorySegment.NULL, event);
    } catch (Throwable t) { throw fail(t); }
  }

  MemorySegment enqueueMapBuffer(MemorySegment queue, MemorySegment mem, int blocking, long flags, long size,
      MemorySegment event, MemorySegment err) {
    try {
      return (MemorySegment) enqueueMapBuffer.invokeExact(queue, mem, blocking, flags, 0L, size, 0, MemorySegment.NULL,
          event, err);
    } catch (Throwable t) { throw fail(t); }
  }

  int enqueueUnmapMemObject(MemorySegment queue, MemorySegment mem, MemorySegment mapped, MemorySegment event) {
    try {
      return (int) enqueueUnmapMemObject.invokeExact(queue, mem, mapped, 0, MemorySegment.NULL, event);
    } catch (Throwable t) { throw fail(t); }
  }

  int finish(MemorySegment queue) {
    try { return (int) finish.invokeExact(queue); } catch (Throwable t) { throw fail(t); }
  }

  int waitForEvents(int n, MemorySegment events) {
    try { return (int) waitForEvents.invokeExact(n, events); } catch (Throwable t) { throw fail(t); }
  }

  int getEventProfilingInfo(MemorySegment event, int param, long size, MemorySegment value, MemorySegment sizeRet) {
    try {
      return (int) getEventProfilingInfo.invokeExact(event, param, size, value, sizeRet);
    } catch (Throwable t) { throw fail(t); }
  }

  int releaseContext(MemorySegment h) {
    try { return (int) releaseContext.invokeExact(h); } catch (Throwable t) { throw fail(t); }
  }

  int releaseCommandQueue(MemorySegment h) {
    try { return (int) releaseCommandQueue.invokeExact(h); } catch (Throwable t) { throw fail(t); }
  }

  int releaseProgram(MemorySegment h) {
    try { return (int) releaseProgram.invokeExact(h); } catch (Throwable t) { throw fail(t); }
  }

  int releaseKernel(MemorySegment h) {
    try { return (int) releaseKernel.invokeExact(h); } catch (Throwable t) { throw fail(t); }
  }

  int releaseMemObject(MemorySegment h) {
    try { return (int) releaseMemObject.invokeExact(h); } catch (Throwable t) { throw fail(t); }
  }

  int releaseEvent(MemorySegment h) {
    try { return (int) releaseEvent.invokeExact(h); } catch (Throwable t) { throw fail(t); }
  }
}
