// Builds the KernelCompilationException for code a kernel may not contain, naming where and what.
package dev.loopjit.compiler;

import dev.loopjit.api.KernelCompilationException;
import dev.loopjit.api.TornadoDeviceFP64NotSupported;
import dev.loopjit.ir.Src;

/**
 * The one place compile errors are made. The message starts at the construct's own position and
 * lists the calls it was inlined through, up to the kernel's line. The exception's class, method
 * and line are those of the construct itself (inside a JDK method, the JDK's line); the message
 * has the whole chain.
 */
public final class Refusal {
  private Refusal() {}

  /** {@code construct} (Java words, e.g. "new java.util.ArrayList") is not supported at {@code at}. */
  public static KernelCompilationException unsupported(Src at, String construct) {
    return error(at, construct, "'" + construct + "' is not supported in a kernel");
  }

  /** A compile error at {@code at}: {@code construct} names the feature, {@code what} says what is wrong. */
  public static KernelCompilationException error(Src at, String construct, String what) {
    return new KernelCompilationException(at.className(), at.method(), at.line(), construct, message(at, what));
  }

  /**
   * {@code double} at {@code at} for a device without fp64: TornadoVM's exception for it (programs
   * catch it to skip double work on such devices), a KernelCompilationException like the rest.
   */
  static KernelCompilationException noFp64(Src at) {
    return new TornadoDeviceFP64NotSupported(at.className(), at.method(), at.line(), "double",
        message(at, "'double' is used, but this device has no double precision (fp64)"));
  }

  private static String message(Src at, String what) {
    StringBuilder msg = new StringBuilder(at.describe()).append(": ").append(what);
    for (Src c = at.caller(); c != null; c = c.caller()) msg.append("\n  called from ").append(c.describe());
    return msg.toString();
  }
}
