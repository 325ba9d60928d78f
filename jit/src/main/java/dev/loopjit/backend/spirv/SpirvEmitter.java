// Emits a SPIR-V module (OpenCL Kernel, Physical64) from lowered IR with strict Java semantics: statements, blocks and the kernel's interface.
package dev.loopjit.backend.spirv;

import dev.loopjit.api.KernelCompilationException;
import dev.loopjit.compiler.Refusal;
import dev.loopjit.ir.Target;
import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr.Alloc;
import dev.loopjit.ir.Expr.Call;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.KernelArg;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Label;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.TransposedLoad;
import dev.loopjit.ir.Var;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Lowered IR to a SPIR-V module for OpenCL: the {@code Kernel} execution model, {@code Physical64}
 * addressing, the {@code OpenCL} memory model, {@code OpenCL.std} for math, no {@code Linkage};
 * the capabilities {@code Int8}, {@code Int16}, {@code Int64}, {@code Float64},
 * {@code Float16Buffer} and {@code Int64Atomics} only when the kernel needs them. One entry point
 * named {@code k.name()} with parameters in {@code k.args()} order, typed as the OpenCL C backend
 * declares them (so the same runtime binds both): a global array is a {@code CrossWorkgroup}
 * pointer, a length or loop count an int, a scalar its Java width (boolean an int 0/1).
 *
 * <p>Strict Java semantics, as the other targets keep them (see {@link SpirvExpressions} and
 * {@link SpirvIntrinsics}): every float add, subtract, multiply and divide is decorated
 * {@code NoContraction} and the kernel has {@code ContractionOff}, so nothing is fused into an
 * FMA. Float {@code /} is OpFDiv and {@code Math.sqrt} OpenCL.std's sqrt; the OpenCL SPIR-V
 * environment lets both be inexact for float (2.5 and 3 ulp) unless the program is built with
 * {@code -cl-fp32-correctly-rounded-divide-sqrt}, which is how the OpenCL runtime builds it on a
 * device that reports CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT, as for OpenCL C. (Through the LLVM
 * bridge, OpFDiv becomes LLVM's IEEE fdiv, correctly rounded in any case.) Double {@code /} and
 * sqrt are correctly rounded in OpenCL.
 *
 * <p>Debug information: OpName on the kernel, its parameters and variables, loop and switch
 * blocks, and OpLine with the Java file and line of each statement, so a disassembly reads back to
 * the source. A construct this emitter cannot write is refused with a
 * {@link KernelCompilationException} at the statement's Java line.
 *
 * <pre>{@code
 * byte[] spv = SpirvEmitter.emit(kernel, Target.offline("spirv", "1.2"));
 * }</pre>
 */
public final class SpirvEmitter {
  /** The SPIR-V version written unless the target's variant names another ({@code "1.0"} … {@code "1.4"}). */
  public static final String DEFAULT_VERSION = "1.2";

  private final SpirvModule m = new SpirvModule();
  private final Target target;
  private final SpirvCode code;
  private final SpirvExpressions exprs;
  private final int entry;
  /** Break and Continue destinations of each enclosing Loop, Switch and Labeled block: {break, continue or 0}. */
  private final Map<Label, int[]> targets = new HashMap<>();
  /** The work-group arrays, one per variable, as KernelContext and reductions declare them. */
  private final Map<Var, Integer> localArrays = new LinkedHashMap<>();
  /** The private arrays (new T[n]), one Function variable per variable. */
  private final Map<Var, Integer> privateArrays = new LinkedHashMap<>();

  private SpirvEmitter(Target target) {
    this.target = target;
    this.entry = m.id();
    this.code = new SpirvCode(m, entry, target.fastMath());
    this.exprs = new SpirvExpressions(code, target.fastMath());
    this.exprs.fp64 = target.fp64();
  }

  /** The module of {@code k} as the bytes of a {@code .spv} file (little-endian words). */
  public static byte[] emit(KernelIR k, Target target) {
    return SpirvModule.bytes(words(k, target));
  }

  /** The module of {@code k} as words: the header, then the instructions. */
  public static int[] words(KernelIR k, Target target) {
    int version = version(target.variant());
    return new SpirvEmitter(target).module(k, version);
  }

  /** The version word of {@code variant} ("" for the default, else "1.N" with N 0..4). */
  static int version(String variant) {
    String v = variant == null || variant.isEmpty() ? DEFAULT_VERSION : variant;
    if (!v.matches("1\\.[0-4]")) throw new IllegalArgumentException("a SPIR-V target is 1.0 to 1.4, not \"" + variant + "\"");
    return 1 << 16 | (v.charAt(2) - '0') << 8;
  }

  private int[] module(KernelIR k, int version) {
    if (k.name() == null || !k.name().matches("[A-Za-z_][A-Za-z0-9_]*")) throw new IllegalArgumentException("not a kernel name: " + k.name());
    m.memoryModel(Spv.ADDRESSING_PHYSICAL64, Spv.MEMORY_OPENCL);
    int function = m.id();
    int source = m.debugString(SpirvCode.fileOf(k.source().className()));
    m.source(Spv.SOURCE_UNKNOWN, 0, source);
    m.name(function, k.name());

    List<KernelArg> args = k.args();
    int[] params = new int[args.size()], paramTypes = new int[args.size()];
    for (int i = 0; i < args.size(); i++) {
      params[i] = m.id();
      paramTypes[i] = paramType(args.get(i));
      m.name(params[i], args.get(i).var().name());
    }
    // The body first, so that every variable it uses is declared; their zeroing and the parameters' copies go before it.
    SpirvModule.Words prologue = prologueOf(k, params);
    int voidType = m.voidType();
    int functionType = m.functionType(voidType, paramTypes);
    code.function(m.functions(), function, voidType, functionType, params, paramTypes, prologue);
    m.entryPoint(Spv.EXECUTION_KERNEL, function, k.name(), exprs.interfaceVariables());
    m.name(entry, "entry");
    if (!target.fastMath()) m.executionMode(function, Spv.MODE_CONTRACTION_OFF);
    return m.words(version);
  }

  /** Emits the body, then returns what runs before it: every variable zeroed (as C does), then each argument stored in its variable. */
  private SpirvModule.Words prologueOf(KernelIR k, int[] params) {
    stmt(k.body());
    code.returnVoid();
    code.beginPrologue();
    Map<Var, Integer> vars = exprs.variables();
    for (Map.Entry<Var, Integer> v : new ArrayList<>(vars.entrySet())) {
      // OpConstantNull only for pointers: the LLVM translator refuses it for scalars.
      code.store(v.getValue(), v.getKey().type() instanceof Prim p ? exprs.zero(p == Prim.BOOLEAN ? Prim.INT : p)
          : m.nullConstant(code.storedType(v.getKey().type())));
    }
    for (int i = 0; i < params.length; i++) {
      KernelArg a = k.args().get(i);
      int value = params[i];
      if (a instanceof KernelArg.Scalar s && s.var().type() instanceof Prim p && p != Prim.BOOLEAN) {
        // Narrow scalars arrive with Java's width; variables hold the int Java computes with.
        if (p == Prim.BYTE || p == Prim.SHORT) value = code.op(SpirvOp.SConvert, m.intType(32), value);
        else if (p == Prim.CHAR) value = code.op(SpirvOp.UConvert, m.intType(32), value);
      }
      code.store(exprs.var(a.var()), value);
    }
    return code.endPrologue();
  }

  private int paramType(KernelArg a) {
    return switch (a) {
      case KernelArg.Array x -> {
        if (!(x.var().type() instanceof ArrayType t) || t.space() != ArrayType.Space.GLOBAL)
          throw new IllegalStateException("array argument " + x.var() + " has type " + x.var().type());
        yield code.pointerTo(t);
      }
      case KernelArg.Length x -> m.intType(32);
      case KernelArg.Count x -> m.intType(32);
      case KernelArg.Computed x -> m.intType(32);
      // A local array sized at launch: a Workgroup pointer, given its size by clSetKernelArg(size, NULL).
      case KernelArg.Local x -> code.pointerTo((ArrayType) x.var().type());
      case KernelArg.Scalar x -> {
        if (!(x.var().type() instanceof Prim p) || p == Prim.HALF)
          throw new IllegalStateException("scalar argument " + x.var() + " has type " + x.var().type());
        // Java's width, so the runtime binds exactly Java's bytes; a boolean is an int 0/1.
        yield switch (p) {
          case BOOLEAN, INT -> m.intType(32);
          case BYTE -> m.intType(8);
          case SHORT, CHAR -> m.intType(16);
          default -> code.valueType(p);
        };
      }
    };
  }

  // ---- statements ---------------------------------------------------------------------------

  private void stmt(Stmt s) {
    if (s instanceof Block b) {
      b.stmts().forEach(this::stmt);
      return;
    }
    code.at(s.src());
    try {
      statement(s);
    } catch (KernelCompilationException e) {
      throw e;
    } catch (RuntimeException e) {
      if (s.src() == null || s.src().line() < 0) throw e;
      throw Refusal.error(s.src(), "SPIR-V", "this statement cannot be written as SPIR-V: " + e.getMessage());
    }
  }

  private void statement(Stmt s) {
    switch (s) {
      case Block b -> b.stmts().forEach(this::stmt);
      case Assign a -> assign(a.var(), a.value());
      case Store st -> exprs.store(st.array(), st.index(), st.value());
      case Eval e when e.call() instanceof Call c && c.op() == Intrinsic.LOAD_TRANSPOSED ->
          TransposedLoad.of(c).asStores(e.src()).forEach(this::stmt);   // element by element
      case Eval e -> exprs.effect(e.call());
      case If i -> branch(i);
      case Loop l -> loop(l);
      case Switch sw -> cases(sw);
      case Labeled l -> {
        int end = m.id();
        targets.put(l.label(), new int[] {end, 0});
        stmt(l.body());
        name(end, l.label().name() + "_end");
        code.block(end);
      }
      case Break b -> code.branch(jump(b.target(), 0, "break"));
      case Continue c -> code.branch(jump(c.target(), 1, "continue"));
      case Return r -> {
        if (r.value() != null) throw new IllegalStateException("a kernel returns no value");
        code.returnVoid();
      }
    }
  }

  private int jump(Label target, int kind, String what) {
    int[] t = targets.get(target);
    if (t == null || t[kind] == 0) throw new IllegalStateException(what + " " + target + " outside of a statement it may leave");
    return t[kind];
  }

  private void name(int label, String name) {
    m.name(label, name);
  }

  private void assign(Var var, Expr value) {
    if (value instanceof Alloc a) {
      allocate(var, a.type());
      return;
    }
    if (var.type() instanceof ArrayType vt) {
      // An array variable holds a pointer into its own storage class, so only an array of that class may be assigned.
      if (!(value.type() instanceof ArrayType at) || at.space() != vt.space() || at.element() != vt.element())
        throw new IllegalStateException("assignment of a " + value.type() + " to " + var + " of type " + var.type());
    } else if (!(value.type() instanceof Prim p) || code.valueType(p) != code.valueType((Prim) var.type())) {
      throw new IllegalStateException("assignment of a " + value.type() + " to " + var + " of type " + var.type());
    }
    exprs.assign(var, exprs.eval(value));
  }

  /**
   * {@code new T[n]} (private: a Function array, zeroed every time the allocation runs, as Java's
   * is) or a KernelContext local array (one Workgroup array per variable, not initialised). The
   * variable then points at its first element.
   */
  private void allocate(Var var, ArrayType t) {
    if (t.length() < 0) throw new IllegalStateException("new " + t + " needs a constant length");
    if (!(var.type() instanceof ArrayType vt) || vt.space() != t.space())
      throw new IllegalStateException("cannot allocate " + t + " into " + var + " of type " + var.type());
    int element = code.elementType(t.element(), t.space());
    int array = m.arrayType(element, Math.max(1, t.length()));
    int storage = switch (t.space()) {
      case GLOBAL -> throw new IllegalStateException("a kernel cannot allocate global memory: new " + t);
      case LOCAL -> localArrays.computeIfAbsent(var, v -> {
        int g = m.globalVariable(m.pointerType(Spv.SC_WORKGROUP, array), Spv.SC_WORKGROUP);
        m.name(g, v.name());
        return g;
      });
      case PRIVATE -> privateArrays.computeIfAbsent(var, v -> code.variable(array, v.name() + "_array"));
    };
    if (t.space() == ArrayType.Space.PRIVATE) code.store(storage, m.nullConstant(array));
    int first = code.op(SpirvOp.InBoundsAccessChain, code.pointerTo(t), storage, code.intConstant(0));
    exprs.assign(var, first);
  }

  private int condition(Expr cond) {
    if (cond.type() != Prim.BOOLEAN) throw new IllegalStateException("condition of type " + cond.type());
    return exprs.eval(cond);
  }

  private void branch(If i) {
    int c = condition(i.cond());
    int then = m.id(), end = m.id();
    int otherwise = i.otherwise().isEmpty() ? end : m.id();
    code.branchConditional(c, then, otherwise);
    code.block(then);
    stmt(i.then());
    code.branch(end);
    if (otherwise != end) {
      code.block(otherwise);
      stmt(i.otherwise());
      code.branch(end);
    }
    code.block(end);
  }

  /** {@code for (;;) { body; update }}: Continue jumps to the update, Break past the back edge. */
  private void loop(Loop l) {
    String name = l.label().name();
    int head = m.id(), next = m.id(), end = m.id();
    targets.put(l.label(), new int[] {end, next});
    name(head, name);
    name(next, name + "_continue");
    name(end, name + "_break");
    code.block(head);
    stmt(l.body());
    code.block(next);
    stmt(l.update());
    code.branch(head);
    code.block(end);
  }

  /** OpSwitch to the case blocks, written in order so that a case without a break falls into the next, as in Java. */
  private void cases(Switch sw) {
    if (sw.selector().type() != Prim.INT) throw new IllegalStateException("switch on a " + sw.selector().type());
    int selector = exprs.eval(sw.selector());
    int end = m.id(), otherwise = end;
    String name = sw.label().name();
    targets.put(sw.label(), new int[] {end, 0});
    int[] labels = new int[sw.cases().size()];
    List<Integer> pairs = new ArrayList<>();
    for (int i = 0; i < labels.length; i++) {
      Case c = sw.cases().get(i);
      labels[i] = m.id();
      name(labels[i], name + (c.isDefault() ? "_default" : "_case"));
      if (c.isDefault()) otherwise = labels[i];
      for (int value : c.values()) {
        pairs.add(value);
        pairs.add(labels[i]);
      }
    }
    code.switchTo(selector, otherwise, pairs.stream().mapToInt(Integer::intValue).toArray());
    for (int i = 0; i < labels.length; i++) {
      code.block(labels[i]);
      stmt(sw.cases().get(i).body());
    }
    name(end, name + "_break");
    code.block(end);
  }
}
