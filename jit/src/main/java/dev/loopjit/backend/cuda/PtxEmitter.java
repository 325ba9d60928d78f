// Emits PTX text from lowered IR with strict Java semantics: one .entry per kernel, registers per value, branches and labels.
package dev.loopjit.backend.cuda;

import dev.loopjit.backend.cuda.PtxCode.Reg;
import dev.loopjit.ir.Target;
import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.Alloc;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.KernelArg;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Label;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Var;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Lowered IR to PTX. The output assembles with ptxas for the target's {@code sm_XX} and computes
 * what the Java method computes: integer arithmetic wraps, shifts mask their distance, integer
 * division by 0 gives 0, float operations are IEEE round-to-nearest without contraction into FMA
 * (fast math allows it), float {@code %} is exact, float to integer conversions saturate with NaN
 * to 0, Math.min/max keep Java's NaN and signed-zero rules, and {@code &&}, {@code ||} and
 * {@code ?:} evaluate only what Java evaluates. Known hardware deviations: NaN payloads are not
 * Java's, and float atomic adds on global memory flush subnormals to zero.
 *
 * <p>Parameter ABI (what a runtime passes to cuLaunchKernel, one pointer per argument, in
 * {@code k.args()} order): {@link KernelArg.Array} is {@code .param .u64}, a device pointer
 * ({@code CUdeviceptr}); {@link KernelArg.Length} and {@link KernelArg.Count} are {@code .param
 * .s32}; {@link KernelArg.Scalar} is {@code .s32} (int), {@code .s64} (long), {@code .f32} (float),
 * {@code .f64} (double), and {@code .b32} for boolean, byte, short and char: the runtime passes a
 * 4-byte int holding the value (boolean as 0/1), of which the kernel reads only the low 8 or 16 bits.
 *
 * <pre>{@code
 * String ptx = PtxEmitter.emit(kernel, Target.offline("ptx", "sm_90"));
 * }</pre>
 */
public final class PtxEmitter {
  /**
   * The PTX ISA version written: 7.8 (CUDA 13's ptxas wants at least that for sm_90 and rejects 9.1,
   * docs/ARCHITECTURE.md §6); newer architectures need the version that introduced them (8.6 for sm_100, 8.7 for sm_120).
   */
  static String version(String sm) {
    int n = Integer.parseInt(sm.replaceAll("[^0-9]", ""));
    return n >= 120 ? "8.7" : n >= 100 ? "8.6" : "7.8";
  }

  /** The launch's dynamic shared memory, which local arrays sized at run time share (KernelArg.Local). */
  static final String DYNAMIC_SHARED = "loopjit_dynamic_shared";

  private final PtxCode code = new PtxCode();
  private final PtxExpressions exprs;
  private final Target target;
  /** Break and Continue destinations of each enclosing Loop, Switch and Labeled block: {break, continue or null}. */
  private final Map<Label, String[]> targets = new HashMap<>();

  private PtxEmitter(Target target) {
    this.target = target;
    this.exprs = new PtxExpressions(code, target);
  }

  /** The PTX module of {@code k}: one {@code .visible .entry} named {@code k.name()}, parameters as {@code k.args()}. */
  public static String emit(KernelIR k, Target target) {
    if (!target.variant().matches("sm_\\d+")) throw new IllegalArgumentException("a PTX target is sm_NN, not \"" + target.variant() + "\"");
    return new PtxEmitter(target).module(k);
  }

  /**
   * The intrinsics this emitter computes directly; the front end must replace every other one by
   * inlined Java (the JDK's StrictMath code) before emission. With {@code fastMath}, EXP, LOG,
   * LOG10, SIN, COS and TANH are added, for FLOAT arguments only (see {@link #isNative}).
   */
  public static Set<Intrinsic> nativeIntrinsics(boolean fastMath) {
    return PtxIntrinsics.natives(fastMath);
  }

  /** Whether {@code op} on arguments of {@code type} is emitted directly (else {@link #emit} throws). */
  public static boolean isNative(Intrinsic op, Prim type, boolean fastMath) {
    return PtxIntrinsics.isNative(op, type, fastMath);
  }

  private String module(KernelIR k) {
    StringBuilder params = new StringBuilder();
    List<KernelArg> args = k.args();
    for (int i = 0; i < args.size(); i++) {
      KernelArg a = args.get(i);
      params.append("\t.param .").append(paramType(a)).append(" p").append(i).append(i + 1 < args.size() ? "," : "")
          .append(" // ").append(a.var().name()).append('\n');
      loadParam(a, "p" + i);
    }
    stmt(k.body());
    code.op("ret");

    StringBuilder out = new StringBuilder();
    out.append("// LoopJIT: ").append(k.source() == null ? k.name() : k.source().describe()).append('\n');
    out.append(".version ").append(version(target.variant())).append('\n');
    out.append(".target ").append(target.variant()).append('\n');
    out.append(".address_size 64\n\n");
    if (args.stream().anyMatch(a -> a instanceof KernelArg.Local)) out.append(".extern .shared .align 16 .b8 ").append(DYNAMIC_SHARED).append("[];\n\n");
    String declarations = code.moduleDeclarations();
    if (!declarations.isEmpty()) out.append(declarations).append('\n');
    for (Map.Entry<Var, String> v : exprs.variables().entrySet())
      out.append("// ").append(v.getValue()).append(" = ").append(v.getKey().name()).append(" (").append(v.getKey().type()).append(")\n");
    out.append(".visible .entry ").append(k.name()).append("(\n").append(params).append(")\n{\n");
    out.append(code.body());
    out.append("}\n");
    return out.toString();
  }

  private static String paramType(KernelArg a) {
    return switch (a) {
      case KernelArg.Array x -> "u64";
      case KernelArg.Local x -> "u64";
      case KernelArg.Computed x -> "s32";
      case KernelArg.Length x -> "s32";
      case KernelArg.Count x -> "s32";
      case KernelArg.Scalar x -> switch (scalarType(x)) {
        case INT -> "s32";
        case LONG -> "s64";
        case FLOAT -> "f32";
        case DOUBLE -> "f64";
        case BOOLEAN, BYTE, SHORT, CHAR -> "b32";
        case HALF -> throw new IllegalStateException("half scalar argument " + x.var());
      };
    };
  }

  private static Prim scalarType(KernelArg.Scalar s) {
    if (!(s.var().type() instanceof Prim p)) throw new IllegalStateException("scalar argument " + s.var() + " has type " + s.var().type());
    return p;
  }

  private void loadParam(KernelArg a, String name) {
    String v = exprs.var(a.var());
    switch (a) {
      case KernelArg.Array x -> {
        if (!(x.var().type() instanceof ArrayType t) || t.space() != ArrayType.Space.GLOBAL)
          throw new IllegalStateException("array argument " + x.var() + " has type " + x.var().type());
        // The runtime passes a generic device pointer; ld/st.global want a global-window address.
        String generic = code.reg(Reg.LONG);
        code.op("ld.param.u64 " + generic + ", [" + name + "]");
        code.op("cvta.to.global.u64 " + v + ", " + generic);
      }
      case KernelArg.Length x -> code.op("ld.param.s32 " + v + ", [" + name + "]");
      case KernelArg.Computed x -> code.op("ld.param.s32 " + v + ", [" + name + "]");
      case KernelArg.Count x -> code.op("ld.param.s32 " + v + ", [" + name + "]");
      case KernelArg.Local x -> {
        // A slice of the launch's dynamic shared memory: its base plus the byte offset the runtime passes.
        String offset = code.reg(Reg.LONG), base = code.reg(Reg.LONG);
        code.op("ld.param.u64 " + offset + ", [" + name + "]");
        code.op("mov.u64 " + base + ", " + DYNAMIC_SHARED);
        code.op("add.s64 " + v + ", " + base + ", " + offset);
      }
      case KernelArg.Scalar x -> {
        switch (scalarType(x)) {
          case INT -> code.op("ld.param.s32 " + v + ", [" + name + "]");
          case LONG -> code.op("ld.param.s64 " + v + ", [" + name + "]");
          case FLOAT -> code.op("ld.param.f32 " + v + ", [" + name + "]");
          case DOUBLE -> code.op("ld.param.f64 " + v + ", [" + name + "]");
          // Little-endian: the low bytes of the 4-byte slot come first; loading just those with
          // extension makes the value right whatever the runtime left in the upper bytes.
          case BYTE -> code.op("ld.param.s8 " + v + ", [" + name + "]");
          case SHORT -> code.op("ld.param.s16 " + v + ", [" + name + "]");
          case CHAR -> code.op("ld.param.u16 " + v + ", [" + name + "]");
          case BOOLEAN -> {
            String b = code.reg(Reg.INT);
            code.op("ld.param.u8 " + b + ", [" + name + "]");
            code.op("setp.ne.s32 " + v + ", " + b + ", 0");
          }
          case HALF -> throw new IllegalStateException("half scalar argument " + x.var());
        }
      }
    }
  }

  private void stmt(Stmt s) {
    switch (s) {
      case Block b -> b.stmts().forEach(this::stmt);
      case Assign a -> assign(a.var(), a.value());
      case Store st -> exprs.store(st.array(), st.index(), st.value());
      case Eval e -> exprs.effect(e.call());
      case If i -> branch(i);
      case Loop l -> loop(l);
      case Switch sw -> cases(sw);
      case Labeled l -> {
        String end = code.label(l.label().name() + "_end");
        targets.put(l.label(), new String[] {end, null});
        stmt(l.body());
        code.at(end);
      }
      case Break b -> code.op("bra " + jump(b.target(), 0, "break"));
      case Continue c -> code.op("bra " + jump(c.target(), 1, "continue"));
      case Return r -> {
        if (r.value() != null) throw new IllegalStateException("a kernel returns no value");
        code.op("ret");
      }
    }
  }

  private String jump(Label target, int kind, String what) {
    String[] t = targets.get(target);
    if (t == null || t[kind] == null) throw new IllegalStateException(what + " " + target + " outside of a statement it may leave");
    return t[kind];
  }

  private void assign(Var var, Expr value) {
    if (!(value instanceof Alloc a)) {
      // An array variable holds an address in its own state space, so only an array of that space may be assigned.
      boolean sameKind = var.type() instanceof ArrayType vt ? value.type() instanceof ArrayType at && at.space() == vt.space()
          : Reg.of(value.type()) == Reg.of(var.type());
      PtxExpressions.require(sameKind, "assignment of a " + value.type() + " to " + var + " of type " + var.type());
      String v = exprs.eval(value);
      exprs.move(Reg.of(var.type()), exprs.var(var), v);
      return;
    }
    ArrayType t = a.type();
    if (t.length() < 0) throw new IllegalStateException("new " + t + " needs a constant length");
    long bytes = (long) t.length() * t.element().bytes();
    String d = exprs.var(var);
    switch (t.space()) {
      case GLOBAL -> throw new IllegalStateException("a kernel cannot allocate global memory: new " + t);
      // One array per work-group, not initialised (KernelContext's local arrays are not zeroed).
      case LOCAL -> code.op("mov.u64 " + d + ", " + code.array(".shared", "shared", bytes));
      case PRIVATE -> {
        code.op("mov.u64 " + d + ", " + code.array(".local", "private", bytes));
        zero(d, PtxCode.padded(bytes));
      }
    }
  }

  /** Java's new array is zeroed, every time the allocation runs. */
  private void zero(String base, long bytes) {
    String zero = code.reg(Reg.LONG), at = code.reg(Reg.LONG), limit = code.reg(Reg.LONG), more = code.reg(Reg.PRED);
    String loop = code.label("zero");
    code.op("mov.s64 " + zero + ", 0");
    code.op("mov.s64 " + at + ", " + base);
    code.op("add.s64 " + limit + ", " + base + ", " + bytes);
    code.at(loop);
    code.op("st.local.u64 [" + at + "], " + zero);
    code.op("add.s64 " + at + ", " + at + ", 8");
    code.op("setp.lt.u64 " + more + ", " + at + ", " + limit);
    code.op("@" + more + " bra " + loop);
  }

  private String condition(Expr cond) {
    PtxExpressions.require(Reg.of(cond.type()) == Reg.PRED, "condition of type " + cond.type());
    return exprs.eval(cond);
  }

  private void branch(If i) {
    String p = condition(i.cond()), end = code.label("endif");
    if (i.otherwise().isEmpty()) {
      code.op("@!" + p + " bra " + end);
      stmt(i.then());
    } else {
      String otherwise = code.label("else");
      code.op("@!" + p + " bra " + otherwise);
      stmt(i.then());
      code.op("bra " + end);
      code.at(otherwise);
      stmt(i.otherwise());
    }
    code.at(end);
  }

  /** {@code for (;;) { body; update }}: Continue jumps to the update, Break past the back edge. */
  private void loop(Loop l) {
    String name = l.label().name();
    String head = code.label(name), next = code.label(name + "_continue"), end = code.label(name + "_break");
    targets.put(l.label(), new String[] {end, next});
    code.at(head);
    stmt(l.body());
    code.at(next);
    stmt(l.update());
    code.op("bra " + head);
    code.at(end);
  }

  /** A compare chain to the case labels, then the case bodies in order, so that cases fall through as in Java. */
  private void cases(Switch sw) {
    PtxExpressions.require(Reg.of(sw.selector().type()) == Reg.INT, "switch on a " + sw.selector().type());
    String selector = exprs.eval(sw.selector()), name = sw.label().name();
    String end = code.label(name + "_break"), otherwise = end;
    targets.put(sw.label(), new String[] {end, null});
    String[] labels = new String[sw.cases().size()];
    for (int i = 0; i < labels.length; i++) {
      Case c = sw.cases().get(i);
      labels[i] = code.label(name + (c.isDefault() ? "_default" : "_case"));
      if (c.isDefault()) otherwise = labels[i];
      for (int value : c.values()) {
        String p = code.reg(Reg.PRED);
        code.op("setp.eq.s32 " + p + ", " + selector + ", " + value);
        code.op("@" + p + " bra " + labels[i]);
      }
    }
    code.op("bra " + otherwise);
    for (int i = 0; i < labels.length; i++) {
      code.at(labels[i]);
      stmt(sw.cases().get(i).body());
    }
    code.at(end);
  }
}
