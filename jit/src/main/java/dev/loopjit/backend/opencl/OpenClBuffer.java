// A device buffer of one host array: pooled device memory, or the host memory itself (CL_MEM_USE_HOST_PTR).
package dev.loopjit.backend.opencl;

import dev.loopjit.spi.BufferPool;
import dev.loopjit.spi.DeviceBuffer;
import dev.loopjit.spi.HostArray;
import java.lang.foreign.MemorySegment;

/**
 * A cl_mem holding one host array. {@code inPlace} buffers wrap the array's own off-heap memory and
 * are freed on release; the others come from and return to the device's {@link BufferPool}.
 */
final class OpenClBuffer implements DeviceBuffer {
  private final HostArray host;
  private final MemorySegment mem;
  private final long bytes;
  private final boolean inPlace;
  private final OpenCl cl;
  private final BufferPool<MemorySegment> pool;
  private final Runnable drain;
  private boolean released;

  /** {@code drain} waits for the commands that may still use the buffer, before it is reused or freed. */
  OpenClBuffer(HostArray host, MemorySegment mem, long bytes, boolean inPlace, OpenCl cl, BufferPool<MemorySegment> pool, Runnable drain) {
    this.host = host;
    this.mem = mem;
    this.bytes = bytes;
    this.inPlace = inPlace;
    this.cl = cl;
    this.pool = pool;
    this.drain = drain;
  }

  @Override public HostArray host() { return host; }
  @Override public boolean inPlace() { return inPlace; }

  MemorySegment mem() {
    if (released) throw new IllegalStateException("the device buffer of " + host.describe() + " was released");
    return mem;
  }

  /** Bytes of device memory (at least 1, even for an empty array, so the kernel gets a valid argument). */
  long bytes() { return bytes; }

  @Override
  public synchronized void release() {
    if (released) return;
    released = true;
    drain.run();
    if (inPlace) OpenCl.check(cl.releaseMemObject(mem), "clReleaseMemObject");
    else pool.give(mem, bytes);
  }
}
