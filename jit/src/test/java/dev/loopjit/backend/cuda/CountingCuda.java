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

  private static synchronized void count(String name, long t0) {
    long[] c = CALLS.computeIfAbsent(name, k -> new long[2]);
    c[0]++;
    c[1] += System.nanoTime() - t0;
  }

  @Override
  public int init(int flags) {
    long t0 = System.nanoTime();
    try {
      return inner.init(flags);
    } finally {
      count("init", t0);
    }
  }

  @Override
  public int driverGetVersion(MemorySegment version) {
    long t0 = System.nanoTime();
    try {
      return inner.driverGetVersion(version);
    } finally {
      count("driverGetVersion", t0);
    }
  }

  @Override
  public int deviceGetCount(MemorySegment count) {
    long t0 = System.nanoTime();
    try {
      return inner.deviceGetCount(count);
    } finally {
      count("deviceGetCount", t0);
    }
  }

  @Override
  public int deviceGet(MemorySegment device, int ordinal) {
    long t0 = System.nanoTime();
    try {
      return inner.deviceGet(device, ordinal);
    } finally {
      count("deviceGet", t0);
    }
  }

  @Override
  public int deviceGetName(MemorySegment name, int len, int device) {
    long t0 = System.nanoTime();
    try {
      return inner.deviceGetName(name, len, device);
    } finally {
      count("deviceGetName", t0);
    }
  }

  @Override
  public int deviceGetAttribute(MemorySegment value, int attribute, int device) {
    long t0 = System.nanoTime();
    try {
      return inner.deviceGetAttribute(value, attribute, device);
    } finally {
      count("deviceGetAttribute", t0);
    }
  }

  @Override
  public int deviceTotalMem(MemorySegment bytes, int device) {
    long t0 = System.nanoTime();
    try {
      return inner.deviceTotalMem(bytes, device);
    } finally {
      count("deviceTotalMem", t0);
    }
  }

  @Override
  public int primaryCtxRetain(MemorySegment ctx, int device) {
    long t0 = System.nanoTime();
    try {
      return inner.primaryCtxRetain(ctx, device);
    } finally {
      count("primaryCtxRetain", t0);
    }
  }

  @Override
  public int primaryCtxRelease(int device) {
    long t0 = System.nanoTime();
    try {
      return inner.primaryCtxRelease(device);
    } finally {
      count("primaryCtxRelease", t0);
    }
  }

  @Override
  public int primaryCtxReset(int device) {
    long t0 = System.nanoTime();
    try {
      return inner.primaryCtxReset(device);
    } finally {
      count("primaryCtxReset", t0);
    }
  }

  @Override
  public int ctxSetCurrent(MemorySegment ctx) {
    long t0 = System.nanoTime();
    try {
      return inner.ctxSetCurrent(ctx);
    } finally {
      count("ctxSetCurrent", t0);
    }
  }

  @Override
  public int memGetInfo(MemorySegment free, MemorySegment total) {
    long t0 = System.nanoTime();
    try {
      return inner.memGetInfo(free, total);
    } finally {
      count("memGetInfo", t0);
    }
  }

  @Override
  public int moduleLoadDataEx(MemorySegment module, MemorySegment image, int n, MemorySegment options, MemorySegment values) {
    long t0 = System.nanoTime();
    try {
      return inner.moduleLoadDataEx(module, image, n, options, values);
    } finally {
      count("moduleLoadDataEx", t0);
    }
  }

  @Override
  public int moduleGetFunction(MemorySegment function, MemorySegment module, MemorySegment name) {
    long t0 = System.nanoTime();
    try {
      return inner.moduleGetFunction(function, module, name);
    } finally {
      count("moduleGetFunction", t0);
    }
  }

  @Override
  public int moduleUnload(MemorySegment module) {
    long t0 = System.nanoTime();
    try {
      return inner.moduleUnload(module);
    } finally {
      count("moduleUnload", t0);
    }
  }

  @Override
  public int funcGetAttribute(MemorySegment value, int attribute, MemorySegment function) {
    long t0 = System.nanoTime();
    try {
      return inner.funcGetAttribute(value, attribute, function);
    } finally {
      count("funcGetAttribute", t0);
    }
  }

  @Override
  public int funcSetAttribute(MemorySegment function, int attribute, int value) {
    long t0 = System.nanoTime();
    try {
      return inner.funcSetAttribute(function, attribute, value);
    } finally {
      count("funcSetAttribute", t0);
    }
  }

  @Override
  public int linkCreate(int n, MemorySegment options, MemorySegment values, MemorySegment state) {
    long t0 = System.nanoTime();
    try {
      return inner.linkCreate(n, options, values, state);
    } finally {
      count("linkCreate", t0);
    }
  }

  @Override
  public int linkAddData(MemorySegment state, int type, MemorySegment data, long size, MemorySegment name) {
    long t0 = System.nanoTime();
    try {
      return inner.linkAddData(state, type, data, size, name);
    } finally {
      count("linkAddData", t0);
    }
  }

  @Override
  public int linkComplete(MemorySegment state, MemorySegment cubin, MemorySegment size) {
    long t0 = System.nanoTime();
    try {
      return inner.linkComplete(state, cubin, size);
    } finally {
      count("linkComplete", t0);
    }
  }

  @Override
  public int linkDestroy(MemorySegment state) {
    long t0 = System.nanoTime();
    try {
      return inner.linkDestroy(state);
    } finally {
      count("linkDestroy", t0);
    }
  }

  @Override
  public int memAlloc(MemorySegment pointer, long bytes) {
    long t0 = System.nanoTime();
    try {
      return inner.memAlloc(pointer, bytes);
    } finally {
      count("memAlloc", t0);
    }
  }

  @Override
  public int memFree(long pointer) {
    long t0 = System.nanoTime();
    try {
      return inner.memFree(pointer);
    } finally {
      count("memFree", t0);
    }
  }

  @Override
  public int memcpyHtoDAsync(long dst, MemorySegment src, long bytes, MemorySegment stream) {
    long t0 = System.nanoTime();
    try {
      return inner.memcpyHtoDAsync(dst, src, bytes, stream);
    } finally {
      count("memcpyHtoDAsync", t0);
    }
  }

  @Override
  public int memcpyDtoHAsync(MemorySegment dst, long src, long bytes, MemorySegment stream) {
    long t0 = System.nanoTime();
    try {
      return inner.memcpyDtoHAsync(dst, src, bytes, stream);
    } finally {
      count("memcpyDtoHAsync", t0);
    }
  }

  @Override
  public int memcpyHtoD(long dst, MemorySegment src, long bytes) {
    long t0 = System.nanoTime();
    try {
      return inner.memcpyHtoD(dst, src, bytes);
    } finally {
      count("memcpyHtoD", t0);
    }
  }

  @Override
  public int memcpyDtoH(MemorySegment dst, long src, long bytes) {
    long t0 = System.nanoTime();
    try {
      return inner.memcpyDtoH(dst, src, bytes);
    } finally {
      count("memcpyDtoH", t0);
    }
  }

  @Override
  public int memHostRegister(MemorySegment p, long bytes, int flags) {
    long t0 = System.nanoTime();
    try {
      return inner.memHostRegister(p, bytes, flags);
    } finally {
      count("memHostRegister", t0);
    }
  }

  @Override
  public int memHostUnregister(MemorySegment p) {
    long t0 = System.nanoTime();
    try {
      return inner.memHostUnregister(p);
    } finally {
      count("memHostUnregister", t0);
    }
  }

  @Override
  public int streamCreate(MemorySegment stream, int flags) {
    long t0 = System.nanoTime();
    try {
      return inner.streamCreate(stream, flags);
    } finally {
      count("streamCreate", t0);
    }
  }

  @Override
  public int streamSynchronize(MemorySegment stream) {
    long t0 = System.nanoTime();
    try {
      return inner.streamSynchronize(stream);
    } finally {
      count("streamSynchronize", t0);
    }
  }

  @Override
  public int streamDestroy(MemorySegment stream) {
    long t0 = System.nanoTime();
    try {
      return inner.streamDestroy(stream);
    } finally {
      count("streamDestroy", t0);
    }
  }

  @Override
  public int eventCreate(MemorySegment event, int flags) {
    long t0 = System.nanoTime();
    try {
      return inner.eventCreate(event, flags);
    } finally {
      count("eventCreate", t0);
    }
  }

  @Override
  public int eventRecord(MemorySegment event, MemorySegment stream) {
    long t0 = System.nanoTime();
    try {
      return inner.eventRecord(event, stream);
    } finally {
      count("eventRecord", t0);
    }
  }

  @Override
  public int eventSynchronize(MemorySegment event) {
    long t0 = System.nanoTime();
    try {
      return inner.eventSynchronize(event);
    } finally {
      count("eventSynchronize", t0);
    }
  }

  @Override
  public int eventElapsedTime(MemorySegment milliseconds, MemorySegment start, MemorySegment end) {
    long t0 = System.nanoTime();
    try {
      return inner.eventElapsedTime(milliseconds, start, end);
    } finally {
      count("eventElapsedTime", t0);
    }
  }

  @Override
  public int eventDestroy(MemorySegment event) {
    long t0 = System.nanoTime();
    try {
      return inner.eventDestroy(event);
    } finally {
      count("eventDestroy", t0);
    }
  }

  @Override
  public int launchKernel(MemorySegment function, int gx, int gy, int gz, int bx, int by, int bz, int sharedBytes, MemorySegment stream, MemorySegment params) {
    long t0 = System.nanoTime();
    try {
      if (SKIP) return SUCCESS;
      return inner.launchKernel(function, gx, gy, gz, bx, by, bz, sharedBytes, stream, params);
    } finally {
      count("launchKernel", t0);
    }
  }

  @Override
  public int getErrorName(int code, MemorySegment name) {
    long t0 = System.nanoTime();
    try {
      return inner.getErrorName(code, name);
    } finally {
      count("getErrorName", t0);
    }
  }

  @Override
  public int getErrorString(int code, MemorySegment string) {
    long t0 = System.nanoTime();
    try {
      return inner.getErrorString(code, string);
    } finally {
      count("getErrorString", t0);
    }
  }
}
