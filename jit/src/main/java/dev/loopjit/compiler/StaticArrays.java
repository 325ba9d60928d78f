// Reads the contents of a static final primitive array (a table such as FdLibm's) at compile time.
package dev.loopjit.compiler;

import dev.loopjit.ir.MethodRef;

import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeElement;
import java.lang.classfile.MethodModel;
import java.lang.classfile.Opcode;
import java.lang.classfile.instruction.ArrayStoreInstruction;
import java.lang.classfile.instruction.ConstantInstruction;
import java.lang.classfile.instruction.FieldInstruction;
import java.lang.classfile.instruction.NewPrimitiveArrayInstruction;
import java.lang.classfile.instruction.StackInstruction;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.InaccessibleObjectException;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The values of a {@code static final} primitive array field. Reflection reads it where the
 * field is accessible; inside the JDK (whose packages are not open) the values come from the
 * class initializer's bytecode, which javac writes in one shape for array initializers:
 * {@code newarray; dup; index; value; xastore; ...; putstatic}.
 */
final class StaticArrays {
  private StaticArrays() {}

  /** The array's elements (a primitive array), or null if the field is not a static final primitive array. */
  static Object read(Class<?> owner, String name) {
    Field f;
    try {
      f = owner.getDeclaredField(name);
    } catch (NoSuchFieldException e) {
      return null;
    }
    int mods = f.getModifiers();
    if (!Modifier.isStatic(mods) || !Modifier.isFinal(mods) || !f.getType().isArray() || !f.getType().getComponentType().isPrimitive())
      return null;
    try {
      f.setAccessible(true);
      Object a = f.get(null);
      return a == null ? null : copy(a);
    } catch (InaccessibleObjectException | IllegalAccessException e) {
      return fromInitializer(owner, name);
    }
  }

  private static Object copy(Object a) {
    Object c = Array.newInstance(a.getClass().getComponentType(), Array.getLength(a));
    System.arraycopy(a, 0, c, 0, Array.getLength(a));
    return c;
  }

  private static Object fromInitializer(Class<?> owner, String field) {
    ClassModel cm = ClassFile.of().parse(MethodRef.classBytesOf(owner));
    for (MethodModel mm : cm.methods()) {
      if (!mm.methodName().equalsString("<clinit>") || mm.code().isEmpty()) continue;
      List<Object> stack = new ArrayList<>();
      Map<String, Object> done = new HashMap<>();
      for (CodeElement e : mm.code().get()) {
        switch (e) {
          case ConstantInstruction c -> stack.add(c.constantValue());
          case NewPrimitiveArrayInstruction n when !stack.isEmpty() && stack.getLast() instanceof Integer len ->
              stack.set(stack.size() - 1, Array.newInstance(primitive(n.typeKind().upperBound().descriptorString()), len));
          case StackInstruction s when s.opcode() == Opcode.DUP && !stack.isEmpty() -> stack.add(stack.getLast());
          case ArrayStoreInstruction s when stack.size() >= 3 -> {
            Object value = stack.removeLast(), index = stack.removeLast(), array = stack.removeLast();
            if (array.getClass().isArray() && index instanceof Integer i && value instanceof Number v) store(array, i, v);
          }
          case FieldInstruction f when f.opcode() == Opcode.PUTSTATIC && !stack.isEmpty() -> {
            Object top = stack.removeLast();
            if (top.getClass().isArray()) done.put(f.name().stringValue(), top);
          }
          case java.lang.classfile.Instruction i -> stack.clear();
          default -> {}
        }
      }
      return done.get(field);
    }
    return null;
  }

  private static Class<?> primitive(String descriptor) {
    return switch (descriptor) {
      case "Z" -> boolean.class; case "B" -> byte.class; case "C" -> char.class; case "S" -> short.class;
      case "I" -> int.class; case "J" -> long.class; case "F" -> float.class; default -> double.class;
    };
  }

  private static void store(Object array, int i, Number v) {
    switch (array) {
      case int[] a -> a[i] = v.intValue();
      case long[] a -> a[i] = v.longValue();
      case float[] a -> a[i] = v.floatValue();
      case double[] a -> a[i] = v.doubleValue();
      case short[] a -> a[i] = v.shortValue();
      case byte[] a -> a[i] = v.byteValue();
      case char[] a -> a[i] = (char) v.intValue();
      default -> {}
    }
  }
}
