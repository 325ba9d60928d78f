// TornadoVM's TornadoNoOpenCLPlatformException, declared so that TornadoVM programs that catch or throw it compile after the import rename; LoopJIT never throws it.
package dev.loopjit.api;

/**
 * TornadoVM's {@code TornadoNoOpenCLPlatformException}, unchecked. LoopJIT never throws it: a machine without OpenCL simply lists no `opencl:N` device, and `Devices.all()` says why in its problems.
 */
public class TornadoNoOpenCLPlatformException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TornadoNoOpenCLPlatformException(String message) {
    super(message);
  }
}
