// TornadoVM's name for a kernel that cannot be compiled: LoopJIT's KernelCompilationException is one, so a TornadoVM catch catches it.
package dev.loopjit.api;

/**
 * A kernel that cannot be compiled for a device, under TornadoVM's name. Every
 * {@link KernelCompilationException} LoopJIT throws is one, so a program written against TornadoVM
 * that catches {@code TornadoCompilationException} catches LoopJIT's refusals (which say the class,
 * method, line and construct).
 */
public class TornadoCompilationException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TornadoCompilationException(String message) {
    super(message);
  }
}
