// Resolve → Parse → Structure for one method: bytecode in, structured IR out.
package dev.loopjit.compiler;

import dev.loopjit.ir.MethodRef;

import dev.loopjit.ir.Label;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Var;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The front half of the pipeline for one method (the kernel, or a callee being inlined): read
 * its class file, build the CFG, translate the blocks, structure them.
 */
final class Frontend {
  /**
   * A method as structured IR.
   *
   * @param params          one Var per Java parameter (null for a KernelContext and, in a kernel, a
   *                        vector or HalfFloat); a helper's vector parameter is one Var per field
   * @param body            the structured body
   * @param parallelLoops   for each loop, the {@code @Parallel} variables in scope at its header
   * @param annotated       every {@code @Parallel} variable and where it is declared
   * @param valueFields     a kernel's vector and HalfFloat parameters, one Var per field, in parameter order
   */
  record Method(MethodRef ref, List<Var> params, Stmt.Block body, Map<Label, List<Var>> parallelLoops, Map<Label, Src> loopSrc,
      Map<Var, Src> annotated, List<Var> valueFields) {}

  private Frontend() {}

  static Method parse(MethodRef ref, Names names, Src caller, String prefix) {
    return parse(ref, names, caller, prefix, List.of());
  }

  /**
   * {@link #parse(MethodRef, Names, Src, String)} of a helper that returns a vector ({@code Float3}):
   * each {@code return v} assigns {@code v}'s fields to {@code results}, the caller's variables.
   */
  static Method parse(MethodRef ref, Names names, Src caller, String prefix, List<Var> results) {
    MethodCode code = MethodCode.read(ref, caller);
    Cfg cfg;
    try {
      cfg = Cfg.build(code);
    } catch (IllegalStateException e) {
      throw unstructured(code, caller, e);
    }
    Translator t = Translator.run(code, cfg, caller, names, prefix, results);
    cfg.foldConditions();
    List<Stmt> body = new ArrayList<>();
    Structurer s;
    try {
      s = Structurer.run(cfg, names, body);
    } catch (IllegalStateException e) {
      throw unstructured(code, caller, e);
    }
    Map<Var, Src> annotated = new HashMap<>();
    for (MethodCode.ParallelRange r : code.parallel) {
      MethodCode.LocalName n = code.localAt(r.slot(), r.start());
      Src at = code.src(r.start(), caller);
      if (n != null && !n.descriptor().equals("I"))
        throw Refusal.error(at, "@Parallel on a " + javaType(n.descriptor()), "@Parallel variable '" + n.name() + "' is a "
            + javaType(n.descriptor()) + "; a @Parallel loop counter must be an int");
      annotated.put(t.localVar(r.slot()), at);
    }
    Map<Label, List<Var>> parallel = new HashMap<>();
    for (var e : s.loopHeaderBci.entrySet()) {
      List<Var> vars = new ArrayList<>();
      for (MethodCode.ParallelRange r : code.parallel)
        if (e.getValue() >= r.start() && e.getValue() < r.end()) vars.add(t.localVar(r.slot()));
      if (!vars.isEmpty()) parallel.put(e.getKey(), vars);
    }
    return new Method(ref, t.params, new Stmt.Block(body), parallel, s.loopSrc, annotated, List.copyOf(t.valueFields));
  }

  /** The refusal of control flow the structurer cannot handle, at the line of the construct it names (else the method's). */
  private static RuntimeException unstructured(MethodCode code, Src caller, IllegalStateException e) {
    int bci = e instanceof Cfg.Unstructured u ? u.bci : 0;
    return Refusal.error(code.src(bci, caller), "control flow", "control flow the JIT cannot structure (" + e.getMessage() + ")");
  }

  private static String javaType(String descriptor) {
    return java.lang.constant.ClassDesc.ofDescriptor(descriptor).displayName();
  }
}
