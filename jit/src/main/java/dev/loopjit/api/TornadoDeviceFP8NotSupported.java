// TornadoVM's TornadoDeviceFP8NotSupported, declared so that TornadoVM programs that catch or throw it compile after the import rename; LoopJIT never throws it.
package dev.loopjit.api;

/**
 * TornadoVM's {@code TornadoDeviceFP8NotSupported}, unchecked. LoopJIT never throws it: it has no FP8 type.
 */
public class TornadoDeviceFP8NotSupported extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TornadoDeviceFP8NotSupported(String message) {
    super(message);
  }
}
