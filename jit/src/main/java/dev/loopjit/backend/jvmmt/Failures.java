// What a failing array access in a generated kernel throws: Java's ArrayIndexOutOfBoundsException, naming the array and the line.
package dev.loopjit.backend.jvmmt;

/** Called from the exception handlers {@link BytecodeEmitter} gives every array access. */
final class Failures {
  private Failures() {}

  /**
   * The exception to throw for {@code e}, raised by an access to the array and at the line
   * {@code where} describes: {@code "Index 7 out of bounds for length 4 of float array 'x'
   * (parameter 0) at Kernels.saxpy (Kernels.java:12)"}.
   */
  static ArrayIndexOutOfBoundsException outOfBounds(ArrayIndexOutOfBoundsException e, String where) {
    String what = e.getMessage() == null ? "index out of bounds" : e.getMessage();
    ArrayIndexOutOfBoundsException named = new Named(what + " of " + where, where);
    named.initCause(e);
    return named;
  }

  /** An access's exception that knows the array's description and the source line, for the runtime's {@code KernelIndexOutOfBoundsException}. */
  static final class Named extends ArrayIndexOutOfBoundsException {
    private static final long serialVersionUID = 1L;
    private final String where;

    Named(String message, String where) {
      super(message);
      this.where = where;
    }

    /** The array's Java name ({@code x} of {@code float array 'x' (parameter 0)}), or null. */
    String array() {
      int a = where.indexOf('\''), b = a < 0 ? -1 : where.indexOf('\'', a + 1);
      return b > a ? where.substring(a + 1, b) : null;
    }

    /** Where in the Java source: {@code Kernels.saxpy (Kernels.java:12)}, with the calls it was inlined from. */
    String source() {
      int at = where.indexOf(" at ");
      return at < 0 ? null : where.substring(at + 4);
    }
  }

  /** {@code e} with the task's name in front of its message, the original as its cause. */
  static ArrayIndexOutOfBoundsException inTask(ArrayIndexOutOfBoundsException e, String task) {
    ArrayIndexOutOfBoundsException named = new ArrayIndexOutOfBoundsException("task \"" + task + "\" on jvm-mt: " + e.getMessage());
    named.initCause(e);
    return named;
  }
}
