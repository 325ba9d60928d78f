// TornadoVM's TornadoInliningException, declared so that TornadoVM programs that catch or throw it compile after the import rename; LoopJIT never throws it.
package dev.loopjit.api;

/**
 * TornadoVM's {@code TornadoInliningException} (a method the JIT could not inline there), unchecked. LoopJIT never throws it: what it cannot
 * compile it refuses before running with a {@link KernelCompilationException}, and a kernel's own
 * failure is reported by name ({@link KernelIndexOutOfBoundsException}, {@link KernelArithmeticException}).
 */
public class TornadoInliningException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TornadoInliningException(String message) {
    super(message);
  }
}
