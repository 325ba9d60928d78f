// TornadoVM's TornadoTaskRuntimeException, declared so that TornadoVM programs that catch or throw it compile after the import rename; LoopJIT never throws it.
package dev.loopjit.api;

/**
 * TornadoVM's {@code TornadoTaskRuntimeException} (a task that failed while it ran there), unchecked. LoopJIT never throws it: what it cannot
 * compile it refuses before running with a {@link KernelCompilationException}, and a kernel's own
 * failure is reported by name ({@link KernelIndexOutOfBoundsException}, {@link KernelArithmeticException}).
 */
public class TornadoTaskRuntimeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TornadoTaskRuntimeException(String message) {
    super(message);
  }
}
