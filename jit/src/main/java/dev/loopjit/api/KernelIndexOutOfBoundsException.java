// Thrown after a launch in which a kernel indexed an array out of bounds: Java's exception, with the task and the source line.
package dev.loopjit.api;

/**
 * A kernel's array index was out of bounds, as Java's {@link ArrayIndexOutOfBoundsException} says
 * of plain Java code. On compiled devices the generated code checks every index it cannot prove in
 * range ({@code loopjit.boundsChecks}, on by default) and the failing access is reported after the
 * launch (if several work-items fail, one of them); on the {@code jvm} the Java method itself
 * throws. Either way nothing of the execution is copied back: host arrays are unchanged (as far as
 * the failing graph goes), the plan's device copies are discarded, and the next execution starts
 * again from the host arrays.
 */
public final class KernelIndexOutOfBoundsException extends ArrayIndexOutOfBoundsException {
  private static final long serialVersionUID = 1L;
  private final String task;
  private final String array;
  private final int index;
  private final int length;
  private final String source;
  private final String device;

  /**
   * @param task   {@code graph.task}
   * @param array  the array's Java name (a parameter or a local array), or null when unknown
   * @param index  the index
   * @param length the array's length
   * @param source where in the Java source, {@code Kernels.saxpy (Kernels.java:12)}, or null when unknown
   * @param device the device id
   */
  public KernelIndexOutOfBoundsException(String task, String array, int index, int length, String source, String device) {
    super("Index " + index + " out of bounds for length " + length + (array != null ? " of array " + array : "") + " in task " + task
        + (source != null ? " at " + source : "") + " on " + device
        + "; nothing was copied back and the plan's device copies are discarded");
    this.task = task;
    this.array = array;
    this.index = index;
    this.length = length;
    this.source = source;
    this.device = device;
  }

  /** The task, {@code graph.task}. */
  public String task() {
    return task;
  }

  /** The array's Java name: the kernel's parameter (or a local array) indexed; null when unknown. */
  public String array() {
    return array;
  }

  /** The index. */
  public int index() {
    return index;
  }

  /** The array's length. */
  public int length() {
    return length;
  }

  /** Where in the Java source: {@code Kernels.saxpy (Kernels.java:12)}, with the calls it was inlined through. */
  public String source() {
    return source;
  }

  /** The device id. */
  public String device() {
    return device;
  }
}
