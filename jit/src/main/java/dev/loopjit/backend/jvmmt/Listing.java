// A readable listing of a generated class: the IR it came from, then each method's instructions with numbered labels.
package dev.loopjit.backend.jvmmt;

import dev.loopjit.ir.IrPrinter;
import dev.loopjit.ir.KernelIR;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeElement;
import java.lang.classfile.CodeModel;
import java.lang.classfile.Instruction;
import java.lang.classfile.Label;
import java.lang.classfile.MethodModel;
import java.lang.classfile.instruction.BranchInstruction;
import java.lang.classfile.instruction.ConstantInstruction;
import java.lang.classfile.instruction.ExceptionCatch;
import java.lang.classfile.instruction.FieldInstruction;
import java.lang.classfile.instruction.IncrementInstruction;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.classfile.instruction.LabelTarget;
import java.lang.classfile.instruction.LoadInstruction;
import java.lang.classfile.instruction.LookupSwitchInstruction;
import java.lang.classfile.instruction.NewPrimitiveArrayInstruction;
import java.lang.classfile.instruction.StoreInstruction;
import java.lang.classfile.instruction.TableSwitchInstruction;
import java.lang.classfile.instruction.TypeCheckInstruction;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;

/** The text of a jvm kernel's {@code DeviceCode}: what {@code loopjit dump --target jvm} prints. */
final class Listing {
  private Listing() {}

  static String of(KernelIR ir, byte[] bytes) {
    StringBuilder b = new StringBuilder();
    b.append("// JVM bytecode from LoopJIT: a hidden class of ").append(bytes.length).append(" bytes, strict Java semantics\n");
    for (String line : IrPrinter.print(ir).split("\n")) b.append(line.startsWith("//") ? "" : "// ").append(line).append('\n');
    ClassModel cm = ClassFile.of().parse(bytes);
    b.append("final class ").append(cm.thisClass().asInternalName().replace('/', '.')).append(" implements GeneratedKernel {\n");
    for (MethodModel m : cm.methods()) {
      b.append("  ").append(m.methodName().stringValue()).append(m.methodType().stringValue()).append(" {\n");
      m.code().ifPresent(code -> method(code, b));
      b.append("  }\n");
    }
    return b.append("}\n").toString();
  }

  private static void method(CodeModel code, StringBuilder b) {
    Map<Label, String> names = new HashMap<>();
    for (CodeElement e : code) if (e instanceof LabelTarget t) names.put(t.label(), "L" + names.size());
    for (CodeElement e : code) {
      switch (e) {
        case LabelTarget t -> b.append("   ").append(names.get(t.label())).append(":\n");
        case ExceptionCatch c -> b.append("    // catch ").append(c.catchType().map(x -> x.asInternalName()).orElse("any")).append(" in [")
            .append(names.get(c.tryStart())).append(", ").append(names.get(c.tryEnd())).append(") at ").append(names.get(c.handler())).append('\n');
        case Instruction i -> b.append("    ").append(instruction(i, names)).append('\n');
        default -> {}
      }
    }
  }

  private static String instruction(Instruction i, Map<Label, String> names) {
    String op = i.opcode().name().toLowerCase();
    return op + switch (i) {
      case LoadInstruction l -> " " + l.slot();
      case StoreInstruction s -> " " + s.slot();
      case IncrementInstruction n -> " " + n.slot() + " " + n.constant();
      case BranchInstruction br -> " " + names.get(br.target());
      case ConstantInstruction c -> op.startsWith("ldc") || op.endsWith("push") ? " " + c.constantValue() : "";
      case FieldInstruction f -> " " + f.owner().asInternalName() + "." + f.name().stringValue();
      case InvokeInstruction v -> " " + v.owner().asInternalName() + "." + v.name().stringValue() + v.type().stringValue();
      case TypeCheckInstruction t -> " " + t.type().asInternalName();
      case NewPrimitiveArrayInstruction a -> " " + a.typeKind().name().toLowerCase();
      case LookupSwitchInstruction s -> " {" + s.cases().stream().map(c -> c.caseValue() + ": " + names.get(c.target()))
          .collect(Collectors.joining(", ")) + ", default: " + names.get(s.defaultTarget()) + "}";
      case TableSwitchInstruction s -> " {" + s.cases().stream().map(c -> c.caseValue() + ": " + names.get(c.target()))
          .collect(Collectors.joining(", ")) + ", default: " + names.get(s.defaultTarget()) + "}";
      default -> "";
    };
  }
}
