// The compiler pipeline: Resolve, Parse, Structure, then the lowering passes, in order, each dumpable.
package dev.loopjit.compiler;

import dev.loopjit.ir.Target;
import dev.loopjit.ir.MethodRef;

import dev.loopjit.api.KernelCompilationException;
import dev.loopjit.ir.IrPrinter;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Verifier;
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
      new FlatBarriers(),    // OpenCL C and SPIR-V: no barrier under an if or after a return; flags guard the code instead (PoCL 3.1)
      new Chunks(),          // chunked targets (the JVM's cores): a work-item runs a chunk of the range as counted loops
      new Reductions(),      // @Reduce arrays: private accumulators, a work-group tree, an atomic combine
      new Coarsen(),         // CPU targets asked for lanes: a work-item computes neighbouring iterations of x side by side (or rows of y alone)
      new Uniform(),         // CPU targets: every work-item computes, clamped into range; only stores guarded
      new SimdGroups.Lower(), // SIMD-group operations: shuffles where the target has them, else a work-group array
      new Bounds(),          // Java's array bounds checks where no simple proof shows an index in range; reported after the launch
      new LaunchSized(),     // new float[n] with n known at launch: declared at the target's capacity, its length n
      new Legalise(),        // Java's integer / % abs and floating min max, written in the IR once for every emitter
      new Arguments(),       // the device argument list; array lengths become arguments
      new Capabilities());   // fp64, local memory, atomics checked against the target

  /** A method of a class, for a target: no reference to a Class, so the cache below keeps none alive. */
  private record Key(String method, String descriptor, Target target) {}

  /**
   * Compiled kernels, kept with the class that declares the method ({@link ClassValue}): when the
   * class is unloaded (a test's class loader, a plugin), its kernels go with it.
   */
  private static final ClassValue<Map<Key, KernelIR>> CACHE = new ClassValue<>() {
    @Override
    protected Map<Key, KernelIR> computeValue(Class<?> owner) {
      return new ConcurrentHashMap<>();
    }
  };

  private Compiler() {}

  /** Compiles {@code method} for {@code target} (cached); throws KernelCompilationException for anything unsupported. */
  public static KernelIR compile(MethodRef method, Target target) {
    return compile(method, target, Set.of(), false);
  }

  /**
   * As {@link #compile(MethodRef, Target)}, printing the IR after each stage named in {@code dump}
   * ({@code "ir"} after the front end, a pass name after that pass, {@code "all"}) when it compiles.
   */
  public static KernelIR compile(MethodRef method, Target target, Set<String> dump, boolean verify) {
    Map<Key, KernelIR> cache = CACHE.get(method.owner());
    Key key = new Key(method.name(), method.descriptor(), target);
    KernelIR cached = cache.get(key);
    if (cached != null) return cached;
    KernelIR ir = lower(method, target, null, dump, verify);
    cache.put(key, ir);
    return ir;
  }

  /** Runs the pipeline up to and including pass {@code until} ({@code "parse"}: the front end only; null: all), without caching. */
  public static KernelIR lower(MethodRef method, Target target, String until) {
    return lower(method, target, until, Set.of(), false);
  }

  /**
   * As {@link #lower(MethodRef, Target, String)}, printing the IR after each stage named in
   * {@code dump}, and with {@code verify} checking the IR's rules ({@link Verifier}) after each.
   */
  public static KernelIR lower(MethodRef method, Target target, String until, Set<String> dump, boolean verify) {
    Names names = new Names();
    ReceiverFields fields = ReceiverFields.of(method);
    // the static fields read at launch, each an argument: made before the body (and any method inlined into it) reads them
    for (java.lang.reflect.Field f : fields.staticFields()) Members.fieldVar(names, f);
    Frontend.Method m = Frontend.parse(method, names, null, "");
    String name = (method.owner().getSimpleName() + "_" + method.name()).replaceAll("[^A-Za-z0-9_]", "_");
    KernelIR ir = new KernelIR(name, new Src(method.owner().getName(), method.name(), -1, null), params(m, names, fields), m.body(), null,
        List.of()).withLoops(new dev.loopjit.ir.LoopFacts(m.parallelLoops(), m.loopSrc(), m.annotated())).withTemps(names.temps);
    dump(dump, "ir", ir);
    if (verify) verify("parse", ir, false);
    if ("parse".equals(until)) return ir;
    Pass.Context cx = new Pass.Context(method, target, names);
    for (Pass p : PASSES) {
      ir = p.run(ir, cx);
      dump(dump, p.name(), ir);
      if (verify) verify(p.name(), ir, true);
      if (verify && legalised(p.name())) verifyLegalised(p.name(), ir, target);
      if (p.name().equals(until)) break;
    }
    return ir;
  }

  /**
   * The Java parameters in order, then the fields it reads as arguments (of an instance-method
   * kernel's object, and static fields that are not final), in {@link ReceiverFields}' order, then
   * the fields of its vector and HalfFloat parameters, one primitive each: the host passes their
   * values after the arguments; then the fields it reads through object parameters; last, a cell for
   * each AtomicInteger the kernel makes.
   */
  private static List<KernelIR.Param> params(Frontend.Method m, Names names, ReceiverFields fields) {
    Class<?>[] types = m.ref().method().getParameterTypes();
    var declared = m.ref().method().getParameters();
    java.util.ArrayList<KernelIR.Param> out = new java.util.ArrayList<>();
    for (int i = 0; i < types.length; i++) {
      KernelIR.Param.Kind kind = types[i].isPrimitive() || Printing.boxedParameter(types[i]) != null ? KernelIR.Param.Kind.SCALAR
          : types[i] == dev.loopjit.api.KernelContext.class ? KernelIR.Param.Kind.CONTEXT
          : ValueObjects.kind(types[i]) != null || ObjectFields.isProgramObject(types[i]) ? KernelIR.Param.Kind.VALUE : KernelIR.Param.Kind.ARRAY;
      out.add(new KernelIR.Param(i, m.params().get(i), kind, declared[i].isAnnotationPresent(dev.loopjit.api.Reduce.class)));
    }
    for (java.lang.reflect.Field f : fields.fields()) {
      dev.loopjit.ir.Var v = Members.fieldVar(names, f);
      if (v == null)   // never read where it was translated (a branch folded away), yet refused all the same
        throw Refusal.unsupported(new Src(m.ref().owner().getName(), m.ref().name(), -1, null), "the field " + f.getName() + " of type " + f.getType().getSimpleName()
            + " (a kernel reads primitives, primitive arrays and dev.loopjit.types arrays from its object)");
      out.add(new KernelIR.Param(out.size(), v, f.getType().isPrimitive() ? KernelIR.Param.Kind.SCALAR : KernelIR.Param.Kind.ARRAY));
    }
    for (dev.loopjit.ir.Var field : m.valueFields()) out.add(new KernelIR.Param(out.size(), field, KernelIR.Param.Kind.SCALAR));
    // the fields read through object parameters: each an argument the host reads from the object (ObjectFields.of)
    for (var e : names.objectFields.entrySet())
      out.add(new KernelIR.Param(out.size(), e.getValue(), e.getKey().array() ? KernelIR.Param.Kind.ARRAY : KernelIR.Param.Kind.SCALAR));
    // the AtomicIntegers the kernel makes: a cell each, which the host passes fresh (AtomicCells.made)
    for (int bci : AtomicCells.sites(MethodCode.read(m.ref(), null)))
      out.add(new KernelIR.Param(out.size(), AtomicCells.cell(names, bci), KernelIR.Param.Kind.ARRAY));
    return out;
  }

  /**
   * The {@code legalise} pass alone, for IR written by hand (emitter tests): what every emitter
   * expects of the integer {@code /}, {@code %}, {@code abs} and floating {@code min}/{@code max} it gets.
   */
  public static KernelIR legalise(KernelIR ir, Target target) {
    Names names = new Names();
    for (KernelIR.Param p : ir.params()) if (p.var() != null) names.reserve(p.var().name());
    for (dev.loopjit.ir.KernelArg a : ir.args()) names.reserve(a.var().name());
    for (dev.loopjit.ir.Var v : dev.loopjit.ir.Uses.of(ir.body()).vars()) names.reserve(v.name());
    Pass.Context cx = new Pass.Context(null, target, names);
    return new Legalise().run(ir, cx);
  }

  /**
   * Refuses {@code method} as the compiled devices do when its {@code @Parallel} loop cannot keep
   * Java's meaning with its iterations run at once (a value passed from one iteration to the next,
   * or out of the loop; {@link ParallelLoops}), for the {@code jvm} device, which runs the Java
   * method itself and so would otherwise give the sequential result where every other device
   * refuses. Anything else the compiler refuses the jvm still runs.
   */
  public static void checkParallelMeaning(MethodRef method) {
    try {
      lower(method, Target.offline("jvm", ""), "parallel");
    } catch (KernelCompilationException e) {
      if (ParallelLoops.MEANING.contains(e.construct())) throw e;
    } catch (RuntimeException e) {
      // not a kernel the compiler takes: the jvm runs the Java method as it is
    }
  }

  /**
   * Refuses {@code method} with every {@link KernelCompilationException} the compiled devices would
   * raise for it (compiled for OpenCL C, the compiler's reference target), for the {@code jvm}
   * device: it runs the Java method itself, and would otherwise run programs every other device
   * refuses. Returns the number of its {@code @Parallel} loops (1 for a kernel with none, or a
   * {@code KernelContext} kernel), so that the jvm checks a plan's {@code WorkerGrid} as they do.
   * A failure of the compiler's own (not a refusal) is left to the devices: the jvm runs the method.
   * With {@code meaningOnly} (the jvm as a plan's fallback, {@code loopjit.jvm.asWritten}), only the
   * refusals of {@link #checkParallelMeaning} are thrown: the jvm runs any other Java method as written.
   */
  public static int checkAsCompiledDevicesDo(MethodRef method, boolean meaningOnly) {
    KernelIR ir;
    try {
      ir = compile(method, Target.offline("opencl", ""));
    } catch (KernelCompilationException e) {
      if (!meaningOnly) throw e;
      checkParallelMeaning(method);
      return 1;
    } catch (RuntimeException e) {
      return 1;
    }
    return ir.launch() instanceof dev.loopjit.ir.Launch.Loops l ? Math.max(1, l.counts().size()) : 1;
  }

  /**
   * {@code method} as the compiled devices' reference target lowers it (OpenCL C, index checks in the
   * code, one iteration per work-item), for a device that runs the Java method itself (the {@code jvm}):
   * its profile counts a launch's work from it, and its bounds messages name arrays from its checked
   * sites. Null where the compiler refuses the method. The same lowering {@link #checkAsCompiledDevicesDo} made: cached.
   */
  public static KernelIR asCompiledDevicesDo(MethodRef method) {
    try {
      return compile(method, Target.offline("opencl", ""));
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** A {@code @Reduce} element the setting {@code reduceReset} sets to {@code value} before each execution: parameter {@code param}'s element {@code index}. */
  public record ReduceReset(int param, int index, Object value) {}

  /**
   * What the setting {@code reduceReset} sets before each execution of {@code method}, for a device
   * that runs the Java method itself (the {@code jvm}): its {@code @Reduce} elements and their
   * neutral elements, as the compiled devices' prologue stores them; empty when it reduces nothing
   * or cannot be compiled.
   */
  public static List<ReduceReset> reduceResets(MethodRef method) {
    try {
      return Reductions.resets(lower(method, Target.offline("opencl", "").withReduceReset(true), "reduce", Set.of(), false));
    } catch (RuntimeException e) {
      return List.of();
    }
  }

  /** The names of the passes, in order, for {@code --target ir:<pass>} and the dump setting. */
  public static List<String> passNames() {
    return PASSES.stream().map(Pass::name).toList();
  }

  /** Whether the legalise pass has run by the end of {@code pass}. */
  private static boolean legalised(String pass) {
    List<String> names = passNames();
    return names.indexOf(pass) >= names.indexOf("legalise");
  }

  private static void verifyLegalised(String stage, KernelIR ir, Target target) {
    List<String> problems = Verifier.checkLegalised(ir, target.fastMath());
    if (!problems.isEmpty()) throw new IllegalStateException("the IR after " + stage + " is not legalised:\n  " + String.join("\n  ", problems));
  }

  private static void verify(String stage, KernelIR ir, boolean inlined) {
    List<String> problems = Verifier.check(ir, inlined);
    if (!problems.isEmpty())
      throw new IllegalStateException("the IR after " + stage + " breaks its rules:\n  " + String.join("\n  ", problems) + "\n" + IrPrinter.print(ir));
  }

  private static void dump(Set<String> stages, String what, KernelIR ir) {
    if (stages.contains(what) || stages.contains("all")) System.out.println("// ---- " + what + " ----\n" + IrPrinter.print(ir));
  }
}
