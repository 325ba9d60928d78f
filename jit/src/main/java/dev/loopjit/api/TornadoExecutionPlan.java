// TornadoVM's TornadoExecutionPlan: an ExecutionPlan under TornadoVM's name, its calls returning a TornadoExecutionPlan, with TornadoVM's extra calls.
package dev.loopjit.api;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * An {@link ExecutionPlan} under TornadoVM's name, so that a TornadoVM program compiles after the
 * import rename: {@code try (TornadoExecutionPlan plan = new TornadoExecutionPlan(graph.snapshot()))}.
 * Every {@code with…} call returns this plan as a {@code TornadoExecutionPlan} (a chain may be
 * assigned to one), and {@link #execute()} returns an {@link ExecutionResult}, which is a
 * {@link TornadoExecutionResult}. TornadoVM's calls that {@code ExecutionPlan} has not are here:
 * {@link #DEFAULT_DEVICE}, {@link #getTornadoDeviceMap()}, {@link #getPlanResult(int)},
 * {@link #withWarmUpIterations(int)}, {@link #withWarmUpTime(long)}, {@link #resetDevice()},
 * {@link #clearProfiles()}, {@link #withStagedTransfers()}, the plan counters and
 * {@link #getDevice(int)}. docs/guide/coming-from-tornadovm.md says what each does here.
 */
public class TornadoExecutionPlan extends ExecutionPlan {
  /**
   * The device a plan runs on when given none: {@link Devices#best()} when this class was loaded
   * (TornadoVM's static field); null when {@code loopjit.device} named no device then, so that the
   * class still loads and each plan reports the bad setting when it runs.
   */
  public static TornadoDevice DEFAULT_DEVICE = defaultDevice();

  private static TornadoDevice defaultDevice() {
    try {
      return Devices.best();
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** How many results {@link #getPlanResult(int)} keeps: the latest executions'. */
  static final int RESULTS_KEPT = 256;
  private final Deque<ExecutionResult> results = new ArrayDeque<>();
  private long executions;

  public TornadoExecutionPlan(ImmutableTaskGraph... graphs) {
    super(graphs);
  }

  /** The devices by backend, as TornadoVM's {@code TornadoExecutionPlan.getTornadoDeviceMap()}. */
  public static TornadoDeviceMap getTornadoDeviceMap() {
    return new TornadoDeviceMap();
  }

  /** How many plans this JVM has made (TornadoVM's {@code getTotalPlans()}). */
  public static int getTotalPlans() {
    return (int) plansMade();
  }

  /** {@link #getTotalPlans()}, as TornadoVM's instance call. */
  public long getGlobalExecutionPlansCounter() {
    return plansMade();
  }

  @Override
  public synchronized ExecutionResult execute() {
    ExecutionResult r = super.execute();
    if (results.size() == RESULTS_KEPT) results.removeFirst();
    results.addLast(r);
    executions++;
    return r;
  }

  /**
   * The result of this plan's execution number {@code index} (0 for the first). The latest 256
   * are kept (TornadoVM keeps every one; a plan run a million times would hold a million); an
   * index not yet run or no longer kept is refused with {@link TornadoRuntimeException}.
   */
  public synchronized TornadoExecutionResult getPlanResult(int index) {
    long first = executions - results.size();
    if (index < first || index >= executions)
      throw new TornadoRuntimeException("no execution result " + index + " in this plan: it ran " + executions + " time(s)"
          + (first > 0 ? " and keeps the results of executions " + first + " to " + (executions - 1) : ""));
    return results.stream().skip(index - first).findFirst().orElseThrow();
  }

  /** Runs the plan {@code iterations} times now (copies, kernels and all), as TornadoVM's warm-up does; a negative count is refused. */
  public synchronized TornadoExecutionPlan withWarmUpIterations(int iterations) {
    if (iterations < 0) throw new TornadoRuntimeException("warm-up iterations cannot be negative: " + iterations);
    for (int i = 0; i < iterations; i++) execute();
    return this;
  }

  /** Runs the plan now, again and again until {@code milliseconds} have passed (at least once), as TornadoVM's warm-up does. */
  public synchronized TornadoExecutionPlan withWarmUpTime(long milliseconds) throws InterruptedException {
    if (milliseconds < 0) throw new TornadoRuntimeException("warm-up time cannot be negative: " + milliseconds + " ms");
    long end = System.nanoTime() + milliseconds * 1_000_000L;
    do {
      if (Thread.interrupted()) throw new InterruptedException("warm-up interrupted");
      execute();
    } while (System.nanoTime() < end);
    return this;
  }

  /** {@link #freeDeviceMemory()}: the next execution allocates and copies in again; the compiled kernels stay (TornadoVM also drops its code cache). */
  public synchronized TornadoExecutionPlan resetDevice() {
    freeDeviceMemory();
    return this;
  }

  /** Forgets the results {@link #getPlanResult(int)} keeps; each execution's profile is its own, so there are no events to clean. */
  public synchronized TornadoExecutionPlan clearProfiles() {
    results.clear();
    executions = 0;
    return this;
  }

  /** Accepted: LoopJIT copies each array in one transfer (TornadoVM stages large ones through pinned buffers on CUDA). */
  public TornadoExecutionPlan withStagedTransfers() {
    return this;
  }

  /** Accepted, as {@link #withStagedTransfers()}. */
  public TornadoExecutionPlan withoutStagedTransfers() {
    return this;
  }

  /** The device graph {@code graphIndex} runs on (a graph index the plan has not is refused). */
  public synchronized TornadoDevice getDevice(int graphIndex) {
    if (graphIndex < 0 || graphIndex >= graphCount())
      throw new TornadoRuntimeException("no graph " + graphIndex + " in this plan; it has " + graphCount());
    return device();
  }

  /** {@link #getDeviceMemoryUsage()}, under TornadoVM's name. */
  public long getCurrentDeviceMemoryUsage() {
    return getDeviceMemoryUsage();
  }

  /** Prints {@link #getTraceExecutionPlan()} to standard output. */
  public void printTraceExecutionPlan() {
    System.out.println(getTraceExecutionPlan());
  }

  // ExecutionPlan's calls, returning this plan as a TornadoExecutionPlan (TornadoExecutionPlanTest checks that none is missing).
  @Override public TornadoExecutionPlan withDevice(Device device) { super.withDevice(device); return this; }
  @Override public TornadoExecutionPlan withDevice(String task, Device device) { super.withDevice(task, device); return this; }
  @Override public TornadoExecutionPlan withDevice(String task, TornadoDevice device) { super.withDevice(task, device); return this; }
  @Override public TornadoExecutionPlan withConcurrentDevices() { super.withConcurrentDevices(); return this; }
  @Override public TornadoExecutionPlan withoutConcurrentDevices() { super.withoutConcurrentDevices(); return this; }
  @Override public TornadoExecutionPlan withPrintSchedule() { super.withPrintSchedule(); return this; }
  @Override public TornadoExecutionPlan withBatch(String size) { super.withBatch(size); return this; }
  @Override public TornadoExecutionPlan withMemoryLimit(String size) { super.withMemoryLimit(size); return this; }
  @Override public TornadoExecutionPlan withoutMemoryLimit() { super.withoutMemoryLimit(); return this; }
  @Override public TornadoExecutionPlan withoutBatch() { super.withoutBatch(); return this; }
  @Override public TornadoExecutionPlan withReduceReset() { super.withReduceReset(); return this; }
  @Override public TornadoExecutionPlan withoutReduceReset() { super.withoutReduceReset(); return this; }
  @Override public TornadoExecutionPlan withCUDAGraph() { super.withCUDAGraph(); return this; }
  @Override public TornadoExecutionPlan withIntraPlanConcurrency() { super.withIntraPlanConcurrency(); return this; }
  @Override public TornadoExecutionPlan withoutIntraPlanConcurrency() { super.withoutIntraPlanConcurrency(); return this; }
  @Override public TornadoExecutionPlan withoutCUDAGraph() { super.withoutCUDAGraph(); return this; }
  @Override public TornadoExecutionPlan withoutPrintSchedule() { super.withoutPrintSchedule(); return this; }
  @Override public TornadoExecutionPlan withDevice(TornadoDevice device) { super.withDevice(device); return this; }
  @Override public TornadoExecutionPlan withDevice(String id) { super.withDevice(id); return this; }
  @Override public TornadoExecutionPlan withPreCompilation() { super.withPreCompilation(); return this; }
  @Override public TornadoExecutionPlan withCompilerFlags(String... flags) { super.withCompilerFlags(flags); return this; }
  @Override public TornadoExecutionPlan withCompilerFlags(TornadoVMBackendType backend, String flags) { super.withCompilerFlags(backend, flags); return this; }
  @Override public TornadoExecutionPlan withSetting(String key, String value) { super.withSetting(key, value); return this; }
  @Override public TornadoExecutionPlan withTimeout(java.time.Duration timeout) { super.withTimeout(timeout); return this; }
  @Override public TornadoExecutionPlan withPrintKernel() { super.withPrintKernel(); return this; }
  @Override public TornadoExecutionPlan withThreadInfo() { super.withThreadInfo(); return this; }
  @Override public TornadoExecutionPlan withoutThreadInfo() { super.withoutThreadInfo(); return this; }
  @Override public TornadoExecutionPlan withoutPrintKernel() { super.withoutPrintKernel(); return this; }
  @Override public TornadoExecutionPlan withGraph(int index) { super.withGraph(index); return this; }
  @Override public TornadoExecutionPlan withAllGraphs() { super.withAllGraphs(); return this; }
  @Override public TornadoExecutionPlan freeDeviceMemory() { super.freeDeviceMemory(); return this; }
  @Override public TornadoExecutionPlan withProfiler() { super.withProfiler(); return this; }
  @Override public TornadoExecutionPlan withProfiler(ProfilerMode mode) { super.withProfiler(mode); return this; }
  @Override public TornadoExecutionPlan withoutProfiler() { super.withoutProfiler(); return this; }
  @Override public TornadoExecutionPlan withGridScheduler(GridScheduler scheduler) { super.withGridScheduler(scheduler); return this; }
  @Override public TornadoExecutionPlan withDefaultScheduler() { super.withDefaultScheduler(); return this; }
  @Override public TornadoExecutionPlan withFallback(Device fallback) { super.withFallback(fallback); return this; }
  @Override public TornadoExecutionPlan transferToDevice(Object... arrays) { super.transferToDevice(arrays); return this; }
}
