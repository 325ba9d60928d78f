// A task's arguments when its kernel reads fields: its Java arguments, then the fields of its object and the static fields it reads.
package dev.loopjit.spi;

import dev.loopjit.ir.MethodRef;
import dev.loopjit.compiler.ReceiverFields;
import java.lang.reflect.Field;
import java.util.AbstractList;
import java.util.List;

/**
 * The argument list of a {@code this::compute} task, or of any task whose kernel reads a static
 * field that is not final, in the order of the compiled kernel's parameters: the Java arguments,
 * then one value per field {@link ReceiverFields} found. A primitive field is read each time the
 * list is (at each launch: a changed {@code this.alpha} or {@code Config.alpha} is seen by the next
 * {@code execute()}); an array field gives the array it held when the task was added, the one the
 * plan allocated device memory for and copies.
 */
final class ReceiverArgs extends AbstractList<Object> {
  private final List<Object> javaArgs;
  private final Object receiver;
  private final List<Field> fields;
  /** Per field: its array when the task was added, or null for a primitive field. */
  private final Object[] arrays;

  private ReceiverArgs(List<Object> javaArgs, Object receiver, List<Field> fields, Object[] arrays) {
    this.javaArgs = javaArgs;
    this.receiver = receiver;
    this.fields = fields;
    this.arrays = arrays;
  }

  /**
   * Checks the fields {@code method} reads of {@code receiver} (null for a static method) and the
   * static fields it reads; IllegalArgumentException naming a field a kernel cannot take. Null for a
   * static method that reads no such field: its arguments are its Java arguments.
   */
  static ReceiverArgs of(String task, MethodRef method, Object receiver, List<Object> javaArgs) {
    ReceiverFields read = ReceiverFields.of(method);
    List<Field> fields = read.fields();
    if (receiver == null && fields.isEmpty()) return null;
    Object[] arrays = new Object[fields.size()];
    for (int k = 0; k < fields.size(); k++) {
      Field f = fields.get(k);
      String where = "task \"" + task + "\": field " + f.getName() + " (" + f.getType().getSimpleName() + ") of "
          + f.getDeclaringClass().getSimpleName() + ", read by " + method.display();
      boolean array = HostArray.elementOf(f.getType()) != null;
      if (!f.getType().isPrimitive() && !array)
        throw new IllegalArgumentException(where + ": a kernel reads primitives, primitive arrays and dev.loopjit.types arrays "
            + "from its object; pass other values as task arguments");
      try {
        f.setAccessible(true);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException(where + ": cannot be read (" + e.getMessage() + ")", e);
      }
      if (array) {
        arrays[k] = read(f, receiver);
        if (arrays[k] == null) throw new IllegalArgumentException(where + " is null");
      }
    }
    for (MethodRef call : read.calls()) {
      MethodRef actual = MethodRef.of(receiver.getClass(), call.name(), call.descriptor());
      if (!actual.method().equals(call.method()) && !java.lang.reflect.Modifier.isPrivate(call.method().getModifiers()))
        throw new IllegalArgumentException("task \"" + task + "\": " + receiver.getClass().getSimpleName() + " overrides " + call.display()
            + ", which " + method.display() + " calls on this; a kernel's calls on its object are compiled as its class declares them");
    }
    return new ReceiverArgs(List.copyOf(javaArgs), receiver, fields, arrays);
  }

  private static Object read(Field f, Object receiver) {
    try {
      return f.get(java.lang.reflect.Modifier.isStatic(f.getModifiers()) ? null : receiver);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("field " + f.getName() + " cannot be read", e);
    }
  }

  @Override
  public Object get(int i) {
    if (i < javaArgs.size()) return javaArgs.get(i);
    int k = i - javaArgs.size();
    return arrays[k] != null ? arrays[k] : read(fields.get(k), receiver);
  }

  @Override
  public int size() {
    return javaArgs.size() + fields.size();
  }

  /** IllegalStateException when an array field no longer holds the array the task was added with. */
  void check(String task) {
    for (int k = 0; k < fields.size(); k++)
      if (arrays[k] != null && read(fields.get(k), receiver) != arrays[k])
        throw new IllegalStateException("task \"" + task + "\": field " + fields.get(k).getName() + " of " + fields.get(k).getDeclaringClass().getSimpleName()
            + " now holds a different array than when the task was added; the plan copies the arrays it was built with: "
            + "copy the new values into that array, or build a new task graph");
  }
}
