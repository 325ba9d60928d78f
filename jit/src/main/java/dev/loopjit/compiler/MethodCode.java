// One method's bytecode as read by java.lang.classfile: instructions by bci, lines, local names, @Parallel ranges.
package dev.loopjit.compiler;

import dev.loopjit.ir.MethodRef;

import dev.loopjit.api.Parallel;
import dev.loopjit.ir.Src;
import java.lang.classfile.Attributes;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeElement;
import java.lang.classfile.Instruction;
import java.lang.classfile.Label;
import java.lang.classfile.MethodModel;
import java.lang.classfile.TypeAnnotation;
import java.lang.classfile.attribute.CodeAttribute;
import java.lang.classfile.instruction.ExceptionCatch;
import java.lang.classfile.instruction.LineNumber;
import java.lang.classfile.instruction.LocalVariable;
import java.lang.constant.ClassDesc;
import java.lang.reflect.AccessFlag;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The bytecode of one method. No interpretation happens here: the {@link Translator} turns it
 * into blocks of IR. Class files are parsed once per class and kept (they do not change while the
 * program runs).
 */
final class MethodCode {
  /** An instruction and its bytecode index. */
  record Insn(int bci, Instruction ins) {}

  /** A named local from the LocalVariableTable (present when compiled with -g, as Maven does). */
  record LocalName(int slot, String name, String descriptor, int start, int end) {}

  /** A {@code @Parallel} local: slot and the bytecode range where it is in scope. */
  record ParallelRange(int slot, int start, int end) {}

  private static final ClassDesc PARALLEL = ClassDesc.of(Parallel.class.getName());
  /** The same mark on the kernels of dev.loopjit.types (their initialize), which cannot depend on the API. */
  private static final ClassDesc TYPES_PARALLEL = ClassDesc.of("dev.loopjit.types.LoopParallel");
  /** Parsed class files, kept with their class (so an unloaded class takes its model along). */
  private static final ClassValue<ClassModel> MODELS = new ClassValue<>() {
    @Override
    protected ClassModel computeValue(Class<?> owner) {
      return ClassFile.of().parse(MethodRef.classBytesOf(owner));
    }
  };

  final MethodRef method;
  final CodeAttribute code;
  final List<Insn> insns = new ArrayList<>();
  final Map<Integer, Integer> indexOfBci = new HashMap<>();
  final TreeMap<Integer, Integer> lines = new TreeMap<>();
  final List<LocalName> localNames = new ArrayList<>();
  final List<ParallelRange> parallel = new ArrayList<>();

  private MethodCode(MethodRef method, CodeAttribute code) {
    this.method = method;
    this.code = code;
  }

  /** The parsed class file of {@code owner}, read once per class. */
  static ClassModel model(Class<?> owner) {
    return MODELS.get(owner);
  }

  /** Reads {@code m}; {@code caller} is the call site when it is being inlined (for error messages). */
  static MethodCode read(MethodRef m, Src caller) {
    ClassModel cm = model(m.owner());
    MethodModel mm = null;
    for (MethodModel x : cm.methods())
      if (x.methodName().equalsString(m.name()) && x.methodType().equalsString(m.descriptor())) mm = x;
    if (mm == null) throw new IllegalStateException("method " + m + " not in its class file");
    Src at = new Src(m.owner().getName(), m.name(), -1, caller);
    if (mm.flags().has(AccessFlag.NATIVE)) throw Refusal.unsupported(at, "native method " + m.display());
    if (mm.flags().has(AccessFlag.SYNCHRONIZED)) throw Refusal.unsupported(at, "synchronized method " + m.display());
    CodeAttribute code = (CodeAttribute) mm.code().orElseThrow(() -> Refusal.unsupported(at, "abstract method " + m.display()));
    MethodCode mc = new MethodCode(m, code);
    int bci = 0;
    List<Integer> tryStarts = new ArrayList<>();
    for (CodeElement e : code) {
      switch (e) {
        case Instruction ins -> {
          mc.indexOfBci.put(bci, mc.insns.size());
          mc.insns.add(new Insn(bci, ins));
          bci += ins.sizeInBytes();
        }
        case LineNumber ln -> mc.lines.put(bci, ln.line());
        case LocalVariable lv -> mc.localNames.add(new LocalName(lv.slot(), lv.name().stringValue(),
            lv.type().stringValue(), code.labelToBci(lv.startScope()), code.labelToBci(lv.endScope())));
        case ExceptionCatch ec -> tryStarts.add(code.labelToBci(ec.tryStart()));
        default -> {}
      }
    }
    // javac guards synchronized blocks with a handler too: name the real construct, at its line
    for (Insn i : mc.insns)
      if (i.ins() instanceof java.lang.classfile.instruction.MonitorInstruction)
        throw Refusal.unsupported(mc.src(i.bci(), caller), "synchronized");
    if (!tryStarts.isEmpty()) throw Refusal.unsupported(mc.src(tryStarts.get(0), caller), "try/catch");
    code.findAttribute(Attributes.runtimeVisibleTypeAnnotations()).ifPresent(a -> {
      for (TypeAnnotation ta : a.annotations()) {
        if (!ta.annotation().classSymbol().equals(PARALLEL) && !ta.annotation().classSymbol().equals(TYPES_PARALLEL)) continue;
        if (ta.targetInfo() instanceof TypeAnnotation.LocalVarTarget t)
          for (TypeAnnotation.LocalVarTargetInfo r : t.table())
            mc.parallel.add(new ParallelRange(r.index(), code.labelToBci(r.startLabel()), code.labelToBci(r.endLabel())));
      }
    });
    return mc;
  }

  int bciOf(Label l) {
    return code.labelToBci(l);
  }

  /** The source line of {@code bci}, or -1. */
  int line(int bci) {
    var e = lines.floorEntry(bci);
    return e == null ? -1 : e.getValue();
  }

  /** The position of {@code bci}, inlined through {@code caller} (null for the kernel itself). */
  Src src(int bci, Src caller) {
    return new Src(method.owner().getName(), method.name(), line(bci), caller);
  }

  /** The LocalVariableTable entry for {@code slot} in scope at {@code bci}, or null. */
  LocalName localAt(int slot, int bci) {
    for (LocalName n : localNames) if (n.slot() == slot && bci >= n.start() && bci < n.end()) return n;
    return null;
  }

  /** The LocalVariableTable name for {@code slot} whose descriptor starts with one of {@code kinds}, or null. */
  String nameOf(int slot, String kinds) {
    for (LocalName n : localNames)
      if (n.slot() == slot && kinds.indexOf(n.descriptor().charAt(0)) >= 0) return n.name();
    return null;
  }
}
