// A driver refused generated code: its error code and build log, before the runtime turns it into a KernelCompilationException.
package dev.loopjit.spi;

/** The driver could not build (or load) a program; {@code code} names the driver's error, {@code log} is its build log. */
public final class BuildFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final String code;
  private final String log;

  public BuildFailure(String code, String log) {
    super(code + "\n" + log);
    this.code = code;
    this.log = log;
  }

  /** The driver's error, e.g. {@code CL_BUILD_PROGRAM_FAILURE (-11)}. */
  public String code() {
    return code;
  }

  /** The driver's build log (may be empty). */
  public String log() {
    return log;
  }
}
