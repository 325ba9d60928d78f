// Where a kernel's code is: a method, found from a serializable method reference or by name.
package dev.loopjit.ir;

import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.lang.invoke.MethodHandleInfo;
import java.lang.invoke.MethodType;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * A method: its class, name, descriptor and reflective handle. The first step of the pipeline
 * ("Resolve") turns a {@code TaskN} method reference into one of these through the
 * {@link SerializedLambda} that {@code writeReplace} yields: a static method ({@code Kernels::saxpy}),
 * or an instance method bound to its object ({@code this::compute}, {@code model::compute}), whose
 * object's fields the kernel reads become arguments ({@link ReceiverFields}).
 */
public record MethodRef(Class<?> owner, String name, String descriptor, Method method) {

  /**
   * The method behind a serializable method reference: a static method, or an instance method of
   * the object the reference is bound to (the most specific override for that object's class);
   * IllegalArgumentException for a lambda that captures variables or an unbound instance method.
   */
  public static MethodRef ofLambda(Serializable code, String task) {
    SerializedLambda sl = serialized(code, task);
    Object receiver = receiver(sl);
    if (sl.getCapturedArgCount() != (receiver == null ? 0 : 1))
      throw new IllegalArgumentException("task \"" + task + "\": the lambda captures variables; pass them as task arguments "
          + "and use a method reference, such as Kernels::saxpy or this::compute");
    int kind = sl.getImplMethodKind();
    if (kind != MethodHandleInfo.REF_invokeStatic && receiver == null)
      throw new IllegalArgumentException("task \"" + task + "\": " + sl.getImplClass().replace('/', '.') + "::" + sl.getImplMethodName()
          + " is an instance method with no object; write obj::" + sl.getImplMethodName() + " or this::" + sl.getImplMethodName()
          + ", or make it static");
    ClassLoader loader = code.getClass().getClassLoader();
    try {
      Class<?> owner = Class.forName(sl.getImplClass().replace('/', '.'), false, loader);
      // A virtual call runs the override of the object's class (a private method is not virtual).
      if (receiver != null && kind == MethodHandleInfo.REF_invokeVirtual) owner = receiver.getClass();
      return of(owner, sl.getImplMethodName(), sl.getImplMethodSignature());
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException("task \"" + task + "\": class " + sl.getImplClass() + " not found", e);
    }
  }

  /** The object an instance method reference is bound to ({@code this} in {@code this::compute}), or null for a static method. */
  public static Object receiverOf(Serializable code, String task) {
    return receiver(serialized(code, task));
  }

  private static Object receiver(SerializedLambda sl) {
    boolean instance = sl.getImplMethodKind() != MethodHandleInfo.REF_invokeStatic && sl.getImplMethodKind() != MethodHandleInfo.REF_newInvokeSpecial;
    return instance && sl.getCapturedArgCount() == 1 ? sl.getCapturedArg(0) : null;
  }

  private static SerializedLambda serialized(Serializable code, String task) {
    try {
      Method wr = code.getClass().getDeclaredMethod("writeReplace");
      wr.setAccessible(true);
      return (SerializedLambda) wr.invoke(code);
    } catch (ReflectiveOperationException | ClassCastException | SecurityException e) {
      throw new IllegalArgumentException("task \"" + task + "\": cannot find the method behind " + code.getClass().getName()
          + "; pass a method reference, such as Kernels::saxpy or this::compute", e);
    }
  }

  /**
   * The method {@code name} with {@code descriptor} that {@code owner} declares or inherits from a
   * superclass (as {@code invokestatic} and {@code invokevirtual} find it).
   */
  public static MethodRef of(Class<?> owner, String name, String descriptor) {
    MethodType type = MethodType.fromMethodDescriptorString(descriptor, owner.getClassLoader());
    for (Class<?> c = owner; c != null; c = c.getSuperclass())
      for (Method m : c.getDeclaredMethods())
        if (m.getName().equals(name) && !m.isBridge() && MethodType.methodType(m.getReturnType(), m.getParameterTypes()).equals(type))
          return new MethodRef(c, name, descriptor, m);
    throw new IllegalArgumentException("no method " + owner.getName() + "." + name + descriptor);
  }

  /** An instance method: its object's fields are what the kernel reads besides its parameters. */
  public boolean isInstance() {
    return !Modifier.isStatic(method.getModifiers());
  }

  /** {@code Kernels.saxpy}. */
  public String display() {
    return owner.getSimpleName() + "." + name;
  }

  /** The source name of parameter {@code i} when compiled with {@code -parameters}, else {@code argI}. */
  public String parameterName(int i) {
    return method.getParameters()[i].getName();
  }

  /** The class file of the owner, read through the owner's own loader (application, test or JDK classes). */
  public byte[] classBytes() {
    return classBytesOf(owner);
  }

  /** The class file of {@code owner}. */
  public static byte[] classBytesOf(Class<?> owner) {
    String resource = "/" + owner.getName().replace('.', '/') + ".class";
    try (InputStream in = owner.getResourceAsStream(resource)) {
      if (in == null) throw new IllegalStateException("class file of " + owner.getName() + " not found");
      return in.readAllBytes();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read class file of " + owner.getName(), e);
    }
  }

  @Override
  public String toString() {
    return owner.getName() + "." + name + descriptor;
  }
}
