// Thrown after a launch in which a kernel's Math.addExact (or another *Exact) overflowed: Java's exception, with the task and the source line.
package dev.loopjit.api;

/**
 * A kernel's {@code Math.addExact}, {@code multiplyExact}, {@code toIntExact} (or another
 * {@code *Exact} method) overflowed, as Java's {@link ArithmeticException} says of plain Java code,
 * with Java's message ({@code "integer overflow"}). Compiled devices report it after the launch as
 * they report an index out of bounds (if several work-items fail, one of them); on the {@code jvm}
 * the JDK method itself throws. Nothing of the execution is copied back: host arrays are unchanged,
 * the plan's device copies are discarded, and the plan stays usable.
 */
public final class KernelArithmeticException extends ArithmeticException {
  private static final long serialVersionUID = 1L;
  private final String task;
  private final String reason;
  private final String source;
  private final String device;

  /**
   * @param task   {@code graph.task}
   * @param reason Java's message ({@code "integer overflow"})
   * @param source where in the Java source, {@code Kernels.sum (Kernels.java:12)}, or null when unknown
   * @param device the device id
   */
  public KernelArithmeticException(String task, String reason, String source, String device) {
    super(reason + " in task " + task + (source != null ? " at " + source : "") + " on " + device
        + "; nothing was copied back and the plan's device copies are discarded");
    this.task = task;
    this.reason = reason;
    this.source = source;
    this.device = device;
  }

  /** The task, {@code graph.task}. */
  public String task() {
    return task;
  }

  /** Java's message: {@code "integer overflow"}, {@code "long overflow"}, … */
  public String reason() {
    return reason;
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
