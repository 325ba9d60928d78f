// TornadoVM's TornadoDeviceFP16NotSupported, declared so that TornadoVM programs that catch or throw it compile after the import rename; LoopJIT never throws it.
package dev.loopjit.api;

/**
 * TornadoVM's {@code TornadoDeviceFP16NotSupported}, unchecked. LoopJIT never throws it: half-precision values (`HalfFloat`, `HalfFloatArray`) are stored as halves and computed in float on every device, as the JVM computes them.
 */
public class TornadoDeviceFP16NotSupported extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TornadoDeviceFP16NotSupported(String message) {
    super(message);
  }
}
