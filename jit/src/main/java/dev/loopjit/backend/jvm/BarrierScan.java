// Whether a kernel method (or a static method it calls) calls a KernelContext barrier.
package dev.loopjit.backend.jvm;

import dev.loopjit.ir.MethodRef;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeModel;
import java.lang.classfile.MethodModel;
import java.lang.classfile.instruction.InvokeInstruction;
import java.util.HashSet;
import java.util.Set;

/** Reads bytecode to decide whether work-items need threads of their own (they do only to meet at barriers). */
final class BarrierScan {
  private static final String CONTEXT = "dev/loopjit/api/KernelContext";

  private BarrierScan() {}

  /** The KernelContext methods that exchange values within a SIMD group (the ids and size do not). */
  static boolean isSimdExchange(String name) {
    return name.startsWith("simd") && !name.equals("simdGroupId") && !name.equals("simdLaneId") && !name.equals("simdGroupSize");
  }

  static boolean usesBarriers(MethodRef m) {
    return scan(m.owner(), m.name(), m.descriptor(), new HashSet<>(), 0);
  }

  private static boolean scan(Class<?> owner, String name, String desc, Set<String> seen, int depth) {
    if (depth > 16 || !seen.add(owner.getName() + "." + name + desc)) return false;
    ClassModel cm;
    try {
      cm = ClassFile.of().parse(MethodRef.of(owner, name, desc).classBytes());
    } catch (RuntimeException e) {
      return true; // cannot read it: assume barriers, which is always correct, only slower
    }
    for (MethodModel mm : cm.methods()) {
      if (!mm.methodName().equalsString(name) || !mm.methodType().equalsString(desc)) continue;
      CodeModel code = mm.code().orElse(null);
      if (code == null) return false;
      for (var e : code) {
        if (!(e instanceof InvokeInstruction inv)) continue;
        String o = inv.owner().asInternalName();
        String n = inv.name().stringValue();
        // SIMD-group operations exchange values among the work-group's threads, as barriers do.
        if (o.equals(CONTEXT) && (n.equals("localBarrier") || n.equals("globalBarrier") || isSimdExchange(n))) return true;
        if (inv.opcode() == java.lang.classfile.Opcode.INVOKESTATIC && !o.startsWith("java/")) {
          try {
            Class<?> c = Class.forName(o.replace('/', '.'), false, owner.getClassLoader());
            if (scan(c, n, inv.type().stringValue(), seen, depth + 1)) return true;
          } catch (ClassNotFoundException | RuntimeException ex) {
            return true;
          }
        }
      }
    }
    return false;
  }
}
