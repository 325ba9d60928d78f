// Thrown after a launch in which a kernel asked a JDK method about a value the compiled code cannot answer (Character.isLetter above U+00FF).
package dev.loopjit.api;

/**
 * A kernel on a compiled device called a JDK method for a value it has no answer for, where Java
 * would have answered: today {@code Character.isLetter}, {@code isUpperCase}, {@code toUpperCase}
 * and the other {@code Character} methods that need Unicode's tables, given a code point above
 * U+00FF (ASCII and Latin-1 are answered exactly on every device, and {@code isDigit},
 * {@code isWhitespace}, {@code isSpaceChar}, {@code isTitleCase}, {@code isIdeographic} for every
 * code point). Devices report it after the launch as they report an index out of bounds; the
 * {@code jvm} device runs the JDK and answers. Nothing of the execution is copied back: host arrays
 * are unchanged, the plan's device copies are discarded, and the plan stays usable.
 */
public final class KernelUnsupportedValueException extends UnsupportedOperationException {
  private static final long serialVersionUID = 1L;
  private final String task;
  private final String method;
  private final int value;
  private final String source;
  private final String device;

  /**
   * @param task   {@code graph.task}
   * @param method the JDK method, {@code "Character.isLetter"}
   * @param value  the value it was given (a code point)
   * @param source where in the Java source, {@code Kernels.count (Kernels.java:12)}, or null when unknown
   * @param device the device id
   */
  public KernelUnsupportedValueException(String task, String method, int value, String source, String device) {
    super(method + "(" + describe(value) + ") in task " + task + (source != null ? " at " + source : "") + " on " + device
        + ": compiled kernels answer it for U+0000..U+00FF (ASCII and Latin-1) only; run the task on the jvm device for"
        + " every code point; nothing was copied back and the plan's device copies are discarded");
    this.task = task;
    this.method = method;
    this.value = value;
    this.source = source;
    this.device = device;
  }

  private static String describe(int value) {
    return value >= 0 && value <= Character.MAX_CODE_POINT ? String.format("U+%04X", value) : Integer.toString(value);
  }

  /** The task, {@code graph.task}. */
  public String task() {
    return task;
  }

  /** The JDK method, {@code "Character.isLetter"}. */
  public String method() {
    return method;
  }

  /** The value the method was given: the code point. */
  public int value() {
    return value;
  }

  /** Where in the Java source, with the calls it was inlined through; null when unknown. */
  public String source() {
    return source;
  }

  /** The device's id. */
  public String device() {
    return device;
  }
}
