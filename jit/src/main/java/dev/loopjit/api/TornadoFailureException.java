// TornadoVM's TornadoFailureException, declared so that TornadoVM programs that catch or throw it compile after the import rename; LoopJIT never throws it.
package dev.loopjit.api;

/**
 * TornadoVM's {@code TornadoFailureException}, unchecked. LoopJIT never throws it: failures are its named exceptions (docs/guide/coming-from-tornadovm.md lists them).
 */
public class TornadoFailureException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TornadoFailureException(String message) {
    super(message);
  }

  public TornadoFailureException(Exception cause) {
    super(cause);
  }
}
