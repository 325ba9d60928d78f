// TornadoVM's TornadoBailoutRuntimeException: what a plan throws when a graph cannot run in the batches it was asked to (withBatch).
package dev.loopjit.api;

/**
 * TornadoVM's {@code TornadoBailoutRuntimeException}, unchecked. LoopJIT throws it where TornadoVM
 * does for batches: a plan {@link ExecutionPlan#withBatch(String)} whose graph cannot be cut into
 * slices (a task that does not work element by element, arrays of different lengths), before
 * anything runs. It is an {@link IllegalArgumentException}, as LoopJIT's other refusals of bad
 * input are. Elsewhere LoopJIT refuses with its own types (a kernel that cannot run: a
 * {@link KernelCompilationException}).
 */
public class TornadoBailoutRuntimeException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public TornadoBailoutRuntimeException(String message) {
    super(message);
  }

  public TornadoBailoutRuntimeException(String message, Throwable cause) {
    super(message, cause);
  }
}
