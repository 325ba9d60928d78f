// A CUDA driver that counts: the simulated driver behind it, each call's count and time kept by name, for tests of what a step asks of the driver.
package dev.loopjit.backend.cuda;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@link SimulatedCuda} with every call counted and timed ({@code java:dev.loopjit.backend.cuda.CountingCuda}):
 * {@link #snapshot()} before and after a piece of work tells which driver calls it made, how often,
 * and how long they took. The simulator's kernels run inside {@code cuLaunchKernel}, so the host's
 * own work is the wall time less the time spent in the driver (docs/PERFORMANCE.md, "The host's
 * time per step").
 */
public final class CountingCuda implements Cuda {
  private static final Map<String, long[]> CALLS = new TreeMap<>();
  private final Cuda inner = new SimulatedCuda();
  /**
   * {@code -Dloopjit.countingCuda.skipLaunches=true}: launches return at once without running (the
   * results are garbage), so that a long run measures the host's own time per execution.
   */
  private static final boolean SKIP = Boolean.getBoolean("loopjit.countingCuda.skipLaunches");

  /** Each driver function called so far in this process: {count, nanoseconds}, by name. */
  public static synchronized Map<String, long[]> snapshot() {
    Map<String, long[]> copy = new TreeMap<>();
    CALLS.forEach((k, v) -> copy.put(k, v.clone()));
    return copy;
  }

  /** The calls made between two snapshots, by name, {count, nanoseconds}; those not made are left out. */
  public static Map<String, long[]> since(Map<String, long[]> before) {
    Map<String, long[]> diff = new TreeMap<>();
    snapshot().forEach((k, v) -> {
      long[] b = before.getOrDefault(k, new long[2]);
      if (v[0] != b[0]) diff.put(k, new long[] {v[0] - b[0], v[1] - b[1]});
    });
    return diff;
  }

  /** Runs one driver call, counting it and its time under {@code name}. */
  private static int counted(String name, java.util.function.IntSupplier call) {
    long t0 = System.nanoTime();
    try {
      return call.getAsInt();
    } finally {
      count(name, System.nanoTime() - t0);
    }
  }

  private static synchronized void count(String name, long nanos) {
    long[] c = CALLS.computeIfAbsent(name, k -> new long[2]);
    c[0]++;
    c[1] += nanos;
  }

  @Override
  public int init(int flags) {
    return counted("init", () -> inner.init(flags));
  }

  @Override
  public int driverGetVersion(MemorySegment version) {
    return counted("driverGetVersion", () -> inner.driverGetVersion(version));
  }

  @Override
  public int deviceGetCount(MemorySegment count) {
    return counted("deviceGetCount", () -> inner.deviceGetCount(count));
  }

  @Override
  public int deviceGet(MemorySegment device, int ordinal) {
    return counted("deviceGet", () -> inner.deviceGet(device, ordinal));
  }

  @Override
  public int deviceGetName(MemorySegment name, int len, int device) {
    return counted("deviceGetName", () -> inner.deviceGetName(name, len, device));
  }

  @Override
  public int deviceGetAttribute(MemorySegment value, int attribute, int device) {
    return counted("deviceGetAttribute", () -> inner.deviceGetAttribute(value, attribute, device));
  }

  @Override
  public int deviceTotalMem(MemorySegment bytes, int device) {
    return counted("deviceTotalMem", () -> inner.deviceTotalMem(bytes, device));
  }

  @Override
  public int primaryCtxRetain(MemorySegment ctx, int device) {
    return counted("primaryCtxRetain", () -> inner.primaryCtxRetain(ctx, device));
  }

  @Override
  public int primaryCtxRelease(int device) {
    return counted("primaryCtxRelease", () -> inner.primaryCtxRelease(device));
  }

  @Override
  public int primaryCtxReset(int device) {
    return counted("primaryCtxReset", () -> inner.primaryCtxReset(device));
  }

  @Override
  public int ctxSetCurrent(MemorySegment ctx) {
    return counted("ctxSetCurrent", () -> inner.ctxSetCurrent(ctx));
  }

  @Override
  public int memGetInfo(MemorySegment free, MemorySegment total) {
    return counted("memGetInfo", () -> inner.memGetInfo(free, total));
  }

  @Override
  public int moduleLoadDataEx(MemorySegment module, MemorySegment image, int n, MemorySegment options, MemorySegment values) {
    return counted("moduleLoadDataEx", () -> inner.moduleLoadDataEx(module, image, n, options, values));
  }

  @Override
  public int moduleGetFunction(MemorySegment function, MemorySegment module, MemorySegment name) {
    return counted("moduleGetFunction", () -> inner.moduleGetFunction(function, module, name));
  }

  @Override
  public int moduleUnload(MemorySegment module) {
    return counted("moduleUnload", () -> inner.moduleUnload(module));
  }

  @Override
  public int funcGetAttribute(MemorySegment value, int attribute, MemorySegment function) {
    return counted("funcGetAttribute", () -> inner.funcGetAttribute(value, attribute, function));
  }

  @Override
  public int funcSetAttribute(MemorySegment function, int attribute, int value) {
    return counted("funcSetAttribute", () -> inner.funcSetAttribute(function, attribute, value));
  }

  @Override
  public int linkCreate(int n, MemorySegment options, MemorySegment values, MemorySegment state) {
    return counted("linkCreate", () -> inner.linkCreate(n, options, values, state));
  }

  @Override
  public int linkAddData(MemorySegment state, int type, MemorySegment data, long size, MemorySegment name) {
    return counted("linkAddData", () -> inner.linkAddData(state, type, data, size, name));
  }

  @Override
  public int linkComplete(MemorySegment state, MemorySegment cubin, MemorySegment size) {
    return counted("linkComplete", () -> inner.linkComplete(state, cubin, size));
  }

  @Override
  public int linkDestroy(MemorySegment state) {
    return counted("linkDestroy", () -> inner.linkDestroy(state));
  }

  @Override
  public int memAlloc(MemorySegment pointer, long bytes) {
    return counted("memAlloc", () -> inner.memAlloc(pointer, bytes));
  }

  @Override
  public int memFree(long pointer) {
    return counted("memFree", () -> inner.memFree(pointer));
  }

  @Override
  public int memcpyHtoDAsync(long dst, MemorySegment src, long bytes, MemorySegment stream) {
    return counted("memcpyHtoDAsync", () -> inner.memcpyHtoDAsync(dst, src, bytes, stream));
  }

  @Override
  public int memcpyDtoHAsync(MemorySegment dst, long src, long bytes, MemorySegment stream) {
    return counted("memcpyDtoHAsync", () -> inner.memcpyDtoHAsync(dst, src, bytes, stream));
  }

  @Override
  public int memcpyHtoD(long dst, MemorySegment src, long bytes) {
    return counted("memcpyHtoD", () -> inner.memcpyHtoD(dst, src, bytes));
  }

  @Override
  public int memcpyDtoH(MemorySegment dst, long src, long bytes) {
    return counted("memcpyDtoH", () -> inner.memcpyDtoH(dst, src, bytes));
  }

  @Override
  public int memHostRegister(MemorySegment p, long bytes, int flags) {
    return counted("memHostRegister", () -> inner.memHostRegister(p, bytes, flags));
  }

  @Override
  public int memHostUnregister(MemorySegment p) {
    return counted("memHostUnregister", () -> inner.memHostUnregister(p));
  }

  @Override
  public int streamCreate(MemorySegment stream, int flags) {
    return counted("streamCreate", () -> inner.streamCreate(stream, flags));
  }

  @Override
  public int streamSynchronize(MemorySegment stream) {
    return counted("streamSynchronize", () -> inner.streamSynchronize(stream));
  }

  @Override
  public int streamDestroy(MemorySegment stream) {
    return counted("streamDestroy", () -> inner.streamDestroy(stream));
  }

  @Override
  public int eventCreate(MemorySegment event, int flags) {
    return counted("eventCreate", () -> inner.eventCreate(event, flags));
  }

  @Override
  public int eventRecord(MemorySegment event, MemorySegment stream) {
    return counted("eventRecord", () -> inner.eventRecord(event, stream));
  }

  @Override
  public int eventSynchronize(MemorySegment event) {
    return counted("eventSynchronize", () -> inner.eventSynchronize(event));
  }

  @Override
  public int eventElapsedTime(MemorySegment milliseconds, MemorySegment start, MemorySegment end) {
    return counted("eventElapsedTime", () -> inner.eventElapsedTime(milliseconds, start, end));
  }

  @Override
  public int eventDestroy(MemorySegment event) {
    return counted("eventDestroy", () -> inner.eventDestroy(event));
  }

  @Override
  public int launchKernel(MemorySegment function, int gx, int gy, int gz, int bx, int by, int bz, int sharedBytes, MemorySegment stream, MemorySegment params) {
    return counted("launchKernel", () -> SKIP ? SUCCESS : inner.launchKernel(function, gx, gy, gz, bx, by, bz, sharedBytes, stream, params));
  }

  @Override
  public int getErrorName(int code, MemorySegment name) {
    return counted("getErrorName", () -> inner.getErrorName(code, name));
  }

  @Override
  public int getErrorString(int code, MemorySegment string) {
    return counted("getErrorString", () -> inner.getErrorString(code, string));
  }
}
