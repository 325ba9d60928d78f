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
    ArrayIndexOutOfBoundsException named = new ArrayIndexOutOfBoundsException(what + " of " + where);
    named.initCause(e);
    return named;
  }

  /** {@code e} with the task's name in front of its message, the original as its cause. */
  static ArrayIndexOutOfBoundsException inTask(ArrayIndexOutOfBoundsException e, String task) {
    ArrayIndexOutOfBoundsException named = new ArrayIndexOutOfBoundsException("task \"" + task + "\" on jvm-mt: " + e.getMessage());
    named.initCause(e);
    return named;
  }
}
