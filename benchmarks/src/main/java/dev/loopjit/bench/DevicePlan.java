// The device side of a benchmark: an ExecutionPlan on the @Param device, checked against plain Java before and after it is timed.
package dev.loopjit.bench;

import dev.loopjit.api.Devices;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.ExecutionResult;
import dev.loopjit.api.GridScheduler;
import dev.loopjit.types.FloatArray;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Base of the device {@code @State}s. A warm plan ({@link #open}) has run once and matched the
 * plain Java result before JMH times anything; a cold one ({@link #openCold}) has not run, so its
 * first {@link #execute()} includes the JIT and the driver's compile, and is checked at
 * {@link #close()}. A benchmark can therefore never report the time of a wrong kernel. A subclass
 * opens the plan (in its {@code @Setup}, or at the first execution: {@link DeviceBenchmarks.Plan});
 * the {@code @TearDown} here closes it.
 */
@State(Scope.Benchmark)
public abstract class DevicePlan {
  /** JVM options of every fork: FFM downcalls into the OpenCL loader. */
  public static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

  /** JVM options of every fork: the Vector API, for jvm-mt's vector lanes and the hand-written baseline ({@link VectorBaselines}). */
  public static final String VECTOR = "--add-modules=jdk.incubator.vector";

  /** The device id: PoCL's CPU device and the JVM on every core, side by side. */
  @Param({"opencl:0", "jvm-mt"})
  public String device;

  private final java.util.Map<String, String> settings = new java.util.LinkedHashMap<>();
  private Workload work;
  private Transfers transfers;
  private ExecutionPlan plan;
  private ExecutionResult any;
  private boolean cold;

  /** A plan with {@code transfers}, run once and checked. */
  protected void open(Workload w, Transfers transfers, GridScheduler grids) {
    start(w, transfers, grids);
    any = plan.execute();
    transfers.readBack(any, w.output());
    check("after the first execution");
  }

  protected void open(Workload w, Transfers transfers) {
    open(w, transfers, w.grids());
  }

  /** A plan not yet run, copying everything every execution, with LoopJIT's on-disk kernel cache off. */
  protected void openCold(Workload w) {
    System.setProperty("loopjit.cacheDir", "off");
    cold = true;
    start(w, Transfers.EVERY_EXECUTION, null);
  }

  private void start(Workload w, Transfers t, GridScheduler grids) {
    requireSignalChaining(device);
    work = w;
    transfers = t;
    plan = new ExecutionPlan(w.graph(t).snapshot()).withDevice(Devices.get(device));
    if (grids != null) plan.withGridScheduler(grids);
    settings.forEach(plan::withSetting);
  }

  /** A setting of the plan this state opens next ({@code ExecutionPlan.withSetting}). */
  protected void setting(String key, String value) {
    settings.put(key, value);
  }

  /** One execution: what the benchmark times. */
  public ExecutionResult execute() {
    ExecutionResult r = plan.execute();
    if (cold) any = r;
    return r;
  }

  /** After the trial: checks the result again where the kernel can be repeated (always after a cold first call), then frees the plan. */
  @TearDown
  public void close() {
    try {
      if (plan != null && any != null && (cold || work.repeatable())) {
        transfers.readBack(any, work.output());
        check(cold ? "after the first call" : "after the timed executions");
      }
    } finally {
      if (plan != null) plan.close();
    }
  }

  private void check(String when) {
    FloatArray e = work.expected(), a = work.output();
    for (int i = 0; i < e.getSize(); i++) {
      // Strict Java float semantics make devices bit-exact; the slack only lets -Dloopjit.fastMath runs through.
      float x = e.get(i), y = a.get(i);
      if (!(Math.abs(x - y) <= 1e-5f * Math.max(1f, Math.abs(x))))
        throw new IllegalStateException(getClass().getName() + " on " + device + " computed a wrong result " + when
            + ": element " + i + " is " + y + ", plain Java gives " + x);
    }
  }

  /** PoCL's LLVM replaces the JVM's signal handlers unless libjsig chains them (docs/ARCHITECTURE.md §6); JMH forks inherit the environment. */
  private static void requireSignalChaining(String device) {
    if (!device.startsWith("opencl")) return;
    String preload = System.getenv("LD_PRELOAD");
    if (preload == null || !preload.contains("libjsig"))
      throw new IllegalStateException("OpenCL benchmarks need LD_PRELOAD=" + System.getProperty("java.home")
          + "/lib/libjsig.so in the environment of JMH (scripts/bench sets it)");
  }
}
