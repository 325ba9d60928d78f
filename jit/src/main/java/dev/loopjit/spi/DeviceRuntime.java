// The low-level contract of a device backend: compile, allocate, copy, launch, time — driven by the runtime's graph runner.
package dev.loopjit.spi;

import dev.loopjit.api.Device;

/**
 * One device for one plan, as the runtime's task-graph runner drives it. Copies and launches may be
 * asynchronous; their {@link Timing}s are read after {@link #finish()}.
 */
public interface DeviceRuntime extends AutoCloseable {
  Device device();

  /**
   * The kernel of {@code task} for this device, from a cache or compiled now. Throws
   * {@code KernelCompilationException} when the method cannot run on this device.
   */
  Prepared prepare(TaskSpec task);

  /**
   * The kernel of {@code task} for its arguments, as {@link #prepare}, after building every other
   * variant the task's kernel has on this device ({@link Variants}), so that no later size builds
   * anything ({@code ExecutionPlan.withPreCompilation()}). A device with one variant per kernel
   * (the default) prepares the one.
   */
  default Prepared prepareAll(TaskSpec task) {
    return prepare(task);
  }

  /**
   * A kernel and what preparing it cost: {@code built} programs built from source (neither cache had
   * them; {@code compiled} when any was), the compiler's and the driver's time.
   */
  record Prepared(DeviceKernel kernel, boolean compiled, long compileNanos, long driverCompileNanos, int built) {
    /** A kernel for which at most one program was built. */
    public Prepared(DeviceKernel kernel, boolean compiled, long compileNanos, long driverCompileNanos) {
      this(kernel, compiled, compileNanos, driverCompileNanos, compiled ? 1 : 0);
    }
  }

  /**
   * A device buffer for {@code host}. With {@code inPlace} the device may use the host memory
   * itself (zero-copy); the runner allows it only when that cannot change what the host sees.
   */
  DeviceBuffer allocate(HostArray host, boolean inPlace);

  /** Copies the buffer's host array to the device. */
  Timing copyIn(DeviceBuffer buffer);

  /** Copies the device buffer back into its host array: there once {@link #finish()} returns (a runtime may copy asynchronously). */
  Timing copyOut(DeviceBuffer buffer);

  /**
   * Launches {@code kernel}. {@code args} are the task's arguments with each array replaced by its
   * {@link DeviceBuffer}; {@code grid} is the launch shape.
   */
  Timing launch(DeviceKernel kernel, Object[] args, Grid grid);

  /** Waits for everything enqueued. */
  void finish();

  /**
   * Whether the operations from now on are timed: the runner says so before each execution (true
   * when the profiler is on). A runtime may then skip what timing costs (CUDA's events) and return
   * {@link Timing#NONE}; the default times everything.
   */
  default void measure(boolean on) {}

  @Override
  void close();
}
