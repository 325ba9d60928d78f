// The fields of its object an instance-method kernel reads: they become kernel arguments after its parameters.
package dev.loopjit.compiler;

import dev.loopjit.ir.MethodRef;

import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeModel;
import java.lang.classfile.MethodModel;
import java.lang.classfile.Opcode;
import java.lang.classfile.instruction.FieldInstruction;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The fields a kernel reads that become extra kernel arguments, read by the host at each launch: of
 * an instance-method kernel ({@code this::compute}), the fields of its object; of any kernel, the
 * {@code static} primitive fields that are not {@code final} (a {@code static final} one is a
 * constant, compiled in). In the order the compiler and the host both use for the extra arguments:
 * the first read of each in the kernel's code, then in the methods it calls (instance methods on
 * {@code this}, and static methods of the program's own classes, which the compiler inlines), depth
 * first. The only object of its class a kernel can reach is {@code this} (a kernel cannot take, make
 * or load another), so every {@code getfield} of the class or a superclass reads the receiver.
 *
 * @param fields the fields read, each a kernel argument: its value at each launch
 * @param calls  the instance methods called on {@code this} (inlined as declared in the kernel's class)
 */
public record ReceiverFields(List<Field> fields, List<MethodRef> calls) {
  public ReceiverFields {
    fields = List.copyOf(fields);
    calls = List.copyOf(calls);
  }

  /** The fields and calls of {@code kernel} (none for a static method). */
  public static ReceiverFields of(MethodRef kernel) {
    Set<Field> fields = new LinkedHashSet<>();
    Set<MethodRef> calls = new LinkedHashSet<>();
    scan(kernel, kernel.isInstance() ? kernel.owner() : null, fields, calls, new java.util.HashSet<>());
    return new ReceiverFields(new ArrayList<>(fields), new ArrayList<>(calls));
  }

  /** The static fields among {@link #fields}. */
  public List<Field> staticFields() {
    return fields.stream().filter(f -> Modifier.isStatic(f.getModifiers())).toList();
  }

  /** Whether a kernel reads {@code f} as an argument: a {@code static}, non-{@code final}, primitive field. */
  static boolean readAtLaunch(Field f) {
    int m = f.getModifiers();
    return Modifier.isStatic(m) && !Modifier.isFinal(m) && f.getType().isPrimitive();
  }

  /** {@code receiver}: the kernel's object's class, or null in a static method (its {@code getfield}s read other objects, refused where read). */
  private static void scan(MethodRef m, Class<?> receiver, Set<Field> fields, Set<MethodRef> calls, Set<MethodRef> seen) {
    if (!seen.add(m)) return;
    ClassModel cm = MethodCode.model(m.owner());
    for (MethodModel mm : cm.methods()) {
      if (!mm.methodName().equalsString(m.name()) || !mm.methodType().equalsString(m.descriptor())) continue;
      CodeModel code = mm.code().orElse(null);
      if (code == null) return;
      for (var e : code) {
        switch (e) {
          case FieldInstruction f when f.opcode() == Opcode.GETFIELD && receiver != null -> {
            Field field = field(m, f.owner().asInternalName(), f.name().stringValue(), receiver);
            if (field != null) fields.add(field);
          }
          case FieldInstruction f when f.opcode() == Opcode.GETSTATIC -> {
            Field field = staticField(m, f.owner().asInternalName(), f.name().stringValue());
            if (field != null) fields.add(field);
          }
          case InvokeInstruction inv when (inv.opcode() == Opcode.INVOKEVIRTUAL || inv.opcode() == Opcode.INVOKESPECIAL)
              && !inv.name().equalsString("<init>") && receiver != null -> {
            Class<?> owner = load(m, inv.owner().asInternalName());
            if (owner == null || !owner.isAssignableFrom(receiver)) continue;
            MethodRef callee;
            try {
              callee = MethodRef.of(owner, inv.name().stringValue(), inv.type().stringValue());
            } catch (IllegalArgumentException notFound) {
              continue;   // the compiler refuses it where it is called
            }
            if (callee.isInstance() && calls.add(callee)) scan(callee, receiver, fields, calls, seen);
          }
          case InvokeInstruction inv when inv.opcode() == Opcode.INVOKESTATIC && programClass(inv.owner().asInternalName()) -> {
            Class<?> owner = load(m, inv.owner().asInternalName());
            if (owner == null) continue;
            try {
              scan(MethodRef.of(owner, inv.name().stringValue(), inv.type().stringValue()), null, fields, calls, seen);
            } catch (IllegalArgumentException notFound) {
              // the compiler refuses it where it is called
            }
          }
          default -> {}
        }
      }
      return;
    }
  }

  /** The instance field {@code owner.name} when {@code owner} is the receiver's class or a superclass of it, else null. */
  static Field field(MethodRef m, String owner, String name, Class<?> receiver) {
    Class<?> c = load(m, owner);
    if (c == null || !c.isAssignableFrom(receiver)) return null;
    for (Class<?> k = c; k != null; k = k.getSuperclass())
      try {
        Field f = k.getDeclaredField(name);
        return Modifier.isStatic(f.getModifiers()) ? null : f;
      } catch (NoSuchFieldException next) {
        // declared higher up
      }
    return null;
  }

  /** The static field {@code owner.name} when a kernel reads it at launch ({@link #readAtLaunch}), else null (a constant, or refused where read). */
  static Field staticField(MethodRef m, String owner, String name) {
    Class<?> c = load(m, owner);
    for (Class<?> k = c; k != null; k = k.getSuperclass())
      try {
        Field f = k.getDeclaredField(name);
        return readAtLaunch(f) ? f : null;
      } catch (NoSuchFieldException next) {
        // declared higher up
      }
    return null;
  }

  /** A class of the program (or of LoopJIT's API), not of the JDK, whose static methods the compiler inlines as written. */
  private static boolean programClass(String internalName) {
    return !(internalName.startsWith("java/") || internalName.startsWith("javax/") || internalName.startsWith("jdk/")
        || internalName.startsWith("sun/"));
  }

  private static Class<?> load(MethodRef m, String internalName) {
    try {
      return Class.forName(internalName.replace('/', '.'), false, m.owner().getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      return null;
    }
  }
}
