// TornadoVM's TornadoAPIException, declared so that TornadoVM programs that throw or catch it compile after the import rename; LoopJIT never throws it.
package dev.loopjit.api;

/**
 * TornadoVM's {@code TornadoAPIException} (a use of its API it does not support), unchecked. LoopJIT
 * never throws it: a program's own code may, as TornadoVM's examples do.
 */
public class TornadoAPIException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TornadoAPIException(String message) {
    super(message);
  }

  public TornadoAPIException(String message, Exception cause) {
    super(message, cause);
  }
}
