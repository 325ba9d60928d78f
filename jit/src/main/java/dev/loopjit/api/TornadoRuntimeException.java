// TornadoVM's TornadoRuntimeException: what a plan throws, as TornadoVM does, for a graph's bad input found before anything runs.
package dev.loopjit.api;

/**
 * TornadoVM's {@code TornadoRuntimeException}, unchecked. LoopJIT throws it where TornadoVM does
 * for input it refuses before anything runs: a value a graph cannot move (not an array) and a
 * {@code KernelContext} task the plan's {@link GridScheduler} gives no grid (a grid named for a task
 * the plan does not have). It is an {@link IllegalArgumentException}, as LoopJIT's other refusals of
 * bad input are; a kernel that cannot run is a {@link KernelCompilationException}.
 */
public class TornadoRuntimeException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public TornadoRuntimeException(String message) {
    super(message);
  }
}
