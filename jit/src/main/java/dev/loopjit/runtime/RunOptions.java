// What an ExecutionPlan asks of one execution: profiling and launch grids.
package dev.loopjit.runtime;

import dev.loopjit.api.GridScheduler;

/** Options of one execution. */
public record RunOptions(boolean profile, GridScheduler scheduler) {}
