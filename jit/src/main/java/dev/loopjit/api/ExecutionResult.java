// The outcome of one execute(): its profile, where it ran, and UNDER_DEMAND copies back.
package dev.loopjit.api;

/**
 * The outcome of {@link ExecutionPlan#execute()}.
 *
 * <pre>{@code
 * ExecutionResult r = plan.execute();
 * r.transferToHost(histogram);          // an UNDER_DEMAND array, copied back now
 * System.out.println(r.profile());
 * }</pre>
 */
public final class ExecutionResult implements TornadoExecutionResult {
  private final ExecutionPlan plan;
  private final Engine.Executor executor;
  private final Device device;
  private final Profile profile;
  private final String fallbackReason;

  ExecutionResult(ExecutionPlan plan, Engine.Executor executor, Device device, Profile profile, String fallbackReason) {
    this.plan = plan;
    this.executor = executor;
    this.device = device;
    this.profile = profile;
    this.fallbackReason = fallbackReason;
  }

  /** What the execution cost. */
  public Profile profile() {
    return profile;
  }

  /** {@link #profile()}, under TornadoVM's name: its {@code get…Time()} methods are TornadoVM's profiler's. */
  public Profile getProfilerResult() {
    return profile;
  }

  /** The device that ran it. */
  public Device device() {
    return device;
  }

  /** Whether the plan fell back to its fallback device because a kernel could not be compiled. */
  public boolean fellBack() {
    return fallbackReason != null;
  }

  /** Why it fell back (the compile error), or null. */
  public String fallbackReason() {
    return fallbackReason;
  }

  /**
   * Copies these arrays from the device to the host now. Meant for arrays the graph marks
   * {@link DataTransferMode#UNDER_DEMAND}; works for any array the plan holds on the device.
   * Returns this result.
   */
  public ExecutionResult transferToHost(Object... arrays) {
    plan.transferToHost(executor, arrays);
    return this;
  }

  /**
   * Copies only elements [{@code range.getOffset()}, {@code + range.getPartialSize()}) of the
   * range's array from the device to the host now, as TornadoVM's {@code transferToHost(DataRange)};
   * the host's other elements stay as they are. Returns this result.
   */
  public ExecutionResult transferToHost(DataRange range) {
    java.util.Objects.requireNonNull(range, "range").check();
    plan.transferToHost(executor, range);
    return this;
  }

  /** Whether the execution has finished: always, since {@code execute()} returns when it has (TornadoVM's {@code isReady()}). */
  public boolean isReady() {
    return true;
  }
}
