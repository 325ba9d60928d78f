// Pass "reduce": each @Reduce array becomes a private accumulator, a work-group tree in local memory, and an atomic combine.
package dev.loopjit.compiler;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Label;
import dev.loopjit.ir.Launch;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Rewriter;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Var;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@code @Reduce} array is updated inside the {@code @Parallel} loop only as
 * {@code out[k] = out[k] OP x} (or {@code out.set(k, out.get(k) OP x)}, or with
 * {@code Math.min/max}), OP one of + * min max on int, long, float or double, or a chain of one OP
 * with {@code out[k]} once among its terms ({@code out[k] + a + b}: combined as {@code out[k] + (a + b)}). Each work-item then
 * accumulates into a private variable starting at OP's identity; after its iteration every
 * work-item of the group writes that into local memory, a tree combines the group's values, and
 * the group's first work-item combines the result into {@code out[k]} with an atomic update — so
 * the whole reduction is one kernel, with no host round trip, and the array's initial value takes
 * part as it does in Java. An {@code out[k] = v} before the loop (TornadoVM's way of giving the
 * initial value inside the kernel) runs once, before any iteration, in the prologue launch
 * ({@link Launch.Loops#prologue()}); the partials of that launch are the identities (-0.0 for a
 * float sum), which leave {@code out[k]} as it is. Float results may differ from the sequential loop by rounding (the
 * order of the additions differs). On a chunked target (the JVM's cores) a work-item's
 * accumulators span its chunk and are combined atomically once per chunk, with no tree.
 */
final class Reductions implements Pass {
  /** Work-items per group at most: the local arrays hold one value each. A power of two. */
  static final int GROUP = 256;

  private record Update(Var array, int index, Op.Binary op, Intrinsic minMax, Prim type) {
    Expr combine(Expr a, Expr b) {
      return minMax != null ? new Call(minMax, type, List.of(a, b)) : new Binary(op, a, b);
    }

    String opName() {
      return minMax != null ? minMax.name().toLowerCase() : op.symbol;
    }
  }

  @Override
  public String name() {
    return "reduce";
  }

  @Override
  public KernelIR run(KernelIR ir, Context cx) {
    List<Var> arrays = new ArrayList<>();
    for (KernelIR.Param p : ir.params()) if (p.reduce() && p.kind() == KernelIR.Param.Kind.ARRAY) arrays.add(p.var());
    if (arrays.isEmpty() || !(ir.launch() instanceof Launch.Loops loops) || loops.frame() == null) return ir;
    Src kernel = new Src(cx.method.owner().getName(), cx.method.name(), -1, null);

    Map<String, Update> targets = new LinkedHashMap<>();
    Map<String, Var> accumulators = new LinkedHashMap<>();
    List<Stmt> body = new ArrayList<>();
    Labeled frame = null;
    for (Stmt s : ir.body().stmts()) {
      if (s instanceof Labeled l && l.label().equals(loops.frame())) {
        frame = l;
        body.add(null); // placeholder, filled below
      } else {
        // before the loop, the prologue (out[k] = v, run once before any iteration) and after it the epilogue
        // (run once after every iteration) may use the array as Java does; nothing else may
        if (!(frame == null ? ParallelLoops.inPrologue(s) : loops.epilogue()))
          forbidUse(s, arrays, frame == null ? "before the @Parallel loop except to set it (out[k] = v, run once before any iteration)"
              : "after the @Parallel loop");
        body.add(s);
      }
    }
    Block inside = ReduceOperands.restore(ReduceForwarding.forward(frame.body(), arrays), arrays, ir.temps());
    inside = new Rewriter() {
      @Override
      protected List<Stmt> stmts(Stmt s) {
        if (s instanceof Store st && st.array() instanceof Read r && arrays.contains(r.var())) {
          // out[k] = out[k]: an update the simplify pass folded to nothing (out[k] + 0, out[k] * 1 on integers)
          if (st.index() instanceof Const k && isElement(st.value(), r.var(), (int) k.longValue())) return List.of();
          Update t = target(st, r.var());
          String key = t.array().name() + "[" + t.index() + "]";
          Update seen = targets.putIfAbsent(key, t);
          if (seen != null && (seen.op() != t.op() || seen.minMax() != t.minMax()))
            throw Refusal.error(st.src(), "@Reduce", "@Reduce element " + key + " is combined with both " + seen.opName() + " and " + t.opName());
          Var acc = accumulators.computeIfAbsent(key, k -> cx.names.fresh(t.array().name() + "_partial", t.type()));
          Expr x = operand(st, t);
          forbidUse(new Eval(x, st.src()), arrays, "in the value it combines");
          return List.of(new Assign(acc, t.combine(new Read(acc), x), st.src()));
        }
        forbidUse(s instanceof Block || s instanceof If || s instanceof Loop || s instanceof Switch || s instanceof Labeled ? null : s,
            arrays, "except as out[k] = out[k] OP x");
        return List.of(s);
      }
    }.rewrite(inside);
    if (targets.isEmpty()) {
      List<Stmt> same = new ArrayList<>();
      for (Stmt s : body) same.add(s != null ? s : new Labeled(frame.label(), inside, frame.src()));
      return ir.withBody(new Block(same, ir.body().src()));
    }
    for (Update t : targets.values()) check(t, cx, kernel);
    Launch.Loops launch = loops;
    if (cx.target.reduceReset()) {
      // TornadoVM's reductions: the prologue launch first sets each updated element to its operator's neutral element
      List<Stmt> resets = new ArrayList<>();
      for (Update t : targets.values()) resets.add(new Store(new Read(t.array()), Const.of(t.index()), resetValue(t), kernel));
      body.addFirst(new If(loops.inPhase(Launch.Loops.PROLOGUE), new Block(resets, kernel), Block.EMPTY, kernel));
      launch = loops.withPrologue();
    }

    if (cx.target.chunked()) return chunked(ir, launch, body, frame, inside, targets, accumulators, cx, kernel);

    // A 1-D reduction loops over its iterations (grid stride): each work-item then adds many
    // elements before the tree, and the runtime launches a few work-items per compute unit.
    boolean gridStride = loops.counts().size() == 1;
    List<Stmt> out = new ArrayList<>();
    for (Stmt s : body) {
      if (s != null) {
        out.add(s);
        continue;
      }
      for (var e : targets.entrySet()) out.add(new Assign(accumulators.get(e.getKey()), identity(e.getValue()), kernel));
      out.add(gridStride ? strided(frame.label(), inside, cx, kernel) : new Labeled(frame.label(), inside, frame.src()));
      out.addAll(tree(targets, accumulators, loops.counts().size(), cx, kernel));
    }
    return ir.withLaunch(launch.withShape(GROUP, gridStride), new Block(out, ir.body().src()));
  }

  /**
   * On a chunked target (the JVM's cores) a work-item is a chunk of iterations run as loops by one
   * thread (pass {@code chunk}): its accumulators span the chunk and it combines them into
   * {@code out[k]} once, atomically; there is no work-group tree and no barrier.
   */
  private static KernelIR chunked(KernelIR ir, Launch.Loops loops, List<Stmt> body, Labeled frame, Block inside,
      Map<String, Update> targets, Map<String, Var> accumulators, Context cx, Src kernel) {
    List<Stmt> out = new ArrayList<>();
    for (Stmt s : body) {
      if (s != null) {
        out.add(s);
        continue;
      }
      for (var e : targets.entrySet()) out.add(new Assign(accumulators.get(e.getKey()), identity(e.getValue()), kernel));
      out.add(new Labeled(frame.label(), inside, frame.src()));
      for (var e : targets.entrySet()) out.addAll(combine(e.getValue(), new Read(accumulators.get(e.getKey())), cx, kernel));
    }
    return ir.withLaunch(loops, new Block(out, ir.body().src()));
  }

  /**
   * The guarded iteration {@code if (id < count) { i = start + id * step; … }} as a loop over
   * {@code k = id, id + globalSize, …}: {@code for (;;) { if (k >= count) break; frame: { … } } update { k += globalSize }}.
   * A continue of the @Parallel loop still leaves the frame, now ending one iteration of the stride loop.
   */
  private static Stmt strided(Label frame, Block guarded, Context cx, Src at) {
    If guard = (If) guarded.stmts().get(0);
    Var k = cx.names.fresh("stride_index", Prim.INT);
    Expr id = geometry(Intrinsic.GLOBAL_ID, 0);
    Block iteration = new Rewriter() {
      @Override
      protected Expr expr(Expr e) {
        return e.equals(id) ? new Read(k) : e;
      }
    }.rewrite(guard.then());
    Expr count = ((Compare) guard.cond()).b();
    Label loop = cx.names.label();
    Block body = new Block(List.of(
        // k < 0: k + globalSize wrapped past Integer.MAX_VALUE, which only a count near it allows
        new If(new Logic(Op.Logic.OR, new Compare(Op.Compare.GE, new Read(k), count), new Compare(Op.Compare.LT, new Read(k), Const.of(0))),
            new Block(List.of(new Break(loop, at))), Block.EMPTY, at),
        new Labeled(frame, iteration, at)));
    return new Block(List.of(new Assign(k, id, at),
        new Loop(loop, body, new Block(List.of(new Assign(k, add(new Read(k), geometry(Intrinsic.GLOBAL_SIZE, 0)), at))), at)));
  }

  /** The reduction an update performs; refuses any other shape. */
  private static Update target(Store st, Var array) {
    Prim type = ((ArrayType) array.type()).element();
    if (!(st.index() instanceof Const k))
      throw Refusal.error(st.src(), "@Reduce", "a @Reduce array is updated at a constant index only (out[0] = out[0] OP x)");
    int index = (int) k.longValue();
    Expr v = st.value();
    // out[k] OP x, and chains of one OP with out[k] once among their terms (out[k] + a + b, Math.max(Math.max(out[k], a), b))
    if (v instanceof Binary b && (b.op() == Op.Binary.ADD || b.op() == Op.Binary.MUL)) {
      Update u = new Update(array, index, b.op(), null, type);
      if (elementTerms(v, u) == 1) return new Update(array, index, b.op(), null, checkType(type, st));
    }
    if (v instanceof Call c && (c.op() == Intrinsic.MIN || c.op() == Intrinsic.MAX) && c.args().size() == 2) {
      Update u = new Update(array, index, null, c.op(), type);
      if (elementTerms(v, u) == 1) return new Update(array, index, null, c.op(), checkType(type, st));
    }
    // out[k] + c with a negative integer constant c: the simplify pass has made it out[k] - |c|
    if (v instanceof Binary b && b.op() == Op.Binary.SUB && b.b() instanceof Const c && !c.type().isFloating() && isElement(b.a(), array, index))
      return new Update(array, index, Op.Binary.ADD, null, checkType(type, st));
    // Math.max(c, out[k]) with a constant c: the simplify pass has made it out[k] <= c ? c : out[k] (min: >=)
    if (v instanceof Select sel && sel.cond() instanceof Compare c && (c.op() == Op.Compare.LE || c.op() == Op.Compare.GE)
        && isElement(c.a(), array, index) && isElement(sel.b(), array, index) && c.b() instanceof Const k2 && sel.a().equals(k2))
      return new Update(array, index, null, c.op() == Op.Compare.LE ? Intrinsic.MAX : Intrinsic.MIN, checkType(type, st));
    throw Refusal.error(st.src(), "@Reduce", "a @Reduce array is updated only as out[" + index + "] = out[" + index
        + "] OP x with OP one of + * Math.min Math.max");
  }

  private static Prim checkType(Prim type, Stmt st) {
    if (type != Prim.INT && type != Prim.LONG && type != Prim.FLOAT && type != Prim.DOUBLE)
      throw Refusal.error(st.src(), "@Reduce", "@Reduce works on int, long, float and double arrays, not " + type);
    return type;
  }

  private static boolean isElement(Expr e, Var array, int index) {
    return e instanceof Load l && l.array() instanceof Read r && r.var().equals(array) && l.index() instanceof Const c && c.longValue() == index;
  }

  private static Expr operand(Store st, Update t) {
    if (st.value() instanceof Select sel) return sel.a();
    if (st.value() instanceof Binary b && b.op() == Op.Binary.SUB) return Fold.fold(new Unary(Op.Unary.NEG, b.b()));
    // the other terms of the chain, combined in their order: out[k] + a + b combines a + b (a reduction orders its operations anyway)
    List<Expr> terms = new ArrayList<>();
    terms(st.value(), t, terms);
    terms.removeIf(e -> isElement(e, t.array(), t.index()));
    Expr x = terms.getFirst();
    for (int i = 1; i < terms.size(); i++) x = t.combine(x, terms.get(i));
    return x;
  }

  /** The terms of {@code e} as a chain of {@code t}'s operation: {@code (a + b) + c} gives a, b, c. */
  private static void terms(Expr e, Update t, List<Expr> out) {
    if (t.minMax() == null && e instanceof Binary b && b.op() == t.op()) {
      terms(b.a(), t, out);
      terms(b.b(), t, out);
    } else if (t.minMax() != null && e instanceof Call c && c.op() == t.minMax() && c.args().size() == 2) {
      terms(c.args().get(0), t, out);
      terms(c.args().get(1), t, out);
    } else {
      out.add(e);
    }
  }

  /** How many terms of {@code e}'s chain are the updated element itself. */
  private static int elementTerms(Expr e, Update t) {
    List<Expr> terms = new ArrayList<>();
    terms(e, t, terms);
    int n = 0;
    for (Expr x : terms) if (isElement(x, t.array(), t.index())) n++;
    return n;
  }

  /** Refuses any other mention of a reduce array in {@code s} (null: nothing to check). */
  private static void forbidUse(Stmt s, List<Var> arrays, String where) {
    if (s == null) return;
    new Rewriter() {
      @Override
      protected Expr expr(Expr e) {
        if (e instanceof Read r && arrays.contains(r.var()))
          throw Refusal.error(s.src(), "@Reduce", "the @Reduce array '" + r.var().name() + "' is used " + where);
        return e;
      }
    }.rewrite(s);
  }

  private static void check(Update t, Context cx, Src at) {
    boolean wide = t.type() == Prim.LONG || t.type() == Prim.DOUBLE;
    if (wide && !cx.target.int64Atomics())
      throw Refusal.error(at, "@Reduce", "a " + t.type() + " reduction needs 64-bit atomics, which this device does not have");
  }

  /**
   * What the reset setting stores before a reduction: the operator's neutral element, with a sum
   * starting from +0 (as a Java program that zeroes its result) rather than the accumulators' −0.
   */
  private static Expr resetValue(Update t) {
    if (t.op() != Op.Binary.ADD) return identity(t);
    return t.type() == Prim.FLOAT ? Const.of(0f) : t.type() == Prim.DOUBLE ? Const.of(0d) : identity(t);
  }

  /**
   * The elements the reset setting sets before each execution, read back from a kernel compiled
   * with it up to this pass: each {@code @Reduce} parameter's constant stores in the prologue
   * (those the program writes there itself too, which it then writes again), for the {@code jvm}
   * device, which runs the Java method and sets them itself.
   */
  static List<Compiler.ReduceReset> resets(KernelIR ir) {
    List<Compiler.ReduceReset> out = new ArrayList<>();
    if (!(ir.launch() instanceof Launch.Loops loops) || !loops.prologue()) return out;
    Expr prologue = loops.inPhase(Launch.Loops.PROLOGUE);
    for (Stmt s : ir.body().stmts())
      if (s instanceof If i && i.cond().equals(prologue))
        for (Stmt t : i.then().stmts())
          if (t instanceof Store st && st.array() instanceof Read r && st.index() instanceof Const k && st.value() instanceof Const v)
            for (KernelIR.Param p : ir.params())
              if (p.reduce() && p.var().equals(r.var())) out.add(new Compiler.ReduceReset(p.index(), (int) k.longValue(), v.value()));
    return out;
  }

  private static Expr identity(Update t) {
    boolean add = t.op() == Op.Binary.ADD, mul = t.op() == Op.Binary.MUL, min = t.minMax() == Intrinsic.MIN;
    return switch (t.type()) {
      case INT -> Const.of(add ? 0 : mul ? 1 : min ? Integer.MAX_VALUE : Integer.MIN_VALUE);
      case LONG -> Const.of(add ? 0L : mul ? 1L : min ? Long.MAX_VALUE : Long.MIN_VALUE);
      case FLOAT -> Const.of(add ? -0f : mul ? 1f : min ? Float.POSITIVE_INFINITY : Float.NEGATIVE_INFINITY);
      default -> Const.of(add ? -0d : mul ? 1d : min ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY);
    };
  }

  /** After the frame, run by every work-item: the tree in local memory, then one atomic combine per group. */
  private static List<Stmt> tree(Map<String, Update> targets, Map<String, Var> accs, int dims, Context cx, Src at) {
    List<Stmt> out = new ArrayList<>();
    Var lid = cx.names.fresh("local_index", Prim.INT), size = cx.names.fresh("local_items", Prim.INT);
    Var stride = cx.names.fresh("stride", Prim.INT);
    Expr id = geometry(Intrinsic.LOCAL_ID, 0), n = geometry(Intrinsic.LOCAL_SIZE, 0);
    for (int d = 1; d < dims; d++) {
      Expr below = geometry(Intrinsic.LOCAL_SIZE, 0);
      for (int e = 1; e < d; e++) below = mul(below, geometry(Intrinsic.LOCAL_SIZE, e));
      id = add(id, mul(geometry(Intrinsic.LOCAL_ID, d), below));
      n = mul(n, geometry(Intrinsic.LOCAL_SIZE, d));
    }
    out.add(new Assign(lid, id, at));
    out.add(new Assign(size, n, at));
    Map<String, Var> scratch = new LinkedHashMap<>();
    for (var e : targets.entrySet()) {
      Var s = cx.names.fresh(e.getValue().array().name() + "_group", new ArrayType(e.getValue().type(), ArrayType.Space.LOCAL, GROUP));
      scratch.put(e.getKey(), s);
      out.add(new Assign(s, new Alloc((ArrayType) s.type()), at));
      out.add(new Store(new Read(s), new Read(lid), new Read(accs.get(e.getKey())), at));
    }
    out.add(barrier(at));
    // stride = the largest power of two below the group size; halves each round
    out.add(new Assign(stride, Const.of(1), at));
    Label grow = cx.names.label();
    out.add(new Loop(grow, new Block(List.of(
        new If(new Compare(Op.Compare.GE, mul(new Read(stride), Const.of(2)), new Read(size)), new Block(List.of(new Break(grow, at))), Block.EMPTY, at),
        new Assign(stride, mul(new Read(stride), Const.of(2)), at))), Block.EMPTY, at));
    List<Stmt> step = new ArrayList<>();
    for (var e : targets.entrySet()) {
      Var s = scratch.get(e.getKey());
      Expr mine = new Load(new Read(s), new Read(lid)), other = new Load(new Read(s), add(new Read(lid), new Read(stride)));
      step.add(new Store(new Read(s), new Read(lid), e.getValue().combine(mine, other), at));
    }
    Label halve = cx.names.label();
    Expr active = new Logic(Op.Logic.AND, new Compare(Op.Compare.LT, new Read(lid), new Read(stride)),
        new Compare(Op.Compare.LT, add(new Read(lid), new Read(stride)), new Read(size)));
    out.add(new Loop(halve, new Block(List.of(
        new If(new Compare(Op.Compare.LE, new Read(stride), Const.of(0)), new Block(List.of(new Break(halve, at))), Block.EMPTY, at),
        new If(active, new Block(step), Block.EMPTY, at),
        barrier(at))), new Block(List.of(new Assign(stride, new Binary(Op.Binary.SHR, new Read(stride), Const.of(1)), at))), at));
    List<Stmt> leader = new ArrayList<>();
    for (var e : targets.entrySet()) leader.addAll(combine(e.getValue(), new Load(new Read(scratch.get(e.getKey())), Const.of(0)), cx, at));
    out.add(new If(new Compare(Op.Compare.EQ, new Read(lid), Const.of(0)), new Block(leader), Block.EMPTY, at));
    return out;
  }

  /** {@code out[k] = out[k] OP value}, atomically: atomic add for integer sums, a compare-and-set loop otherwise. */
  private static List<Stmt> combine(Update t, Expr value, Context cx, Src at) {
    Expr array = new Read(t.array()), index = Const.of(t.index());
    if (t.op() == Op.Binary.ADD && (t.type() == Prim.INT || t.type() == Prim.LONG))
      return List.of(new Eval(new Call(Intrinsic.ATOMIC_ADD, t.type(), List.of(array, index, value)), at));
    Var v = cx.names.fresh(t.array().name() + "_total", t.type());
    Var old = cx.names.fresh(t.array().name() + "_seen", t.type()), prev = cx.names.fresh(t.array().name() + "_was", t.type());
    Label retry = cx.names.label();
    Expr same = new Compare(Op.Compare.EQ, bits(new Read(prev)), bits(new Read(old)));
    return List.of(
        new Assign(v, value, at),
        new Assign(old, new Load(array, index), at),
        new Loop(retry, new Block(List.of(
            new Assign(prev, new Call(Intrinsic.ATOMIC_CAS, t.type(), List.of(array, index, new Read(old), t.combine(new Read(old), new Read(v)))), at),
            new If(same, new Block(List.of(new Break(retry, at))), Block.EMPTY, at),
            new Assign(old, new Read(prev), at))), Block.EMPTY, at));
  }

  private static Expr bits(Expr e) {
    return switch (e.prim()) {
      case FLOAT -> new Call(Intrinsic.FLOAT_BITS, Prim.INT, List.of(e));
      case DOUBLE -> new Call(Intrinsic.DOUBLE_BITS, Prim.LONG, List.of(e));
      default -> e;
    };
  }

  private static Stmt barrier(Src at) {
    return new Eval(new Call(Intrinsic.BARRIER_LOCAL, null, List.of()), at);
  }

  private static Expr geometry(Intrinsic op, int d) {
    return new Call(op, Prim.INT, List.of(Const.of(d)));
  }

  private static Expr add(Expr a, Expr b) {
    return new Binary(Op.Binary.ADD, a, b);
  }

  private static Expr mul(Expr a, Expr b) {
    return new Binary(Op.Binary.MUL, a, b);
  }
}
