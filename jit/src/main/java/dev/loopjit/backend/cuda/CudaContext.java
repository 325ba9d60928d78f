// One device's process-wide CUDA state: its primary context, the modules loaded in it and its pool of free device memory.
package dev.loopjit.backend.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.loopjit.spi.BufferPool;
import dev.loopjit.spi.DeviceContext;
import dev.loopjit.spi.ProgramCache;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * Shared by every plan (every {@link CudaRuntime}) on one device, so that a second plan finds the
 * modules and the memory the first one left: modules and allocations belong to a context. This is
 * the device's primary context (the one the CUDA runtime API and other libraries use too), retained
 * once and kept until a fault makes it unusable ({@link #markLost}: every later call in it fails
 * with the fault's error); then {@link CudaDevice#context()} resets it and asks for a fresh one,
 * which NVIDIA's driver refuses until the process exits. Each runtime has its own stream. A CUDA
 * context is current per thread, so every call that needs it first makes it current on the calling
 * thread.
 */
final class CudaContext extends DeviceContext<MemorySegment, Long> {
  private final Cuda cuda;
  private final CudaDevice device;
  private volatile String lostBecause;

  private CudaContext(Cuda cuda, CudaDevice device, MemorySegment handle) {
    super(handle);
    this.cuda = cuda;
    this.device = device;
  }

  /** Modules: cubins on disk as {@code cuda/KEY.cubin}, keyed by the PTX, the device's name and compute capability and the driver's CUDA version. */
  @Override
  protected ProgramCache<MemorySegment> newPrograms() {
    return new ProgramCache<>(new CudaModules(cuda, this), "cuda", language -> ".ptx", ".cubin",
        List.of(CudaModules.FORMAT, device.name(), device.targetVariant(), Integer.toString(device.driverApiVersion())));
  }

  @Override
  protected BufferPool<Long> newPool() {
    return new BufferPool<>(new Memory(), device.toString(), device.memoryBytes(), 0);
  }

  static CudaContext create(Cuda cuda, CudaDevice device) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment ctx = a.allocate(ADDRESS);
      cuda.check(cuda.primaryCtxRetain(ctx, device.handle()), "cuDevicePrimaryCtxRetain on " + device);
      MemorySegment handle = ctx.get(ADDRESS, 0);
      int rc = cuda.ctxSetCurrent(handle);
      if (rc != Cuda.SUCCESS) {
        cuda.primaryCtxRelease(device.handle());
        cuda.check(rc, "cuCtxSetCurrent on " + device);
      }
      return new CudaContext(cuda, device, handle);
    }
  }

  /** A kernel faulted (a sticky CUresult), as {@code message} says: nothing in this context works any more. The first fault is kept. */
  void markLost(String message) {
    if (lostBecause == null) lostBecause = message;
  }

  /** Whether a fault has made this context unusable. */
  boolean lost() {
    return lostBecause != null;
  }

  /** The message of the fault that made this context unusable, or null. */
  String lostBecause() {
    return lostBecause;
  }

  /** {@code rc} of {@code what} checked; a fault (a sticky CUresult) also marks this context lost. */
  void check(int rc, String what) {
    if (CudaException.sticky(rc)) {
      CudaException e = new CudaException(rc, what + " (" + CudaException.faultAdvice(device.id()) + ")", cuda.describe(rc));
      markLost(e.getMessage());
      throw e;
    }
    cuda.check(rc, what);
  }

  /** Makes this context current on the calling thread (cheap; the driver keeps one per thread). */
  void makeCurrent() {
    int rc = cuda.ctxSetCurrent(handle());
    if (rc != Cuda.SUCCESS) check(rc, "cuCtxSetCurrent on " + device);   // the message made only on failure: called at every launch
  }

  /** A new stream that orders itself after work on the legacy default stream (where synchronous copies go); the caller destroys it. */
  MemorySegment createStream() {
    makeCurrent();
    try (Arena a = Arena.ofConfined()) {
      MemorySegment s = a.allocate(ADDRESS);
      check(cuda.streamCreate(s, Cuda.STREAM_DEFAULT), "cuStreamCreate on " + device);
      return s.get(ADDRESS, 0);
    }
  }

  CudaDevice device() {
    return device;
  }


  /** cuMemAlloc and cuMemFree for the pool. */
  private final class Memory implements BufferPool.Driver<Long> {
    @Override
    public Long allocate(long bytes) {
      makeCurrent();
      try (Arena a = Arena.ofConfined()) {
        MemorySegment p = a.allocate(JAVA_LONG);
        int rc = cuda.memAlloc(p, bytes);
        if (rc == 2) return null;   // CUDA_ERROR_OUT_OF_MEMORY
        check(rc, "cuMemAlloc of " + bytes + " bytes on " + device);
        return p.get(JAVA_LONG, 0);
      }
    }

    @Override
    public void free(Long pointer) {
      makeCurrent();
      check(cuda.memFree(pointer), "cuMemFree on " + device);
    }

    @Override
    public RuntimeException outOfMemory(String message) {
      return new CudaException(2, message, cuda.describe(2));
    }

    @Override
    public String freeMemory() {
      try (Arena a = Arena.ofConfined()) {
        MemorySegment f = a.allocate(JAVA_LONG), t = a.allocate(JAVA_LONG);
        return cuda.memGetInfo(f, t) == Cuda.SUCCESS ? " (" + (f.get(JAVA_LONG, 0) >> 20) + " MiB free now)" : "";
      }
    }
  }
}
