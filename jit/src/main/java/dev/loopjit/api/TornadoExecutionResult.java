// TornadoVM's TornadoExecutionResult: what execute() returns, under TornadoVM's name; every ExecutionResult is one.
package dev.loopjit.api;

/**
 * The outcome of an execution as a TornadoVM program declares it
 * ({@code TornadoExecutionResult r = plan.execute();}): {@link ExecutionResult} implements it.
 */
public interface TornadoExecutionResult {
  /** The execution's profile, with TornadoVM's getters. */
  TornadoProfilerResult getProfilerResult();

  /** Copies these arrays from the device to the host now; returns this result. */
  TornadoExecutionResult transferToHost(Object... arrays);

  /** Copies the range's elements from the device to the host now; returns this result. */
  TornadoExecutionResult transferToHost(DataRange range);

  /** Whether the execution has finished: always. */
  boolean isReady();
}
