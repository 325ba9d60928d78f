// TornadoVM's TornadoDeviceMMANotSupported, declared so that TornadoVM programs that catch or throw it compile after the import rename; LoopJIT never throws it.
package dev.loopjit.api;

/**
 * TornadoVM's {@code TornadoDeviceMMANotSupported}, unchecked. LoopJIT never throws it: it has no matrix-multiply-accumulate (tensor core) API.
 */
public class TornadoDeviceMMANotSupported extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TornadoDeviceMMANotSupported(String message) {
    super(message);
  }
}
