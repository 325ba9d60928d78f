// TornadoVM's exception for a kernel that uses double on a device without fp64: LoopJIT throws it, a KernelCompilationException.
package dev.loopjit.api;

/**
 * Thrown before anything runs when a kernel uses {@code double} and the device has no double
 * precision (fp64), under TornadoVM's name; it is a {@link KernelCompilationException} naming the
 * line, so both TornadoVM's {@code catch} and LoopJIT's catch it.
 */
public final class TornadoDeviceFP64NotSupported extends KernelCompilationException {
  private static final long serialVersionUID = 1L;

  public TornadoDeviceFP64NotSupported(String className, String methodName, int line, String construct, String message) {
    super(className, methodName, line, construct, message);
  }
}
