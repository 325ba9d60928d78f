// What a failing array access or Math.*Exact in a generated kernel throws: Java's exception, naming the array and the line.
package dev.loopjit.backend.jvmmt;

/** Called from the exception handlers {@link BytecodeEmitter} gives every array access. */
final class Failures {
  private Failures() {}

  /**
   * The exception to throw for {@code e}, raised by an access to the array and at the line
   * {@code where} describes ({@code "float array 'x' (parameter 0) at Kernels.saxpy (Kernels.java:12)"},
   * giving {@code "Index 7 out of bounds for length 4 of float array 'x' …"}); {@code array} is the
   * array's Java name (empty when unknown) and {@code source} the line, for the runtime's report.
   */
  static ArrayIndexOutOfBoundsException outOfBounds(ArrayIndexOutOfBoundsException e, String where, String array, String source) {
    String what = e.getMessage() == null ? "index out of bounds" : e.getMessage();
    ArrayIndexOutOfBoundsException named = new Named(what + " of " + where, array.isEmpty() ? null : array, source);
    named.initCause(e);
    return named;
  }

  /** An access's exception that knows the array's Java name and the source line, for the runtime's {@code KernelIndexOutOfBoundsException}. */
  static final class Named extends ArrayIndexOutOfBoundsException {
    private static final long serialVersionUID = 1L;
    private final String array, source;

    Named(String message, String array, String source) {
      super(message);
      this.array = array;
      this.source = source;
    }

    /** The array's Java name ({@code x}), or null. */
    String array() {
      return array;
    }

    /** Where in the Java source: {@code Kernels.saxpy (Kernels.java:12)}, with the calls it was inlined from. */
    String source() {
      return source;
    }
  }

  /** What a kernel's {@code THROW} does (a {@code Math.*Exact} that overflowed): Java's ArithmeticException, with the kernel's line. */
  static void arithmetic(String message, String source) {
    throw new Thrown(message, source);
  }

  /** A {@code THROW}'s exception, which knows the source line for the runtime's {@code KernelArithmeticException}. */
  static final class Thrown extends ArithmeticException {
    private static final long serialVersionUID = 1L;
    private final String source;

    Thrown(String message, String source) {
      super(message);
      this.source = source;
    }

    /** Where in the Java source: {@code Kernels.sum (Kernels.java:12)}, with the calls it was inlined from. */
    String source() {
      return source;
    }
  }

  /** What a kernel's {@code THROW} of a value does (a {@code Character} call beyond Latin-1): an exception naming the call, the value and the line. */
  static void unsupported(String method, int value, String source) {
    throw new Unsupported(method, value, source);
  }

  /** A {@code THROW} of a value, for the runtime's {@code KernelUnsupportedValueException}. */
  static final class Unsupported extends UnsupportedOperationException {
    private static final long serialVersionUID = 1L;
    final String method, source;
    final int value;

    Unsupported(String method, int value, String source) {
      super(method + "(" + value + ")");
      this.method = method;
      this.value = value;
      this.source = source;
    }
  }

  /** {@code e} with the task's name in front of its message, the original as its cause. */
  static ArrayIndexOutOfBoundsException inTask(ArrayIndexOutOfBoundsException e, String task) {
    ArrayIndexOutOfBoundsException named = new ArrayIndexOutOfBoundsException("task \"" + task + "\" on jvm-mt: " + e.getMessage());
    named.initCause(e);
    return named;
  }
}
