// Runs task graphs on a device: picks the device, keeps device buffers and compiled kernels between runs.
package dev.loopjit.api;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Executes one or more task graphs, in order, on one device. The plan keeps, per device, one
 * buffer for each host array and the compiled kernels, so later executions copy only what the
 * transfer modes ask and compile nothing. Close it to free device memory.
 *
 * <pre>{@code
 * try (ExecutionPlan plan = new ExecutionPlan(graph.snapshot())) {
 *   ExecutionResult r = plan.withDevice(Devices.best()).withProfiler().execute();
 *   System.out.println(r.profile());
 * }
 * }</pre>
 *
 * Nothing falls back silently: if a kernel cannot be compiled for the device the plan throws
 * {@link KernelCompilationException} before anything runs, unless it was made
 * {@link #withFallback(Device)}, in which case the result says where it ran and why.
 */
public final class ExecutionPlan implements AutoCloseable {
  private final List<Engine.Graph> graphs;
  private Device device;
  private Device fallback;
  private boolean profiler;
  private GridScheduler scheduler;
  private Engine.Executor executor;
  private Engine.Executor fallbackExecutor;
  private boolean closed;

  /** A plan over these graphs, run in the order given. */
  public ExecutionPlan(ImmutableTaskGraph... graphs) {
    if (graphs.length == 0) throw new IllegalArgumentException("an ExecutionPlan needs at least one task graph");
    this.graphs = Arrays.stream(graphs).map(g -> Objects.requireNonNull(g, "task graph").graph()).toList();
    for (int i = 0; i < this.graphs.size(); i++)
      for (int j = 0; j < i; j++)
        if (this.graphs.get(i).name().equals(this.graphs.get(j).name()))
          throw new IllegalArgumentException("two task graphs named \"" + this.graphs.get(i).name() + "\" in one plan");
  }

  /** Runs on {@code device} from the next execution on (default: {@link Devices#best()}). */
  public synchronized ExecutionPlan withDevice(Device device) {
    open();
    Objects.requireNonNull(device, "device");
    if (this.device != null && !this.device.id().equals(device.id())) closeExecutor();
    this.device = device;
    return this;
  }

  /** Runs on the device with this id ({@code "jvm"}, {@code "opencl:0"}, {@code "cuda:0"}). */
  public ExecutionPlan withDevice(String id) {
    return withDevice(Devices.get(id));
  }

  /** Measures kernel and copy times with device events; see {@link Profile}. */
  public synchronized ExecutionPlan withProfiler() {
    open();
    profiler = true;
    return this;
  }

  /** Launch grids for tasks, by {@code "graph.task"}; needed by {@link KernelContext} tasks. */
  public synchronized ExecutionPlan withGridScheduler(GridScheduler scheduler) {
    open();
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    return this;
  }

  /**
   * If a kernel cannot be compiled for the device, runs the whole plan on {@code fallback}
   * (usually {@link Devices#jvm()}) instead; {@link ExecutionResult#fellBack()} then says so.
   */
  public synchronized ExecutionPlan withFallback(Device fallback) {
    open();
    this.fallback = Objects.requireNonNull(fallback, "fallback");
    return this;
  }

  /** The device the plan runs on. */
  public synchronized Device device() {
    if (device == null) device = Devices.best();
    return device;
  }

  /** Runs every graph once. */
  public synchronized ExecutionResult execute() {
    open();
    Device d = device();
    Engine.ExecutionOptions options = new Engine.ExecutionOptions(profiler, scheduler == null ? new GridScheduler() : scheduler);
    if (executor == null) executor = Engine.get().open(d);
    try {
      Profile p = executor.execute(graphs, options);
      return new ExecutionResult(this, executor, d, p, null);
    } catch (KernelCompilationException e) {
      if (fallback == null || fallback.id().equals(d.id())) throw e;
      if (fallbackExecutor == null) fallbackExecutor = Engine.get().open(fallback);
      Profile p = fallbackExecutor.execute(graphs, options);
      return new ExecutionResult(this, fallbackExecutor, fallback, p, e.getMessage());
    }
  }

  synchronized Profile transferToHost(Engine.Executor from, Object[] arrays) {
    open();
    if (from != executor && from != fallbackExecutor)
      throw new IllegalStateException("this result's device buffers were released (the plan changed device)");
    return from.transferToHost(graphs, Arrays.asList(arrays), profiler);
  }

  private void open() {
    if (closed) throw new IllegalStateException("this ExecutionPlan was closed");
  }

  private void closeExecutor() {
    if (executor != null) executor.close();
    executor = null;
  }

  /** Frees device memory and kernels; the plan cannot be used afterwards. */
  @Override
  public synchronized void close() {
    if (closed) return;
    closed = true;
    closeExecutor();
    if (fallbackExecutor != null) fallbackExecutor.close();
    fallbackExecutor = null;
  }
}
