// Out-of-bounds and overflow reports as exceptions: a compiled kernel's report word, or the jvm's own exception, named from the site table.
package dev.loopjit.spi;

import dev.loopjit.api.KernelArithmeticException;
import dev.loopjit.api.KernelIndexOutOfBoundsException;
import dev.loopjit.api.KernelUnsupportedValueException;
import dev.loopjit.compiler.CharacterCalls;
import dev.loopjit.ir.BoundsSite;
import dev.loopjit.ir.KernelIR;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns what a device says of an out-of-bounds access into a {@link KernelIndexOutOfBoundsException}
 * that names the array, the index, the length and the Java line. A compiled kernel writes
 * {@code (long) site << 32 | index} into its report buffer ({@code bounds} pass); the jvm throws
 * Java's own exception, whose array is found in the site table of the kernel as compiled for a
 * generic target (the access on the same line, of an array of that length).
 */
public final class BoundsReports {
  private BoundsReports() {}

  /** The exception for report word {@code word} (not 0) of {@code kernel}, launched for {@code task}. */
  public static RuntimeException of(TaskSpec task, DeviceKernel kernel, long word, String device) {
    int site = (int) (word >>> 32), index = (int) word;
    List<BoundsSite> sites = kernel.boundsSites();
    if (site < 1 || site > sites.size())
      return new KernelIndexOutOfBoundsException(task.qualifiedName(), null, index, -1, null, device);
    BoundsSite s = sites.get(site - 1);
    if (s.thrown() != null && CharacterCalls.isMessage(s.thrown()))   // the report's index is the code point
      return new KernelUnsupportedValueException(task.qualifiedName(), s.thrown(), index, s.where(), device);
    if (s.thrown() != null) return new KernelArithmeticException(task.qualifiedName(), s.thrown(), s.where(), device);
    return new KernelIndexOutOfBoundsException(task.qualifiedName(), s.array(), index, length(task, kernel.workIr(), s), s.where(), device);
  }

  private static int length(TaskSpec task, KernelIR k, BoundsSite s) {
    if (s.size() != null && k != null) {   // a private array sized at launch: n for the task's arguments
      try {
        return ((Number) LaunchValues.eval(k, s.size(), task.args().toArray(), null, task.qualifiedName())).intValue();
      } catch (RuntimeException unknown) {
        return -1;
      }
    }
    if (s.param() < 0 || s.param() >= task.args().size()) return s.length();
    HostArray h = HostArray.of(task.args().get(s.param()));
    return h == null ? -1 : h.length();
  }

  private static final Pattern MESSAGE = Pattern.compile("Index (-?\\d+) out of bounds for length (\\d+)");

  /**
   * The exception for Java's own {@code e}, thrown by {@code task}'s method on the jvm; {@code e}
   * itself when it is not an array index the kernel got wrong (another bound, a message unlike Java's).
   */
  public static RuntimeException ofJava(TaskSpec task, KernelIR checked, IndexOutOfBoundsException e, String device) {
    Matcher m = MESSAGE.matcher(String.valueOf(e.getMessage()));
    if (task.method() == null || !m.find()) return e;
    int index = Integer.parseInt(m.group(1)), length = Integer.parseInt(m.group(2));
    StackTraceElement at = null;
    for (StackTraceElement f : e.getStackTrace()) {
      String c = f.getClassName();
      if (c.startsWith("java.") || c.startsWith("jdk.") || c.startsWith("dev.loopjit.types.")) continue;
      at = f;
      break;
    }
    if (at == null || at.getClassName().startsWith("dev.loopjit.backend.") || at.getClassName().startsWith("dev.loopjit.runtime.")) return e;
    String array = null, where = at.getFileName() != null ? simple(at.getClassName()) + "." + at.getMethodName() + " (" + at.getFileName()
        + (at.getLineNumber() >= 0 ? ":" + at.getLineNumber() : "") + ")" : null;
    if (checked != null) {
      for (BoundsSite s : checked.boundsSites()) {
        if (s.src().line() != at.getLineNumber() || !s.src().className().equals(at.getClassName())) continue;
        if (length(task, checked, s) != length) continue;
        if (array != null && !array.equals(s.array())) {   // two arrays of this length on this line: say neither
          array = null;
          break;
        }
        array = s.array();
        where = s.where();
      }
    }   // null: a method the compiler refuses still ran on the jvm, and the exception names no array
    KernelIndexOutOfBoundsException k = new KernelIndexOutOfBoundsException(task.qualifiedName(), array, index, length, where, device);
    k.initCause(e);
    return k;
  }

  /**
   * The exception for Java's own {@code e}, thrown by {@code task}'s method on the jvm (a
   * {@code Math.*Exact} that overflowed, or an integer division by zero): a
   * {@link KernelArithmeticException} with Java's message, naming the kernel's line.
   */
  public static KernelArithmeticException ofJava(TaskSpec task, ArithmeticException e, String device) {
    String where = null;
    for (StackTraceElement f : e.getStackTrace()) {
      String c = f.getClassName();
      if (c.startsWith("java.") || c.startsWith("jdk.") || c.startsWith("dev.loopjit.types.")) continue;
      if (c.startsWith("dev.loopjit.backend.") || c.startsWith("dev.loopjit.runtime.")) break;   // not from the kernel's code
      where = f.getFileName() != null ? simple(c) + "." + f.getMethodName() + " (" + f.getFileName()
          + (f.getLineNumber() >= 0 ? ":" + f.getLineNumber() : "") + ")" : null;
      break;
    }
    KernelArithmeticException k = new KernelArithmeticException(task.qualifiedName(), String.valueOf(e.getMessage()), where, device);
    k.initCause(e);
    return k;
  }

  private static String simple(String className) {
    return className.substring(className.lastIndexOf('.') + 1);
  }
}
