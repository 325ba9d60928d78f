// Where a kernel's code is: a static method, found from a serializable method reference or by name.
package dev.loopjit.compiler;

import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.lang.invoke.MethodHandleInfo;
import java.lang.invoke.MethodType;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * A static method: its class, name, descriptor and reflective handle. The first step of the
 * pipeline ("Resolve") turns a {@code TaskN} method reference into one of these through the
 * {@link SerializedLambda} that {@code writeReplace} yields.
 */
public record MethodRef(Class<?> owner, String name, String descriptor, Method method) {

  /** The method behind a serializable method reference; IllegalArgumentException when it is not a static method. */
  public static MethodRef ofLambda(Serializable code, String task) {
    SerializedLambda sl;
    try {
      Method wr = code.getClass().getDeclaredMethod("writeReplace");
      wr.setAccessible(true);
      sl = (SerializedLambda) wr.invoke(code);
    } catch (ReflectiveOperationException | ClassCastException | SecurityException e) {
      throw new IllegalArgumentException("task \"" + task + "\": cannot find the method behind " + code.getClass().getName()
          + "; pass a method reference to a static method, such as Kernels::saxpy", e);
    }
    if (sl.getImplMethodKind() != MethodHandleInfo.REF_invokeStatic)
      throw new IllegalArgumentException("task \"" + task + "\": " + sl.getImplClass().replace('/', '.') + "::"
          + sl.getImplMethodName() + " is not a static method; kernels are static methods (make it static and pass the fields it reads "
          + "as task arguments)");
    if (sl.getCapturedArgCount() != 0)
      throw new IllegalArgumentException("task \"" + task + "\": the lambda captures variables; pass them as task arguments "
          + "and use a method reference to a static method");
    ClassLoader loader = code.getClass().getClassLoader();
    try {
      Class<?> owner = Class.forName(sl.getImplClass().replace('/', '.'), false, loader);
      return of(owner, sl.getImplMethodName(), sl.getImplMethodSignature());
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException("task \"" + task + "\": class " + sl.getImplClass() + " not found", e);
    }
  }

  /** The static method {@code name} with {@code descriptor} declared by {@code owner}. */
  public static MethodRef of(Class<?> owner, String name, String descriptor) {
    MethodType type = MethodType.fromMethodDescriptorString(descriptor, owner.getClassLoader());
    for (Method m : owner.getDeclaredMethods())
      if (m.getName().equals(name) && MethodType.methodType(m.getReturnType(), m.getParameterTypes()).equals(type)) {
        if (!Modifier.isStatic(m.getModifiers()))
          throw new IllegalArgumentException(owner.getName() + "." + name + " is not static");
        return new MethodRef(owner, name, descriptor, m);
      }
    throw new IllegalArgumentException("no method " + owner.getName() + "." + name + descriptor);
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
  static byte[] classBytesOf(Class<?> owner) {
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
