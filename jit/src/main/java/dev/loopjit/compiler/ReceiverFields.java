// The fields of its object an instance-method kernel reads: they become kernel arguments after its parameters.
package dev.loopjit.compiler;

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
 * What an instance-method kernel ({@code this::compute}) reads of its object: the fields, in the
 * order the compiler and the host both use for the extra kernel arguments (the first read of each in
 * the kernel's code, then in the instance methods it calls on {@code this}, depth first), and those
 * methods. The only object of its class a kernel can reach is {@code this} (a kernel cannot take,
 * make or load another), so every {@code getfield} of the class or a superclass reads the receiver.
 * A static kernel reads none.
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
    if (kernel.isInstance()) scan(kernel, kernel.owner(), fields, calls);
    return new ReceiverFields(new ArrayList<>(fields), new ArrayList<>(calls));
  }

  private static void scan(MethodRef m, Class<?> receiver, Set<Field> fields, Set<MethodRef> calls) {
    ClassModel cm = MethodCode.model(m.owner());
    for (MethodModel mm : cm.methods()) {
      if (!mm.methodName().equalsString(m.name()) || !mm.methodType().equalsString(m.descriptor())) continue;
      CodeModel code = mm.code().orElse(null);
      if (code == null) return;
      for (var e : code) {
        switch (e) {
          case FieldInstruction f when f.opcode() == Opcode.GETFIELD -> {
            Field field = field(m, f.owner().asInternalName(), f.name().stringValue(), receiver);
            if (field != null) fields.add(field);
          }
          case InvokeInstruction inv when (inv.opcode() == Opcode.INVOKEVIRTUAL || inv.opcode() == Opcode.INVOKESPECIAL)
              && !inv.name().equalsString("<init>") -> {
            Class<?> owner = load(m, inv.owner().asInternalName());
            if (owner == null || !owner.isAssignableFrom(receiver)) continue;
            MethodRef callee;
            try {
              callee = MethodRef.of(owner, inv.name().stringValue(), inv.type().stringValue());
            } catch (IllegalArgumentException notFound) {
              continue;   // the compiler refuses it where it is called
            }
            if (callee.isInstance() && calls.add(callee)) scan(callee, receiver, fields, calls);
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

  private static Class<?> load(MethodRef m, String internalName) {
    try {
      return Class.forName(internalName.replace('/', '.'), false, m.owner().getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      return null;
    }
  }
}
