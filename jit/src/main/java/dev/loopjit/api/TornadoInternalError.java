// TornadoVM's TornadoInternalError, so that programs that throw or catch it compile after the import rename.
package dev.loopjit.api;

/**
 * TornadoVM's {@code TornadoInternalError}: an {@link Error} that TornadoVM's own code throws for a
 * state it cannot handle, and that programs throw through its helpers
 * ({@code throw TornadoInternalError.unimplemented("…")}). LoopJIT never throws it itself: what it
 * cannot run it refuses before running, with a {@link KernelCompilationException}.
 */
public class TornadoInternalError extends Error {
  private static final long serialVersionUID = 1L;

  public TornadoInternalError(String message) {
    super(message);
  }

  public TornadoInternalError(Throwable cause) {
    super(cause);
  }

  /** Throws an error saying {@code what} is not implemented (its return type lets a program write {@code throw unimplemented(…)}). */
  public static TornadoInternalError unimplemented(String what, Object... args) {
    throw new TornadoInternalError("unimplemented: " + String.format(what, args));
  }

  /** Throws an error saying this point should not be reached. */
  public static TornadoInternalError shouldNotReachHere(String what, Object... args) {
    throw new TornadoInternalError("should not reach here: " + String.format(what, args));
  }

  /** {@link #shouldNotReachHere(String, Object...)} without a message. */
  public static TornadoInternalError shouldNotReachHere() {
    throw new TornadoInternalError("should not reach here");
  }

  /** Throws an error with the message when {@code condition} is false. */
  public static void guarantee(boolean condition, String what, Object... args) {
    if (!condition) throw new TornadoInternalError("failed guarantee: " + String.format(what, args));
  }
}
