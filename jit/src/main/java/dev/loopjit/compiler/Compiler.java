// The compiler pipeline: Resolve, Parse, Structure, then the lowering passes, in order, each dumpable.
package dev.loopjit.compiler;

import dev.loopjit.ir.IrPrinter;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Src;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Bytecode of a static method to lowered IR, ready for an emitter. The whole pipeline is this
 * file: the front end ({@link Frontend}: class file → CFG → structured IR), then the passes
 * below in order. {@code -Dloopjit.dump=ir} prints the IR after the front end;
 * {@code -Dloopjit.dump=<pass>} after that pass.
 */
public final class Compiler {
  /** The lowering, in order. */
  static final List<Pass> PASSES = List.of(
      new Inline(),          // static calls replaced by their bodies; JDK helpers too
      new Simplify(),        // temporaries forwarded, ?: recovered, boolean tests cleaned
      new ParallelLoops(),   // the @Parallel nest becomes work-item indices and a guard
      new Chunks(),          // chunked targets (the JVM's cores): a work-item runs a chunk of the range as counted loops
      new Reductions(),      // @Reduce arrays: private accumulators, a work-group tree, an atomic combine
      new Uniform(),         // CPU targets: every work-item computes, clamped into range; only stores guarded
      new Arguments(),       // the device argument list; array lengths become arguments
      new Capabilities());   // fp64, local memory, atomics checked against the target

  private record Key(MethodRef method, Target target) {}

  private static final Map<Key, KernelIR> CACHE = new ConcurrentHashMap<>();

  private Compiler() {}

  /** Compiles {@code method} for {@code target} (cached); throws KernelCompilationException for anything unsupported. */
  public static KernelIR compile(MethodRef method, Target target) {
    return compile(method, target, Set.of());
  }

  /**
   * As {@link #compile(MethodRef, Target)}, printing the IR after each stage named in {@code dump}
   * ({@code "ir"} after the front end, a pass name after that pass, {@code "all"}) when it compiles.
   */
  public static KernelIR compile(MethodRef method, Target target, Set<String> dump) {
    KernelIR cached = CACHE.get(new Key(method, target));
    if (cached != null) return cached;
    KernelIR ir = lower(method, target, null, dump);
    CACHE.put(new Key(method, target), ir);
    return ir;
  }

  /** Runs the pipeline up to and including pass {@code until} ({@code "parse"}: the front end only; null: all), without caching. */
  public static KernelIR lower(MethodRef method, Target target, String until) {
    return lower(method, target, until, Set.of());
  }

  /** As {@link #lower(MethodRef, Target, String)}, printing the IR after each stage named in {@code dump}. */
  public static KernelIR lower(MethodRef method, Target target, String until, Set<String> dump) {
    Names names = new Names();
    Frontend.Method m = Frontend.parse(method, names, null, "");
    String name = (method.owner().getSimpleName() + "_" + method.name()).replaceAll("[^A-Za-z0-9_]", "_");
    KernelIR ir = new KernelIR(name, new Src(method.owner().getName(), method.name(), -1, null), params(m), m.body(), null, List.of());
    dump(dump, "ir", ir);
    if ("parse".equals(until)) return ir;
    Pass.Context cx = new Pass.Context(method, target, names, m.parallelLoops(), m.loopSrc(), m.annotated());
    for (Pass p : PASSES) {
      ir = p.run(ir, cx);
      dump(dump, p.name(), ir);
      if (p.name().equals(until)) break;
    }
    return ir;
  }

  private static List<KernelIR.Param> params(Frontend.Method m) {
    Class<?>[] types = m.ref().method().getParameterTypes();
    java.util.ArrayList<KernelIR.Param> out = new java.util.ArrayList<>();
    for (int i = 0; i < types.length; i++) {
      KernelIR.Param.Kind kind = types[i].isPrimitive() ? KernelIR.Param.Kind.SCALAR
          : types[i] == dev.loopjit.api.KernelContext.class ? KernelIR.Param.Kind.CONTEXT : KernelIR.Param.Kind.ARRAY;
      out.add(new KernelIR.Param(i, m.params().get(i), kind));
    }
    return out;
  }

  /** The names of the passes, in order, for {@code --target ir:<pass>} and the dump setting. */
  public static List<String> passNames() {
    return PASSES.stream().map(Pass::name).toList();
  }

  private static void dump(Set<String> stages, String what, KernelIR ir) {
    if (stages.contains(what) || stages.contains("all")) System.out.println("// ---- " + what + " ----\n" + IrPrinter.print(ir));
  }
}
