// How a plan made withProfiler(mode) reports each execution's profile: printed (CONSOLE) or only returned (SILENT), TornadoVM's names.
package dev.loopjit.api;

/** For {@link ExecutionPlan#withProfiler(ProfilerMode)}. */
public enum ProfilerMode {
  /** Prints each execution's {@link Profile} to standard output, as well as returning it. */
  CONSOLE,
  /** Only returns it ({@link ExecutionResult#profile()}), as {@link ExecutionPlan#withProfiler()}. */
  SILENT
}
