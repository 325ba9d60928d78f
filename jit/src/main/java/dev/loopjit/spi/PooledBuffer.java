// A device buffer of one host array: device memory from the device's pool, or the host memory itself.
package dev.loopjit.spi;

/**
 * A driver allocation ({@code H}: a cl_mem, a CUdeviceptr) holding one host array. A pooled buffer
 * goes back to its {@link BufferPool} on release; an in-place one (the host memory itself, e.g.
 * OpenCL's CL_MEM_USE_HOST_PTR) is freed by {@code free}. Before either, {@code drain} waits for the
 * commands that may still use it.
 */
public final class PooledBuffer<H> implements DeviceBuffer {
  private final HostArray host;
  private final H handle;
  private final long bytes;
  private final boolean inPlace;
  private final BufferPool<H> pool;
  private final java.util.function.Consumer<H> free;
  private final Runnable drain;
  private boolean released;

  /** A buffer from {@code pool} (at least one byte, so that an empty array is still a valid argument). */
  public static <H> PooledBuffer<H> pooled(HostArray host, H handle, long bytes, BufferPool<H> pool, Runnable drain) {
    return new PooledBuffer<>(host, handle, bytes, false, pool, null, drain);
  }

  /** A buffer over the host array's own memory, freed by {@code free}. */
  public static <H> PooledBuffer<H> inPlace(HostArray host, H handle, long bytes, java.util.function.Consumer<H> free, Runnable drain) {
    return new PooledBuffer<>(host, handle, bytes, true, null, free, drain);
  }

  private PooledBuffer(HostArray host, H handle, long bytes, boolean inPlace, BufferPool<H> pool, java.util.function.Consumer<H> free,
      Runnable drain) {
    this.host = host;
    this.handle = handle;
    this.bytes = bytes;
    this.inPlace = inPlace;
    this.pool = pool;
    this.free = free;
    this.drain = drain;
  }

  @Override
  public HostArray host() {
    return host;
  }

  @Override
  public boolean inPlace() {
    return inPlace;
  }

  /** The driver's handle; IllegalStateException after release. */
  public synchronized H handle() {
    if (released) throw new IllegalStateException("the device buffer of " + host.describe() + " was released");
    return handle;
  }

  /** Bytes of device memory. */
  public long bytes() {
    return bytes;
  }

  @Override
  public synchronized void release() {
    if (released) return;
    released = true;
    drain.run();
    if (inPlace) free.accept(handle);
    else pool.give(handle, bytes);
  }

  /** {@code args[param]} as a buffer of this kind, or IllegalStateException naming the task. */
  @SuppressWarnings("unchecked")
  public static <H> PooledBuffer<H> of(Object[] args, int param, String task) {
    if (args[param] instanceof PooledBuffer<?> b) return (PooledBuffer<H>) b;
    throw new IllegalStateException("task \"" + task + "\": argument " + param + " should be a device buffer, is "
        + (args[param] == null ? "null" : args[param].getClass().getName()));
  }
}
