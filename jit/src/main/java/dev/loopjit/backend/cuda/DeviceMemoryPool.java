// Device allocations by byte size, reused across plans on one device: cuMemAlloc and cuMemFree synchronise and are slow.
package dev.loopjit.backend.cuda;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.loopjit.runtime.FreeList;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Free device allocations of one context, keyed by exact byte size. A released allocation goes
 * back here while the free bytes stay under a quarter of the device's memory; beyond that it is
 * given back to the driver. When the driver runs out of memory the pool frees what it holds and
 * tries once more before reporting it, with the array, its size, the device and its free memory.
 */
final class DeviceMemoryPool {
  private final Cuda cuda;
  private final CudaContext context;
  private final FreeList<Long> free;

  DeviceMemoryPool(Cuda cuda, CudaContext context) {
    this.cuda = cuda;
    this.context = context;
    this.free = new FreeList<>(context.device().memoryBytes() / 4);
  }

  /** An allocation of exactly {@code bytes} bytes, from the pool or new; {@code what} names the array for messages. */
  long take(long bytes, String what) {
    Long kept = free.take(bytes);
    return kept != null ? kept : allocate(bytes, what);
  }

  /** Returns an allocation {@link #take} gave out. */
  void give(long pointer, long bytes) {
    if (free.keep(pointer, bytes)) return;
    context.makeCurrent();
    cuda.check(cuda.memFree(pointer), "cuMemFree on " + context.device());
  }

  /** Gives every free allocation back to the driver. */
  void drain() {
    java.util.List<Long> all = free.drain();
    if (all.isEmpty()) return;
    context.makeCurrent();
    for (long p : all) cuda.check(cuda.memFree(p), "cuMemFree on " + context.device());
  }

  /** Free bytes held, for tests. */
  long freeBytes() {
    return free.freeBytes();
  }

  private long allocate(long bytes, String what) {
    CudaDevice d = context.device();
    if (bytes > d.memoryBytes()) throw new CudaException(2, tooBig(what, bytes, d), "");
    context.makeCurrent();
    try (Arena a = Arena.ofConfined()) {
      MemorySegment p = a.allocate(JAVA_LONG);
      int rc = cuda.memAlloc(p, bytes);
      if (rc == 2) {
        drain();
        rc = cuda.memAlloc(p, bytes);
      }
      if (rc == 2) throw new CudaException(rc, tooBig(what, bytes, d) + freeMemory(a), cuda.describe(rc));
      cuda.check(rc, "cuMemAlloc of " + bytes + " bytes for " + what + " on " + d);
      return p.get(JAVA_LONG, 0);
    }
  }

  private String freeMemory(Arena a) {
    MemorySegment f = a.allocate(JAVA_LONG), t = a.allocate(JAVA_LONG);
    return cuda.memGetInfo(f, t) == Cuda.SUCCESS ? " (" + (f.get(JAVA_LONG, 0) >> 20) + " MiB free now)" : "";
  }

  private static String tooBig(String what, long bytes, CudaDevice d) {
    return "cannot allocate " + bytes + " bytes for " + what + " on " + d + ": the device has " + (d.memoryBytes() >> 20)
        + " MiB of memory";
  }
}
