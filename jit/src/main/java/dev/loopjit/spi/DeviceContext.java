// A device's process-wide state that every plan on it shares: the programs built for it and its pool of free buffers.
package dev.loopjit.spi;

/**
 * What outlives a plan on one device: its {@link ProgramCache} (a second plan finds the programs
 * the first built) and its {@link BufferPool} (and the buffers it released), over the driver's
 * context handle; each {@link CompilingRuntime} has its own queue or stream over it.
 *
 * @param <P> the driver's program (module) handle
 * @param <B> the driver's buffer handle
 */
public abstract class DeviceContext<P, B> {
  private final java.lang.foreign.MemorySegment handle;
  private ProgramCache<P> programs;
  private BufferPool<B> pool;

  /** Over the driver's context {@code handle} (a {@code cl_context}, a {@code CUcontext}). */
  protected DeviceContext(java.lang.foreign.MemorySegment handle) {
    this.handle = handle;
  }

  /** The driver's context. */
  public final java.lang.foreign.MemorySegment handle() {
    return handle;
  }

  /** The device's program cache, made once. */
  protected abstract ProgramCache<P> newPrograms();

  /** The device's buffer pool, made once. */
  protected abstract BufferPool<B> newPool();

  /** Programs built for this device: in memory for the process, on disk across processes. */
  public final synchronized ProgramCache<P> programs() {
    if (programs == null) programs = newPrograms();
    return programs;
  }

  /** Device buffers released by earlier plans, ready for reuse. */
  public final synchronized BufferPool<B> pool() {
    if (pool == null) pool = newPool();
    return pool;
  }
}
