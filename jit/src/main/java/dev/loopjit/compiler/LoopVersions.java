// Bounds checks hoisted out of counted loops: a loop runs unchecked where its first and last index are in range, checked otherwise.
package dev.loopjit.compiler;

import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.IrWalk;
import dev.loopjit.ir.Label;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
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
 * two). The rest of the pass checks every access not in {@link #hoisted()} as before.
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

  /** {@code body} with its counted loops versioned, and the accesses the versions prove. */
  static LoopVersions of(Block body, Pass.Context cx, Block[] out) {
    LoopVersions v = new LoopVersions(cx);
    out[0] = v.block(body);
    return v;
  }

  /** The accesses (Load, Store, atomic Call nodes, by identity) in range wherever they run. */
  Set<Object> hoisted() {
    return hoisted;
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
    Set<Object> mine = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Access a : accesses) mine.add(a.node);
    Loop fast = (Loop) copy(l, mine, new HashMap<>());
    // Only conjunctions: a loop that does not start may take either copy, and PoCL 3.1 miscompiles
    // `uniform || varying` as the condition of a branch holding loops in a kernel with a barrier
    // (it took the first work-item's branch for all: LoopVersionsTest, windows that never start).
    Expr pred = null;
    for (Access a : accesses) pred = pred == null ? a.inRange(c) : Access.and(pred, a.inRange(c));
    Loop versioned = new Loop(fast.label(), block(fast.body()), fast.update(), fast.src());
    return new If(pred, new Block(List.of(versioned), l.src()), new Block(List.of(l), l.src()), l.src());
  }

  /** The loop variable and its limit, or null when {@code l} is not a counted loop of the form above. */
  private record Counted(Var q, Expr limit, Set<Var> assigned) {}

  private static Counted counted(Loop l) {
    List<Stmt> body = l.body().stmts();
    if (body.size() < 2 || !(body.get(0) instanceof If test) || !test.otherwise().stmts().isEmpty()
        || test.then().stmts().size() != 1 || !(test.then().stmts().get(0) instanceof Break br) || !br.target().equals(l.label())
        || !(test.cond() instanceof Compare cmp) || cmp.op() != Op.Compare.GE || !(cmp.a() instanceof Read qr) || qr.var().type() != Prim.INT)
      return null;
    Var q = qr.var();
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
    if (assigns.getOrDefault(q, 0) != 1 || !invariant(cmp.b(), assigned)) return null;
    Stmt last = body.get(body.size() - 1);
    boolean inBody = isIncrement(last, q);
    boolean inUpdate = l.update().stmts().stream().anyMatch(s -> isIncrement(s, q));
    return inBody || inUpdate ? new Counted(q, cmp.b(), assigned) : null;
  }

  private static boolean isIncrement(Stmt s, Var q) {
    return s instanceof Assign a && a.var().equals(q) && a.value() instanceof Binary b && b.op() == Op.Binary.ADD
        && b.a() instanceof Read r && r.var().equals(q) && b.b() instanceof Const k && k.type() == Prim.INT && k.longValue() == 1;
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
      Expr first = at(wide(new Read(c.q))), last = at(new Binary(Op.Binary.SUB, wide(c.limit), Const.of(1L)));
      if (stride instanceof Const k && k.longValue() >= 0) return and(ge0(first), lt(last, len));
      if (stride instanceof Const k) return and(ge0(last), lt(first, len));
      return and(and(ge0(first), lt(first, len)), and(ge0(last), lt(last, len)));
    }

    /** {@code base + q·stride}, exact in long. */
    private Expr at(Expr q) {
      Expr step = stride instanceof Const k && k.longValue() == 1 ? q : new Binary(Op.Binary.MUL, q, wide(stride));
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

    private static Expr and(Expr a, Expr b) {
      return new Logic(Op.Logic.AND, a, b);
    }
  }

  /** The accesses of {@code l}'s body (not its update) whose index is linear in the loop variable with everything else unchanged by the loop. */
  private List<Access> accesses(Loop l, Counted c) {
    List<Access> out = new ArrayList<>();
    IrWalk.walk(l.body(), new IrWalk.Visitor() {
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
        if (!(array instanceof Read r) || c.assigned.contains(r.var())) return;
        if (index instanceof Read q && q.var().equals(c.q) && c.limit.equals(new Length(array))) return;   // the pass proves it without help
        Access a = linear(node, array, index, c);
        if (a != null) out.add(a);
      }
    });
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
   * A copy of {@code s} with fresh labels for the loops, switches and labelled blocks it declares,
   * and fresh nodes for the accesses in {@code mine} or already hoisted, which are hoisted.
   */
  private Stmt copy(Stmt s, Set<Object> mine, Map<Label, Label> labels) {
    return switch (s) {
      case Block b -> copyBlock(b, mine, labels);
      case Assign a -> new Assign(a.var(), copy(a.value(), mine), a.src());
      case Store st -> {
        Store n = new Store(st.array(), copy(st.index(), mine), copy(st.value(), mine), st.src());
        if (mine.contains(st) || hoisted.contains(st)) hoisted.add(n);
        yield n;
      }
      case Eval e -> new Eval(copy(e.call(), mine), e.src());
      case Return r -> r.value() == null ? r : new Return(copy(r.value(), mine), r.src());
      case If i -> new If(copy(i.cond(), mine), copyBlock(i.then(), mine, labels), copyBlock(i.otherwise(), mine, labels), i.src());
      case Loop l -> {
        Label fresh = cx.names.label();
        labels.put(l.label(), fresh);
        yield new Loop(fresh, copyBlock(l.body(), mine, labels), copyBlock(l.update(), mine, labels), l.src());
      }
      case Switch sw -> {
        Label fresh = cx.names.label();
        labels.put(sw.label(), fresh);
        yield new Switch(fresh, copy(sw.selector(), mine), sw.cases().stream().map(k -> new Case(k.values(), copyBlock(k.body(), mine, labels))).toList(), sw.src());
      }
      case Labeled l -> {
        Label fresh = cx.names.label();
        labels.put(l.label(), fresh);
        yield new Labeled(fresh, copyBlock(l.body(), mine, labels), l.src());
      }
      case Break br -> new Break(labels.getOrDefault(br.target(), br.target()), br.src());
      case Continue k -> new Continue(labels.getOrDefault(k.target(), k.target()), k.src());
    };
  }

  private Block copyBlock(Block b, Set<Object> mine, Map<Label, Label> labels) {
    List<Stmt> out = new ArrayList<>();
    for (Stmt s : b.stmts()) out.add(copy(s, mine, labels));
    return new Block(out, b.src());
  }

  /** {@code e} with fresh nodes for the hoisted accesses in it (every other node shared). */
  private Expr copy(Expr e, Set<Object> mine) {
    if (!containsAccess(e, mine)) return e;
    Expr n = switch (e) {
      case Load l -> new Load(copy(l.array(), mine), copy(l.index(), mine));
      case Call c -> new Call(c.op(), c.type(), c.args().stream().map(a -> copy(a, mine)).toList());
      case Unary u -> new Unary(u.op(), copy(u.x(), mine));
      case Binary b -> new Binary(b.op(), copy(b.a(), mine), copy(b.b(), mine));
      case Compare c -> new Compare(c.op(), copy(c.a(), mine), copy(c.b(), mine));
      case Logic l -> new Logic(l.op(), copy(l.a(), mine), copy(l.b(), mine));
      case Convert c -> new Convert(c.to(), copy(c.x(), mine));
      case Select s -> new Select(copy(s.cond(), mine), copy(s.a(), mine), copy(s.b(), mine));
      case Invoke i -> new Invoke(i.owner(), i.name(), i.descriptor(), i.type(), i.args().stream().map(a -> copy(a, mine)).toList());
      default -> e;
    };
    if (mine.contains(e) || hoisted.contains(e)) hoisted.add(n);
    return n;
  }

  private boolean containsAccess(Expr e, Set<Object> mine) {
    boolean[] found = {false};
    IrWalk.walk(e, null, new IrWalk.Visitor() {
      @Override
      public void expr(Expr x, Stmt in) {
        found[0] |= mine.contains(x) || hoisted.contains(x);
      }
    });
    return found[0];
  }
}
