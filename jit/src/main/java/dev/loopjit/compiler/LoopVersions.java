// Bounds checks hoisted out of counted loops: a loop runs unchecked where its first and last index are in range, checked otherwise.
package dev.loopjit.compiler;

import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.IrWalk;
import dev.loopjit.ir.Label;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Rewriter;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Var;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Loop versioning for the {@code bounds} pass, as HotSpot's loop predication does for Java. A
 * counted loop {@code for (; q < limit; q++)} whose accesses index {@code I + q·c} ({@code I},
 * {@code c} and the array unchanged by the loop) becomes
 * <pre>
 * if (every such index is in range at q and at limit - 1) loop, those accesses unchecked
 * else loop, as it was (checked by the pass, failing where Java fails)
 * </pre>
 * The endpoints are computed in {@code long}: an index linear in q lies between its values at the
 * first and the last iteration, and when that exact value is within an array its {@code int}
 * computation (which wraps modulo 2³²) gives it too. An access that the loop may skip (under an
 * {@code if}) is tested anyway: where it would be out of range the checked loop runs, so nothing
 * changes but speed. Only the fast copy's loops are versioned in turn (one copy per nesting level, not
 * two). The rest of the pass checks every access not in {@link Versioned#hoisted()} as before.
 *
 * <p>A counted loop here: its body starts {@code if (q >= limit) break}, with {@code limit} read from
 * variables the loop does not assign; {@code q} is assigned once in the loop, {@code q = q + 1}, as
 * the body's last statement or in the update; accesses in the update are not hoisted.
 */
final class LoopVersions {
  private final Pass.Context cx;
  /** The Load, Store and atomic Call nodes of fast copies: in range whenever they run. */
  private final Set<Object> hoisted = Collections.newSetFromMap(new IdentityHashMap<>());

  private LoopVersions(Pass.Context cx) {
    this.cx = cx;
  }

  /**
   * A body with its counted loops versioned.
   *
   * @param hoisted the accesses (Load, Store, atomic Call nodes, by identity) in range wherever they run
   */
  record Versioned(Block body, Set<Object> hoisted) {}

  /** {@code body} with its counted loops versioned, and the accesses the versions prove. */
  static Versioned of(Block body, Pass.Context cx) {
    LoopVersions v = new LoopVersions(cx);
    return new Versioned(v.block(body), v.hoisted);
  }

  private Block block(Block b) {
    List<Stmt> out = new ArrayList<>();
    for (Stmt s : b.stmts()) out.add(stmt(s));
    return new Block(out, b.src());
  }

  private Stmt stmt(Stmt s) {
    return switch (s) {
      case Block b -> block(b);
      case If i -> new If(i.cond(), block(i.then()), block(i.otherwise()), i.src());
      case Switch sw -> new Switch(sw.label(), sw.selector(), sw.cases().stream().map(c -> new Case(c.values(), block(c.body()))).toList(), sw.src());
      case Labeled l -> new Labeled(l.label(), block(l.body()), l.src());
      case Loop l -> loop(l);
      default -> s;
    };
  }

  /** A counted loop with accesses to hoist as {@code if (pred) fast else l}; any other loop with its inner loops versioned. */
  private Stmt loop(Loop l) {
    Counted c = counted(l);
    List<Access> accesses = c == null ? List.of() : accesses(l, c);
    if (accesses.isEmpty()) return new Loop(l.label(), block(l.body()), l.update(), l.src());
    Map<Object, Access> mine = new IdentityHashMap<>();
    for (Access a : accesses) mine.put(a.node, a);
    Loop fast = (Loop) copy(l, new Copy(mine, c), new HashMap<>());
    // Only conjunctions: a loop that does not start may take either copy, and PoCL 3.1 miscompiles
    // `uniform || varying` as the condition of a branch holding loops in a kernel with a barrier
    // (it took the first work-item's branch for all: LoopVersionsTest, windows that never start).
    Expr pred = null;
    for (Access a : accesses) pred = pred == null ? a.inRange(c) : Access.and(pred, a.inRange(c));
    Loop versioned = new Loop(fast.label(), block(fast.body()), fast.update(), fast.src());
    return new If(pred, new Block(List.of(versioned), l.src()), new Block(List.of(l), l.src()), l.src());
  }

  /** The loop variable and its limit, or null when {@code l} is not a counted loop of the form above. */
  private record Counted(Var q, Expr limit, Set<Var> assigned, Map<Var, Integer> assignments) {}

  private static Counted counted(Loop l) {
    List<Stmt> body = l.body().stmts();
    LoopExit exit = LoopExit.of(l);
    if (body.size() < 2 || exit == null) return null;
    Var q = exit.counter();
    Map<Var, Integer> assigns = new HashMap<>();
    IrWalk.Visitor count = new IrWalk.Visitor() {
      @Override
      public void stmt(Stmt x) {
        if (x instanceof Assign a) assigns.merge(a.var(), 1, Integer::sum);
      }
    };
    IrWalk.walk(l.body(), count);
    IrWalk.walk(l.update(), count);
    Set<Var> assigned = new HashSet<>(assigns.keySet());
    if (assigns.getOrDefault(q, 0) != 1 || !invariant(exit.limit(), assigned)) return null;
    boolean increments = LoopExit.isIncrement(body.get(body.size() - 1), q) || l.update().stmts().stream().anyMatch(s -> LoopExit.isIncrement(s, q));
    return increments ? new Counted(q, exit.limit(), assigned, assigns) : null;
  }

  /** Whether {@code e} has the same value throughout the loop: variables it does not assign, constants, lengths, int arithmetic that cannot trap. */
  private static boolean invariant(Expr e, Set<Var> assigned) {
    return switch (e) {
      case Const k -> k.type() == Prim.INT;
      case Read r -> r.var().type() == Prim.INT && !assigned.contains(r.var());
      case Length len -> len.array() instanceof Read r && !assigned.contains(r.var());
      case Binary b -> (b.op() == Op.Binary.ADD || b.op() == Op.Binary.SUB || b.op() == Op.Binary.MUL) && b.prim() == Prim.INT
          && invariant(b.a(), assigned) && invariant(b.b(), assigned);
      case Call c -> (c.op() == Intrinsic.MIN || c.op() == Intrinsic.MAX) && c.type() == Prim.INT && c.args().stream().allMatch(a -> invariant(a, assigned));
      default -> false;
    };
  }

  /**
   * An access {@code array[I + q·c]} of the loop's body: {@code node} the Load, Store or atomic Call,
   * {@code base} the sum of the index's terms other than {@code q·c}, {@code stride} c.
   */
  private record Access(Object node, Expr array, Expr base, Expr stride) {
    /** {@code first and last index in range}, in long arithmetic. */
    Expr inRange(Counted c) {
      Expr len = Ranges.constantLength(array) >= 0 ? Const.of((long) Ranges.constantLength(array)) : wide(new Length(array));
      Expr q0 = wide(new Read(c.q)), q1 = new Binary(Op.Binary.SUB, wide(c.limit), Const.of(1L));
      Expr first = at(q0), last = at(q1);
      Expr ends = stride instanceof Const k && k.longValue() >= 0 ? and(ge0(first), lt(last, len))
          : stride instanceof Const ? and(ge0(last), lt(first, len))
          : and(and(ge0(first), lt(first, len)), and(ge0(last), lt(last, len)));
      if (isOne(stride)) return ends;
      return and(ends, and(anInt(new Binary(Op.Binary.MUL, q0, wide(stride))), anInt(new Binary(Op.Binary.MUL, q1, wide(stride)))));
    }

    /**
     * The index as the unchecked copy computes it: {@code base + q·stride} with a signed (no-wrap) add
     * and multiply — the predicate has shown that both stay within int from the first iteration to
     * the last (each is linear in q), so a device compiler may see the index as linear in q. The
     * base's own terms keep Java's wrapping arithmetic: their sum is the same int either way.
     */
    Expr signedIndex(Counted c) {
      Expr step = isOne(stride) ? new Read(c.q) : new Call(Intrinsic.MUL_NO_WRAP, Prim.INT, List.of(new Read(c.q), stride));
      return base instanceof Const k && k.longValue() == 0 ? step : new Call(Intrinsic.ADD_NO_WRAP, Prim.INT, List.of(base, step));
    }

    private static boolean isOne(Expr e) {
      return e instanceof Const k && k.longValue() == 1;
    }

    private static Expr anInt(Expr x) {
      return and(new Compare(Op.Compare.GE, x, Const.of((long) Integer.MIN_VALUE)), new Compare(Op.Compare.LE, x, Const.of((long) Integer.MAX_VALUE)));
    }

    /** {@code base + q·stride}, exact in long. */
    private Expr at(Expr q) {
      Expr step = isOne(stride) ? q : new Binary(Op.Binary.MUL, q, wide(stride));
      return base instanceof Const k && k.longValue() == 0 ? step : new Binary(Op.Binary.ADD, wide(base), step);
    }

    private static Expr wide(Expr i) {
      return i instanceof Const k ? Const.of(k.longValue()) : new Convert(Prim.LONG, i);
    }

    private static Expr ge0(Expr x) {
      return new Compare(Op.Compare.GE, x, Const.of(0L));
    }

    private static Expr lt(Expr x, Expr len) {
      return new Compare(Op.Compare.LT, x, len);
    }

    static Expr and(Expr a, Expr b) {
      return new Logic(Op.Logic.AND, a, b);
    }
  }

  /**
   * The accesses of {@code l}'s body (not its update) whose index is linear in the loop variable with
   * everything else unchanged by the loop. A variable the body assigns once, at its top level, from
   * such an expression or an invariant one ({@code int row = p * n;}) stands for that expression in
   * the statements after it: it holds this iteration's value there.
   */
  private List<Access> accesses(Loop l, Counted c) {
    List<Access> out = new ArrayList<>();
    Map<Var, Expr> derived = new HashMap<>();
    Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>()), twice = Collections.newSetFromMap(new IdentityHashMap<>());
    Rewriter expand = new Rewriter() {
      @Override
      protected Expr expr(Expr e) {
        return e instanceof Read r && derived.containsKey(r.var()) ? derived.get(r.var()) : e;
      }
    };
    IrWalk.Visitor visit = new IrWalk.Visitor() {
      @Override
      public void stmt(Stmt x) {
        if (x instanceof Store st) add(x, st.array(), st.index());
      }

      @Override
      public void expr(Expr e, Stmt in) {
        if (e instanceof Load ld) add(e, ld.array(), ld.index());
        if (e instanceof Call call && (call.op() == Intrinsic.ATOMIC_ADD || call.op() == Intrinsic.ATOMIC_CAS)) add(e, call.args().get(0), call.args().get(1));
      }

      void add(Object node, Expr array, Expr index) {
        if (!seen.add(node)) twice.add(node);   // one node in two places, perhaps on both sides of a variable's assignment: not hoisted
        if (!(array instanceof Read r) || c.assigned.contains(r.var())) return;
        if (index instanceof Read q && q.var().equals(c.q) && c.limit.equals(new Length(array))) return;   // the pass proves it without help
        Access a = linear(node, array, expand.rewrite(index), c);
        if (a != null) out.add(a);
      }
    };
    for (Stmt s : l.body().stmts()) {
      IrWalk.walk(s, visit);
      if (s instanceof Assign a && a.var().type() == Prim.INT && !a.var().equals(c.q) && c.assignments.get(a.var()) == 1) {
        Expr value = expand.rewrite(a.value());
        if (invariant(value, c.assigned) || linear(null, null, value, c) != null) derived.put(a.var(), value);
      }
    }
    out.removeIf(a -> twice.contains(a.node));
    return out;
  }

  /** {@code index} as {@code base + q·stride}, or null. */
  private static Access linear(Object node, Expr array, Expr index, Counted c) {
    List<Expr> terms = new ArrayList<>();
    terms(index, terms);
    Expr stride = null, base = null;
    for (Expr t : terms) {
      Expr s = strideOf(t, c);
      if (s != null) {
        if (stride != null) return null;
        stride = s;
      } else if (invariant(t, c.assigned)) {
        base = base == null ? t : new Binary(Op.Binary.ADD, base, t);
      } else {
        return null;
      }
    }
    return stride == null ? null : new Access(node, array, base == null ? Const.of(0) : base, stride);
  }

  private static void terms(Expr e, List<Expr> out) {
    if (e instanceof Binary b && b.op() == Op.Binary.ADD && b.prim() == Prim.INT) {
      terms(b.a(), out);
      terms(b.b(), out);
    } else {
      out.add(e);
    }
  }

  /** c when {@code t} is {@code q}, {@code q·c} or {@code c·q} with c unchanged by the loop; else null. */
  private static Expr strideOf(Expr t, Counted c) {
    if (t instanceof Read r && r.var().equals(c.q)) return Const.of(1);
    if (t instanceof Binary b && b.op() == Op.Binary.MUL && b.prim() == Prim.INT) {
      if (b.a() instanceof Read r && r.var().equals(c.q) && invariant(b.b(), c.assigned)) return b.b();
      if (b.b() instanceof Read r && r.var().equals(c.q) && invariant(b.a(), c.assigned)) return b.a();
    }
    return null;
  }

  /**
   * What a copy rewrites: the accesses this loop hoists ({@code mine}: their index becomes
   * {@link Access#signedIndex}). Accesses hoisted by an enclosing loop keep their index and stay hoisted.
   */
  private record Copy(Map<Object, Access> mine, Counted loop) {
    boolean hoists(Object node) {
      return mine.containsKey(node);
    }
  }

  /** A copy of {@code s} with fresh labels for the loops, switches and labelled blocks it declares, and the rewrites of {@code cp}. */
  private Stmt copy(Stmt s, Copy cp, Map<Label, Label> labels) {
    return switch (s) {
      case Block b -> copyBlock(b, cp, labels);
      case Assign a -> new Assign(a.var(), copy(a.value(), cp), a.src());
      case Store st -> {
        Expr index = cp.hoists(st) ? cp.mine.get(st).signedIndex(cp.loop) : copy(st.index(), cp);
        Store n = new Store(st.array(), index, copy(st.value(), cp), st.src());
        if (cp.hoists(st) || hoisted.contains(st)) hoisted.add(n);
        yield n;
      }
      case Eval e -> new Eval(copy(e.call(), cp), e.src());
      case Return r -> r.value() == null ? r : new Return(copy(r.value(), cp), r.src());
      case If i -> new If(copy(i.cond(), cp), copyBlock(i.then(), cp, labels), copyBlock(i.otherwise(), cp, labels), i.src());
      case Loop l -> {
        Label fresh = cx.names.label();
        labels.put(l.label(), fresh);
        yield new Loop(fresh, copyBlock(l.body(), cp, labels), copyBlock(l.update(), cp, labels), l.src());
      }
      case Switch sw -> {
        Label fresh = cx.names.label();
        labels.put(sw.label(), fresh);
        yield new Switch(fresh, copy(sw.selector(), cp), sw.cases().stream().map(k -> new Case(k.values(), copyBlock(k.body(), cp, labels))).toList(), sw.src());
      }
      case Labeled l -> {
        Label fresh = cx.names.label();
        labels.put(l.label(), fresh);
        yield new Labeled(fresh, copyBlock(l.body(), cp, labels), l.src());
      }
      case Break br -> new Break(labels.getOrDefault(br.target(), br.target()), br.src());
      case Continue k -> new Continue(labels.getOrDefault(k.target(), k.target()), k.src());
    };
  }

  private Block copyBlock(Block b, Copy cp, Map<Label, Label> labels) {
    List<Stmt> out = new ArrayList<>();
    for (Stmt s : b.stmts()) out.add(copy(s, cp, labels));
    return new Block(out, b.src());
  }

  /** {@code e} with fresh nodes for the hoisted accesses in it (every other node shared). */
  private Expr copy(Expr e, Copy cp) {
    if (!containsAccess(e, cp)) return e;
    Expr n = switch (e) {
      case Load l when cp.hoists(l) -> new Load(l.array(), cp.mine.get(l).signedIndex(cp.loop));
      case Load l -> new Load(copy(l.array(), cp), copy(l.index(), cp));
      case Call c when cp.hoists(c) -> {
        List<Expr> args = new ArrayList<>();
        for (int k = 0; k < c.args().size(); k++) args.add(k == 1 ? cp.mine.get(c).signedIndex(cp.loop) : copy(c.args().get(k), cp));
        yield new Call(c.op(), c.type(), args);
      }
      case Call c -> new Call(c.op(), c.type(), c.args().stream().map(a -> copy(a, cp)).toList());
      case Unary u -> new Unary(u.op(), copy(u.x(), cp));
      case Binary b -> new Binary(b.op(), copy(b.a(), cp), copy(b.b(), cp));
      case Compare c -> new Compare(c.op(), copy(c.a(), cp), copy(c.b(), cp));
      case Logic l -> new Logic(l.op(), copy(l.a(), cp), copy(l.b(), cp));
      case Convert c -> new Convert(c.to(), copy(c.x(), cp));
      case Select s -> new Select(copy(s.cond(), cp), copy(s.a(), cp), copy(s.b(), cp));
      case Invoke i -> new Invoke(i.owner(), i.name(), i.descriptor(), i.type(), i.args().stream().map(a -> copy(a, cp)).toList());
      default -> e;
    };
    if (cp.hoists(e) || hoisted.contains(e)) hoisted.add(n);
    return n;
  }

  private boolean containsAccess(Expr e, Copy cp) {
    return IrWalk.anyExpr(e, x -> cp.hoists(x) || hoisted.contains(x));
  }
}
