// Objects of the program's own classes as kernel parameters: the fields the kernel reads become its arguments.
package dev.loopjit.compiler;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.MethodRef;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Var;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;

/**
 * A kernel parameter whose type is one of the program's own classes ({@code PrimitiveB b},
 * TornadoVM's tests' holders of arrays) is no device argument itself: each field the kernel reads
 * through it ({@code b.valueA[i]}, {@code a.b.someArray.get(i)} through a nested object, a primitive
 * {@code a.scale}) becomes one, after the other hidden arguments, in the order of
 * {@link #of(MethodRef)} — which the host reads to pass them: an array field the array it held when
 * the task was added (the plan copies it like any array), a primitive field its value at each launch.
 * Writing a field, passing the object to a method, or a field of a type kernels do not take is
 * refused, naming the line.
 */
public final class ObjectFields {
  private ObjectFields() {}

  /**
   * A field read through object parameter {@code param}: {@code path} is the chain of field names
   * from the parameter ({@code "b.someArray"}).
   */
  public record Read(int param, String path, boolean array) {}

  /** The object parameter {@code param} (or an object reached from it along {@code path}) on the operand stack. */
  record Ref(int param, Class<?> type, String path) {}

  /** Whether a kernel parameter of type {@code c} is an object of the program's own classes. */
  public static boolean isProgramObject(Class<?> c) {
    if (c == null || c.isPrimitive() || c.isArray() || c.isInterface() || c.isEnum()) return false;
    String n = c.getName();
    return !n.startsWith("java.") && !n.startsWith("javax.") && !n.startsWith("jdk.") && !n.startsWith("sun.") && !n.startsWith("dev.loopjit.types.")
        && c != dev.loopjit.api.KernelContext.class;
  }

  /** The field {@code name} of {@code type} or a superclass, or null. */
  static Field field(Class<?> type, String name) {
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      try {
        return c.getDeclaredField(name);
      } catch (NoSuchFieldException e) {
        // its superclass, then
      }
    }
    return null;
  }

  /** {@code ref.name} read in a kernel: a nested object's reference, or the variable of its argument. */
  static Object get(OperandStack ops, Names names, Ref ref, String name) {
    Field f = field(ref.type(), name);
    String path = ref.path().isEmpty() ? name : ref.path() + "." + name;
    if (f == null || java.lang.reflect.Modifier.isStatic(f.getModifiers()))
      throw Refusal.unsupported(ops.src, "the field " + name + " of " + ref.type().getSimpleName());
    Class<?> t = f.getType();
    if (isProgramObject(t)) return new Ref(ref.param(), t, path);
    Prim p = Prim.of(t);
    Prim element = Members.arrayElement(t);
    if (p == null && element == null)
      throw Refusal.error(ops.src, "the field " + name + " of type " + t.getSimpleName(), "the field " + path + " (" + t.getSimpleName()
          + ") of parameter " + ref.param() + " is not supported in a kernel: a kernel reads primitives, arrays and objects holding them "
          + "from an object it is given");
    Var v = names.objectFields.computeIfAbsent(new Read(ref.param(), path, element != null),
        k -> names.fresh(path.replace('.', '_'), p != null ? p : ArrayType.global(element)));
    return v.type() instanceof Prim q && q != q.stackType() ? new Convert(q.stackType(), new Expr.Read(v)) : new Expr.Read(v);
  }

  /**
   * The fields along {@code path} from class {@code declared} (the parameter's type, whose fields the
   * compiler read): each name a field of the class the previous one declares, made accessible once.
   * An IllegalArgumentException names a field that is missing or cannot be read.
   */
  public static List<Field> chain(Class<?> declared, String path, String where) {
    List<Field> out = new ArrayList<>();
    Class<?> type = declared;
    for (String name : path.split("\\.")) {
      Field f = field(type, name);
      if (f == null) throw new IllegalArgumentException(where + ": " + type.getName() + " has no field " + name);
      try {
        f.setAccessible(true);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException(where + ": the field " + name + " of " + type.getSimpleName() + " cannot be read (" + e + ")", e);
      }
      out.add(f);
      type = f.getType();
    }
    return List.copyOf(out);
  }

  /** The value at the end of {@code chain} ({@link #chain}) in {@code root}; an IllegalArgumentException names a null object on the way. */
  public static Object value(Object root, List<Field> chain, String where) {
    Object o = root;
    String at = "";
    for (Field f : chain) {
      try {
        o = f.get(o);
      } catch (IllegalAccessException e) {
        throw new IllegalArgumentException(where + ": the field " + f.getName() + " cannot be read (" + e + ")", e);
      }
      at = at.isEmpty() ? f.getName() : at + "." + f.getName();
      if (o == null && !f.getType().isPrimitive()) throw new IllegalArgumentException(where + ": " + at + " is null");
    }
    return o;
  }

  /** The fields {@code method} reads through its object parameters, in the order of their hidden arguments. */
  public static List<Read> of(MethodRef method) {
    boolean any = false;
    for (Class<?> c : method.method().getParameterTypes()) any |= isProgramObject(c);
    if (!any) return List.of();
    Names names = new Names();
    try {
      Frontend.parse(method, names, null, "");
    } catch (RuntimeException e) {
      return List.of();   // refused: the plan says so when it compiles the kernel (the jvm's fallback runs it as written)
    }
    return new ArrayList<>(names.objectFields.keySet());
  }
}
