// A readable listing of a generated class: the IR it came from, then each method's instructions.
package dev.loopjit.backend.jvmmt;

import dev.loopjit.ir.IrPrinter;
import dev.loopjit.ir.KernelIR;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeElement;
import java.lang.classfile.Instruction;
import java.lang.classfile.MethodModel;
import java.lang.classfile.PseudoInstruction;

/** The text of a jvm kernel's {@code DeviceCode}: what {@code loopjit dump --target jvm} prints. */
final class Listing {
  private Listing() {}

  static String of(KernelIR ir, byte[] bytes) {
    StringBuilder b = new StringBuilder();
    b.append("// JVM bytecode from LoopJIT (").append(bytes.length).append(" bytes, a hidden class), strict Java semantics\n");
    for (String line : IrPrinter.print(ir).split("\n")) b.append("// ").append(line).append('\n');
    ClassModel cm = ClassFile.of().parse(bytes);
    b.append("final class ").append(cm.thisClass().asInternalName().replace('/', '.')).append(" implements GeneratedKernel {\n");
    for (MethodModel m : cm.methods()) {
      b.append("  ").append(m.methodName().stringValue()).append(m.methodType().stringValue()).append(" {\n");
      m.code().ifPresent(code -> {
        for (CodeElement e : code) {
          if (e instanceof Instruction i) b.append("    ").append(i).append('\n');
          else if (e instanceof PseudoInstruction p && !(p instanceof java.lang.classfile.instruction.LineNumber)) b.append("   ").append(p).append('\n');
        }
      });
      b.append("  }\n");
    }
    return b.append("}\n").toString();
  }
}
