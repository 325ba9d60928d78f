// Runs a plan's graphs on one device and owns that device's buffers and kernels for the plan.
package dev.loopjit.runtime;

import dev.loopjit.api.Profile;
import java.util.List;

/** The device side of one {@code ExecutionPlan}: buffers by host-array identity, kernels, execution. */
public interface PlanExecutor extends AutoCloseable {
  /** Runs every graph once: prepares all tasks (compile, check), then copies, launches, copies back. */
  Profile execute(List<GraphSpec> graphs, RunOptions options);

  /** Copies these arrays back from the device now (UNDER_DEMAND). */
  Profile transferToHost(List<GraphSpec> graphs, List<Object> arrays, boolean profile);

  /** Frees device memory. */
  @Override
  void close();
}
