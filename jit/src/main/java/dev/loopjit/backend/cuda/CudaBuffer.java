// A device buffer of one host array: pooled device memory (cuMemAlloc), never the host memory itself.
package dev.loopjit.backend.cuda;

import dev.loopjit.spi.BufferPool;
import dev.loopjit.spi.DeviceBuffer;
import dev.loopjit.spi.HostArray;

/**
 * A {@code CUdeviceptr} holding one host array, from and back to the device's
 * {@link BufferPool}. A discrete GPU never computes in host memory, so {@link #inPlace()}
 * is always false and every copy moves the bytes.
 */
final class CudaBuffer implements DeviceBuffer {
  private final HostArray host;
  private final long pointer;
  private final long bytes;
  private final BufferPool<Long> pool;
  private final Runnable drain;
  private boolean released;

  /** {@code drain} waits for the commands that may still use the buffer, before it goes back to the pool. */
  CudaBuffer(HostArray host, long pointer, long bytes, BufferPool<Long> pool, Runnable drain) {
    this.host = host;
    this.pointer = pointer;
    this.bytes = bytes;
    this.pool = pool;
    this.drain = drain;
  }

  @Override public HostArray host() { return host; }
  @Override public boolean inPlace() { return false; }

  /** The device address, passed to kernels as a 64-bit {@code CUdeviceptr}. */
  long pointer() {
    if (released) throw new IllegalStateException("the device buffer of " + host.describe() + " was released");
    return pointer;
  }

  /** Bytes of device memory (at least 1, even for an empty array, so that the kernel gets a valid pointer). */
  long bytes() { return bytes; }

  @Override
  public synchronized void release() {
    if (released) return;
    released = true;
    drain.run();
    pool.give(pointer, bytes);
  }
}
