// TornadoVM's TornadoTaskRuntimeException: what LoopJIT throws, as TornadoVM does, for a task name a graph already has.
package dev.loopjit.api;

/**
 * TornadoVM's {@code TornadoTaskRuntimeException}, unchecked: thrown when a task is added under a
 * name its graph already has, before anything runs. It is an {@link IllegalArgumentException}, as
 * LoopJIT's other refusals of bad input are. What a kernel cannot do is refused before running with
 * a {@link KernelCompilationException}, and a kernel's own failure is reported by name
 * ({@link KernelIndexOutOfBoundsException}, {@link KernelArithmeticException}).
 */
public class TornadoTaskRuntimeException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public TornadoTaskRuntimeException(String message) {
    super(message);
  }
}
