// Thrown before anything runs when a kernel method uses Java that cannot run on a device.
package dev.loopjit.api;

/**
 * A kernel method uses something the JIT cannot compile (an allocation, a virtual call, an
 * exception, recursion, …), or a device lacks a capability the kernel needs. Thrown before any
 * kernel of the plan is launched and before any host array is touched. The message names the
 * class, method, Java source line and construct, and, when the construct sits inside an inlined
 * call, the chain of calls from the kernel's own line down to it:
 *
 * <pre>
 * Kernels.bad (Kernels.java:42): 'new java.util.ArrayList' is not supported in a kernel
 *   called from Kernels.kernel (Kernels.java:17)
 * </pre>
 */
public class KernelCompilationException extends TornadoCompilationException {
  private static final long serialVersionUID = 1L;

  private final String className;
  private final String methodName;
  private final int line;
  private final String construct;

  /**
   * @param className  binary name of the class that holds the offending code
   * @param methodName the method that holds it
   * @param line       its Java source line, or -1 when the class has no line numbers
   * @param construct  what is not supported, in Java words
   * @param message    the whole message
   */
  public KernelCompilationException(String className, String methodName, int line, String construct, String message) {
    super(message);
    this.className = className;
    this.methodName = methodName;
    this.line = line;
    this.construct = construct;
  }

  /** Binary name of the class holding the unsupported code. */
  public String className() {
    return className;
  }

  /** Name of the method holding the unsupported code. */
  public String methodName() {
    return methodName;
  }

  /** Java source line of the unsupported code, or -1 if unknown. */
  public int line() {
    return line;
  }

  /** The unsupported construct, in Java words (e.g. {@code "new java.util.ArrayList"}). */
  public String construct() {
    return construct;
  }
}
