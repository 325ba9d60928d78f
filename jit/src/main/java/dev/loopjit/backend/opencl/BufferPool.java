// Device buffers by byte size, reused across plans on one device: the first write into a fresh large buffer is slow (DESIGN §6).
package dev.loopjit.backend.opencl;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import dev.loopjit.runtime.FreeList;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Free CL_MEM_READ_WRITE buffers of one context, keyed by exact byte size. A released buffer goes
 * back here while the free bytes stay under a quarter of the device's memory; beyond that it is
 * given back to the driver. When the driver runs out of memory the pool frees what it holds and
 * tries once more before reporting it.
 */
final class BufferPool {
  private final OpenCl cl;
  private final OpenClContext context;
  private final FreeList<MemorySegment> free;

  BufferPool(OpenCl cl, OpenClContext context) {
    this.cl = cl;
    this.context = context;
    this.free = new FreeList<>(context.device().memoryBytes() / 4);
  }

  /** A buffer of exactly {@code bytes} bytes, from the pool or new; {@code what} names the array for messages. */
  MemorySegment take(long bytes, String what) {
    MemorySegment kept = free.take(bytes);
    return kept != null ? kept : create(OpenCl.MEM_READ_WRITE, bytes, MemorySegment.NULL, what);
  }

  /** Returns a buffer {@link #take} gave out. */
  void give(MemorySegment mem, long bytes) {
    if (!free.keep(mem, bytes)) OpenCl.check(cl.releaseMemObject(mem), "clReleaseMemObject");
  }

  /** Gives every free buffer back to the driver. */
  void drain() {
    for (MemorySegment m : free.drain()) OpenCl.check(cl.releaseMemObject(m), "clReleaseMemObject");
  }

  /** Free bytes held, for tests. */
  long freeBytes() {
    return free.freeBytes();
  }

  /**
   * A new buffer with {@code flags}; {@code host} is the host memory for CL_MEM_USE_HOST_PTR or NULL.
   * Out-of-memory errors name the array, its size and the device.
   */
  MemorySegment create(long flags, long bytes, MemorySegment host, String what) {
    OpenClDevice d = context.device();
    if (bytes > d.maxAllocationBytes() && d.maxAllocationBytes() > 0)
      throw new OpenClException(-61, tooBig(what, bytes, d));
    int[] code = new int[1];
    MemorySegment mem = tryCreate(flags, bytes, host, code);
    if (mem == null && outOfMemory(code[0])) {
      drain();
      mem = tryCreate(flags, bytes, host, code);
    }
    if (mem == null)
      throw new OpenClException(code[0], outOfMemory(code[0]) ? tooBig(what, bytes, d)
          : "clCreateBuffer of " + bytes + " bytes for " + what + " on " + d);
    return mem;
  }

  private MemorySegment tryCreate(long flags, long bytes, MemorySegment host, int[] code) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment err = a.allocate(JAVA_INT);
      MemorySegment mem = cl.createBuffer(context.handle(), flags, bytes, host, err);
      code[0] = err.get(JAVA_INT, 0);
      return code[0] == OpenCl.SUCCESS ? mem : null;
    }
  }

  private static boolean outOfMemory(int code) {
    return code == -4 || code == -5 || code == -6 || code == -61;
  }

  private static String tooBig(String what, long bytes, OpenClDevice d) {
    return "cannot allocate " + bytes + " bytes for " + what + " on " + d + ": the device has "
        + (d.memoryBytes() >> 20) + " MiB of global memory and takes buffers of at most " + (d.maxAllocationBytes() >> 20) + " MiB";
  }
}
