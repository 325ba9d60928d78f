// Thrown when an execution's kernels run longer than the plan's timeout: the plan's device state is abandoned.
package dev.loopjit.api;

import java.time.Duration;
import java.util.List;

/**
 * An execution of a plan made {@link ExecutionPlan#withTimeout(Duration) withTimeout} (or run with
 * the {@code loopjit.timeout} setting) did not finish in time. The plan stops waiting, abandons its
 * device state (queue or stream, buffers) and refuses further use; host arrays are unchanged (a
 * plan with a timeout never lets a device use host memory in place). What happens to the running
 * kernel depends on the device: docs/guide/task-graphs.md, "Timeouts".
 */
public final class KernelTimeoutException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final transient List<String> tasks;
  private final transient Duration timeout;
  private final String device;

  public KernelTimeoutException(List<String> tasks, Duration timeout, String device) {
    super((tasks.isEmpty() ? "the execution" : "task" + (tasks.size() > 1 ? "s " : " ") + String.join(", ", tasks)
        + (tasks.size() > 1 ? " (one of them still running)" : "")) + " did not finish within " + timeout.toMillis() + " ms on " + device
        + "; the plan's device state is abandoned and the plan cannot be used again");
    this.tasks = List.copyOf(tasks);
    this.timeout = timeout;
    this.device = device;
  }

  /** The tasks ({@code graph.task}) launched and not known to have finished. */
  public List<String> tasks() {
    return tasks;
  }

  /** The timeout that ran out. */
  public Duration timeout() {
    return timeout;
  }

  /** The device id. */
  public String device() {
    return device;
  }
}
