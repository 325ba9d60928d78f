// Pass "bounds": Java's array bounds checks, on every access not proven in range, reported through a hidden argument; Math.*Exact's throws too.
package dev.loopjit.compiler;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.BoundsSite;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.IrWalk;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Label;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Rewriter;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Var;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A kernel never reads or writes outside an array. Every {@code Load}, {@code Store} and atomic
 * whose index {@link Ranges} does not prove in range is guarded, as Java's {@code xaload} /
 * {@code xastore} are:
 * <ul>
 * <li>{@code a[i] = v} becomes {@code if (0 <= i && i < a.length) a[i] = v; else { report; return; }};
 * <li>a load reads {@code a[ok ? i : 0]} (the runtime gives every buffer at least one element), and
 *     before its statement {@code if (reached && !ok) { report; return; }}, {@code reached} being
 *     the conditions ({@code ?:}, {@code &&}, {@code ||}) under which Java would evaluate it;
 * <li>report: one 64-bit compare-and-set from 0, {@code (long) site << 32 | i & 0xFFFFFFFFL}, into a
 *     hidden {@code long[]} parameter appended to the kernel's ({@link KernelIR#boundsReport()}) —
 *     the first failing work-item wins and no two race (a plain store where the target has no 64-bit
 *     atomics); the runtime zeroes it before the launch and reads it after, and names the access
 *     from the kernel's {@link KernelIR#boundsSites() site table}.
 * </ul>
 * The failing work-item then returns, as Java's exception would end it — except in kernels with
 * barriers after the start, where leaving early is undefined; there it goes on with clamped
 * indices (still never outside an array) and its results are discarded by the runtime anyway.
 * Proven accesses pay nothing: an index that is a {@code @Parallel} loop's variable whose trip
 * count is that array's length, or a counted loop's variable ({@code for (k = 0; k < a.length; k++)}),
 * or a constant into a private or local array (see {@link Ranges}). A counted loop whose indices are
 * linear in its variable runs unchecked where they are in range at its first and last iteration
 * ({@link LoopVersions}), checked otherwise. Targets that get Java's checks
 * for free ({@link Target#boundsChecks()} false) and {@code loopjit.boundsChecks=false} skip the pass.
 */
final class Bounds implements Pass {
  @Override
  public String name() {
    return "bounds";
  }

  @Override
  public KernelIR run(KernelIR ir, Context cx) {
    if (!cx.target.boundsChecks()) {
      // JVM bytecode throws for itself; elsewhere a THROW is reported even with the checks off
      if (cx.target.chunked() || !throwsAnything(ir.body())) return cx.target.signedIndices() ? signed(ir, cx) : ir;
      Var report = cx.names.fresh("bounds_report", ArrayType.global(Prim.LONG));
      Walk w = new Walk(ir, report, cx, !barriersAfterStart(ir.body()), Set.of(), false);
      Block body = new Rewriter() {
        @Override
        protected List<Stmt> stmts(Stmt s) {
          return s instanceof Eval e && isThrow(e) ? List.of(w.thrown(e, false)) : List.of(s);
        }
      }.rewrite(ir.body());
      return ir.withBoundsChecks(new KernelIR.Param(ir.params().size(), report, KernelIR.Param.Kind.ARRAY), w.sites, body);
    }
    Var report = cx.names.fresh("bounds_report", ArrayType.global(Prim.LONG));
    LoopVersions.Versioned versioned = LoopVersions.of(ir.body(), cx);
    Walk w = new Walk(ir, report, cx, !barriersAfterStart(ir.body()), versioned.hoisted(), false);
    Block body = w.block(versioned.body(), Ranges.start(ir.launch(), fixed(ir)), false).block;
    if (w.sites.isEmpty()) return ir;
    KernelIR.Param hidden = new KernelIR.Param(ir.params().size(), report, KernelIR.Param.Kind.ARRAY);
    return ir.withBoundsChecks(hidden, w.sites, body);
  }

  /**
   * The kernel the runtime runs unchecked because it proves every access at launch, with the sums and
   * products of each index it can bound written as signed arithmetic ({@link Ranges#signed}): where
   * the bound's nodes all fit in an int, so do the index's. The bounds go to
   * {@link KernelIR#assumedSites} for the runtime to prove for this kernel before it runs it.
   */
  private static KernelIR signed(KernelIR ir, Context cx) {
    Walk w = new Walk(ir, null, cx, false, Set.of(), true);
    Block body = w.block(ir.body(), Ranges.start(ir.launch(), fixed(ir)), false).block;
    return w.sites.isEmpty() ? ir : ir.withAssumedSites(w.sites, body);
  }

  /**
   * The int variables whose value never changes while the kernel runs, with that value in terms of
   * the parameters: parameters the kernel never assigns, and variables assigned exactly once, in a
   * block whose later statements hold every read of them, from an expression of those, int
   * constants and parameter arrays' lengths (an inlined helper's parameters; {@code blocks =
   * (positions + 7) / 8} inside the parallel loop). A compound value is written
   * {@code value >= 0 ? value : -1}, so that the host reads it as one leaf of a bound
   * ({@link Ranges#upper}) and proves nothing where it is negative.
   */
  private static Map<Var, Expr> fixed(KernelIR ir) {
    Map<Var, List<Expr>> assignments = new HashMap<>();
    Map<Var, Integer> reads = new HashMap<>();
    List<Block> blocks = new ArrayList<>();
    IrWalk.walk(ir.body(), new IrWalk.Visitor() {
      @Override
      public void stmt(Stmt x) {
        if (x instanceof Assign a) assignments.computeIfAbsent(a.var(), v -> new ArrayList<>()).add(a.value());
        if (x instanceof Block b) blocks.add(b);
      }

      @Override
      public void expr(Expr e, Stmt in) {
        if (e instanceof Read r) reads.merge(r.var(), 1, Integer::sum);
      }
    });
    // assigned once, before every read in the same block: they hold the value wherever they are read
    Map<Var, Expr> once = new LinkedHashMap<>();
    for (Block b : blocks)
      for (int i = 0; i < b.stmts().size(); i++)
        if (b.stmts().get(i) instanceof Assign a && a.var().type() == Prim.INT && assignments.get(a.var()).size() == 1
            && readsIn(b.stmts().subList(i + 1, b.stmts().size()), a.var()) == reads.getOrDefault(a.var(), 0))
          once.put(a.var(), a.value());
    Map<Var, Expr> out = new HashMap<>();
    for (KernelIR.Param p : ir.params())
      if (p.kind() == KernelIR.Param.Kind.SCALAR && p.var().type() == Prim.INT && !assignments.containsKey(p.var())) out.put(p.var(), new Read(p.var()));
    for (boolean grew = true; grew; ) {
      grew = false;
      for (var e : once.entrySet()) {
        if (out.containsKey(e.getKey())) continue;
        Expr host = hostForm(e.getValue(), out, ir);
        if (host == null) continue;
        boolean leaf = host instanceof Const || host instanceof Read || host instanceof Length;
        out.put(e.getKey(), leaf ? host : new Select(new Compare(Op.Compare.GE, host, Const.of(0)), host, Const.of(-1)));
        grew = true;
      }
    }
    return out;
  }

  /** How often {@code stmts} read {@code v}. */
  private static int readsIn(List<Stmt> stmts, Var v) {
    int[] n = {0};
    for (Stmt s : stmts)
      IrWalk.walk(s, new IrWalk.Visitor() {
        @Override
        public void expr(Expr e, Stmt in) {
          if (e instanceof Read r && r.var().equals(v)) n[0]++;
        }
      });
    return n[0];
  }

  /** {@code e}'s int value in terms of the task's arguments ({@code out}: the fixed variables' values), or null where it reads anything else. */
  private static Expr hostForm(Expr e, Map<Var, Expr> out, KernelIR ir) {
    return switch (e) {
      case Const k when k.type() == Prim.INT -> k;
      case Read r when out.containsKey(r.var()) -> out.get(r.var());
      case Length l when Ranges.constantLength(l.array()) >= 0 -> Const.of(Ranges.constantLength(l.array()));
      case Length l when l.array() instanceof Read r && ir.params().stream().anyMatch(p -> r.var().equals(p.var())) -> l;
      case Binary b when b.prim() == Prim.INT && switch (b.op()) { case ADD, SUB, MUL, DIV, REM -> true; default -> false; } -> {
        Expr x = hostForm(b.a(), out, ir), y = x == null ? null : hostForm(b.b(), out, ir);
        yield y == null ? null : new Binary(b.op(), x, y);
      }
      case Call c when (c.op() == Intrinsic.MIN || c.op() == Intrinsic.MAX) && c.type() == Prim.INT -> {
        Expr x = hostForm(c.args().get(0), out, ir), y = x == null ? null : hostForm(c.args().get(1), out, ir);
        yield y == null ? null : new Call(c.op(), Prim.INT, List.of(x, y));
      }
      default -> null;
    };
  }

  /** Whether a barrier follows the kernel's first statement (where the uniform pass puts one). */
  /** Whether {@code s} is a {@code THROW} ({@code Math.*Exact}'s ArithmeticException, a {@code Character} call beyond Latin-1). */
  static boolean isThrow(Eval s) {
    return s.call() instanceof Call c && c.op() == Intrinsic.THROW;
  }

  private static boolean throwsAnything(Block body) {
    boolean[] found = {false};
    IrWalk.walk(body, new IrWalk.Visitor() {
      @Override
      public void stmt(Stmt x) {
        found[0] |= x instanceof Eval e && isThrow(e);
      }
    });
    return found[0];
  }

  private static boolean barriersAfterStart(Block body) {
    List<Stmt> stmts = body.stmts();
    for (int i = 0; i < stmts.size(); i++) {
      if (i == 0 && stmts.get(0) instanceof Eval e && isBarrier(e.call())) continue;
      if (IrWalk.anyExpr(stmts.get(i), Bounds::isBarrier)) return true;
    }
    return false;
  }

  private static boolean isBarrier(Expr e) {
    return e instanceof Call c && c.op().isBarrier();
  }

  /** A rewritten block and the facts after it (null: its end is never reached). */
  private record Out(Block block, Ranges after) {}

  /** The walk: facts forward through the statements, guards where they prove nothing. */
  private static final class Walk {
    final KernelIR ir;
    final Var report;
    final Context cx;
    final boolean mayReturn;
    /** Accesses in range wherever they run: the unchecked copies of counted loops ({@link LoopVersions}). */
    final Set<Object> hoisted;
    /** No checks: every access is proven at launch; an index with a bound is written signed and its site assumed ({@link #signed}). */
    final boolean assume;
    final List<BoundsSite> sites = new ArrayList<>();
    /** Facts at each {@code continue} of a loop, for its back edge. */
    final Map<Label, Ranges> continues = new HashMap<>();

    Walk(KernelIR ir, Var report, Context cx, boolean mayReturn, Set<Object> hoisted, boolean assume) {
      this.hoisted = hoisted;
      this.assume = assume;
      this.ir = ir;
      this.report = report;
      this.cx = cx;
      this.mayReturn = mayReturn;
    }

    /** {@code b} under facts {@code r}; {@code dry}: only the facts matter (a loop's fixpoint), no site is numbered. */
    Out block(Block b, Ranges r, boolean dry) {
      List<Stmt> out = new ArrayList<>();
      for (Stmt s : b.stmts()) {
        if (r == null) {   // unreachable after a jump: kept as it is
          out.add(s);
          continue;
        }
        Out o = stmt(s, r, dry);
        out.addAll(o.block.stmts());
        r = o.after;
      }
      return new Out(new Block(out, b.src()), r);
    }

    Out stmt(Stmt s, Ranges r, boolean dry) {
      return switch (s) {
        case Block b -> {
          Out o = block(b, r, dry);
          yield new Out(new Block(List.of(o.block), b.src()), o.after);
        }
        case Assign a -> new Out(guarded(s, r, dry), r.assign(a.var(), a.value()));
        case Store st -> new Out(guarded(s, r, dry), r);
        case Eval e when isThrow(e) -> new Out(thrown(e, dry), r);
        case Eval e -> new Out(guarded(s, r, dry), r);
        case Return ret -> new Out(guarded(s, r, dry), null);
        case Break br -> new Out(one(s), null);
        case Continue c -> {
          continues.merge(c.target(), r, Ranges::meet);
          yield new Out(one(s), null);
        }
        case If i -> {
          Guard g = new Guard(this, r, i.src(), dry);
          Expr cond = g.expr(i.cond(), List.of());
          Out t = block(i.then(), r.assume(i.cond(), true), dry), o = block(i.otherwise(), r.assume(i.cond(), false), dry);
          yield new Out(g.wrap(new If(cond, t.block, o.block, i.src())), Ranges.meet(t.after, o.after));
        }
        case Switch sw -> {
          Guard g = new Guard(this, r, sw.src(), dry);
          Expr sel = g.expr(sw.selector(), List.of());
          Ranges inside = r.forget(assigned(sw));
          List<Case> cases = new ArrayList<>();
          for (Case c : sw.cases()) cases.add(new Case(c.values(), block(c.body(), inside, dry).block));
          yield new Out(g.wrap(new Switch(sw.label(), sel, cases, sw.src())), inside);
        }
        case Labeled l -> {
          Out o = block(l.body(), r, dry);
          yield new Out(one(new Labeled(l.label(), o.block, l.src())), r.forget(assigned(l)));
        }
        case Loop l -> loop(l, r, dry);
      };
    }

    /** A loop: the facts at its head are those of the entry that every way round keeps (a small fixpoint). */
    Out loop(Loop l, Ranges entry, boolean dry) {
      Ranges head = entry;
      boolean stable = false;
      for (int round = 0; round < 6 && !stable; round++) {
        Ranges next = Ranges.meet(entry, backEdge(l, head, true));
        stable = next.equals(head);
        head = next;
      }
      if (!stable) head = entry.forget(assigned(l));
      continues.remove(l.label());
      Out body = block(l.body(), head, dry);
      Ranges back = Ranges.meet(body.after, continues.remove(l.label()));
      Block update = back == null ? l.update() : block(l.update(), back, dry).block;
      return new Out(one(new Loop(l.label(), body.block, update, l.src())), entry.forget(assigned(l)));
    }

    /** The facts at the head of {@code l}'s next iteration, if this one starts with {@code head}. */
    private Ranges backEdge(Loop l, Ranges head, boolean dry) {
      Ranges saved = continues.remove(l.label());
      Out body = block(l.body(), head, dry);
      Ranges back = Ranges.meet(body.after, continues.remove(l.label()));
      if (saved != null) continues.put(l.label(), saved);
      return back == null ? null : block(l.update(), back, dry).after;
    }

    /** A statement with its loads guarded, and itself guarded when it stores or is an atomic. */
    private Block guarded(Stmt s, Ranges r, boolean dry) {
      Guard g = new Guard(this, r, s.src(), dry);
      Stmt x = switch (s) {
        case Assign a when assume && a.var().type() == Prim.INT -> new Assign(a.var(), assumedValue(a, g.expr(a.value(), List.of()), r, dry), a.src());
        case Assign a -> new Assign(a.var(), g.expr(a.value(), List.of()), a.src());
        case Eval e -> new Eval(g.expr(e.call(), List.of()), e.src());
        case Return ret -> ret.value() == null ? ret : new Return(g.expr(ret.value(), List.of()), ret.src());
        case Store st -> {
          Expr index = g.expr(st.index(), List.of()), value = g.expr(st.value(), List.of());
          yield hoisted.contains(st) ? new Store(st.array(), index, value, st.src()) : g.checkedStore(st.array(), index, value, st.src());
        }
        default -> s;
      };
      return g.wrap(x);
    }

    /** The site of an access, numbered from 1; in a dry walk a throwaway. */
    int site(Expr array, Expr index, Ranges r, Src src, boolean dry) {
      return site(array, index, r.upper(index), src, dry);
    }

    /** The site of an access whose index is at most {@code upper} (a bound the host evaluates), numbered from 1. */
    int site(Expr array, Expr index, Expr upper, Src src, boolean dry) {
      if (dry) return 0;
      // a private array has no Java name of its own in the IR (locals alias it): named by its allocation
      String name = array.type() instanceof ArrayType t && t.space() == ArrayType.Space.PRIVATE
          ? "new " + t.element() + "[" + (t.launchSized() ? "n" : t.length()) + "]"
          : array instanceof Read rd ? rd.var().name() : "array";
      int param = -1;
      if (array instanceof Read rd)
        for (KernelIR.Param p : ir.params()) if (rd.var().equals(p.var())) param = p.index();
      BoundsSite site = new BoundsSite(sites.size() + 1, name, param, Ranges.constantLength(array), src, upper);
      // a private array sized at launch: its length, which the launchSized pass writes as the host computes it
      sites.add(array.type() instanceof ArrayType t && t.launchSized() ? site.withSize(new Length(array)) : site);
      return sites.size();
    }

    /** An unchecked access's index, written signed where it has a bound (recorded as an assumed site); else as it is. */
    Expr assumed(Expr array, Expr index, Ranges r, Src src, boolean dry) {
      Expr upper = r.upper(index);
      if (upper == null) return index;
      site(array, index, upper, src, dry);
      return r.signed(index);
    }

    /**
     * An int variable's new value, written signed where it has a bound ({@code int row = p * n + j;}, the
     * base of the indices that follow: LLVM then sees them as linear in p), the bound recorded as an
     * assumed site of no array (length {@code Integer.MAX_VALUE}: only that the bound fits in an int
     * counts). Not a value that reads the variable itself (a loop counter's {@code p + 1}).
     */
    Expr assumedValue(Assign a, Expr value, Ranges r, boolean dry) {
      if (Effects.reads(value, a.var())) return value;   // a counter's v = v + 1 stays as emitters and the work counter recognise it
      Expr signed = r.signed(value);
      if (signed == value) return value;
      if (!dry) sites.add(new BoundsSite(sites.size() + 1, "(index variable " + a.var().name() + ")", -1, Integer.MAX_VALUE, a.src(), r.upper(value)));
      return signed;
    }

    /** A {@code THROW}: its own site (Java's message, the kernel's line) reported as a failing access is. */
    Block thrown(Eval e, boolean dry) {
      List<Expr> args = ((Call) e.call()).args();
      int which = ((Const) args.get(0)).value() instanceof Number n ? n.intValue() : -1;
      int site = 0;
      if (!dry) {
        sites.add(BoundsSite.thrown(sites.size() + 1, ExactMath.message(which), ExactMath.callSite(e.src())));
        site = sites.size();
      }
      return fail(site, args.size() > 1 ? args.get(1) : Const.of(0), e.src());
    }

    /** {@code report; return;} (or the report alone, in a kernel with barriers). */
    Block fail(int site, Expr index, Src src) {
      Expr code = new Binary(Op.Binary.OR, Const.of((long) site << 32),
          new Binary(Op.Binary.AND, new Convert(Prim.LONG, index), Const.of(0xFFFFFFFFL)));
      // One writer wins, the first: a compare-and-set from 0 (a plain store where 64-bit atomics are missing, any one winning)
      Stmt store = cx.target.int64Atomics()
          ? new Eval(new Call(Intrinsic.ATOMIC_CAS, Prim.LONG, List.of(new Read(report), Const.of(0), Const.of(0L), code)), src)
          : new Store(new Read(report), Const.of(0), code, src);
      return new Block(mayReturn ? List.of(store, new Return(null, src)) : List.of(store), src);
    }
  }

  /** The checks of one statement: its loads' clamps, the reports that go before it, a store's or atomic's guard. */
  private static final class Guard {
    final Walk w;
    final Ranges r;
    final Src src;
    final boolean dry;
    final List<Stmt> before = new ArrayList<>();
    /** An atomic's check, which guards the whole statement. */
    Expr atomicOk;
    int atomicSite;
    Expr atomicIndex;

    Guard(Walk w, Ranges r, Src src, boolean dry) {
      this.w = w;
      this.r = r;
      this.src = src;
      this.dry = dry;
    }

    /** {@code e} with its loads clamped; {@code reached}: the conditions under which Java evaluates it. */
    Expr expr(Expr e, List<Expr> reached) {
      return switch (e) {
        case Load l -> {
          Expr index = expr(l.index(), reached);
          // what holds where Java evaluates this load: the statement's facts and the conditions of the
          // ?: and && / || it is under (cond ? 0 : x[i] reads x only where cond is false; every
          // emitter evaluates only the chosen side of a ?: that loads, as Java does)
          Ranges at = r;
          for (Expr c : reached) at = at.assume(c, true);
          Expr ok = w.hoisted.contains(l) ? null : ok(at, l.array(), index);
          if (ok == null) yield new Load(l.array(), index);
          if (w.assume) yield new Load(l.array(), w.assumed(l.array(), index, at, src, dry));
          Expr upper = at.upper(index);   // of the index itself, not of the variable it may be put in below
          if (reached.isEmpty() && !(index instanceof Read || index instanceof Const)) {   // computed once, used four times
            Var t = w.cx.names.fresh("index", Prim.INT);
            before.add(new Assign(t, index, src));
            index = new Read(t);
            ok = ok(l.array(), index);
          }
          int site = w.site(l.array(), index, upper, src, dry);
          Expr failed = new Unary(Op.Unary.NOT, ok);
          for (int i = reached.size() - 1; i >= 0; i--) failed = new Logic(Op.Logic.AND, reached.get(i), failed);
          before.add(new If(failed, w.fail(site, index, src), Block.EMPTY, src));
          yield new Load(l.array(), new Select(ok, index, Const.of(0)));
        }
        case Select s -> {
          Expr c = expr(s.cond(), reached);   // the conditions below use its clamped form: they are evaluated again
          yield new Select(c, expr(s.a(), with(reached, c)), expr(s.b(), with(reached, new Unary(Op.Unary.NOT, c))));
        }
        case Logic l -> {
          Expr a = expr(l.a(), reached);
          Expr when = l.op() == Op.Logic.AND ? a : new Unary(Op.Unary.NOT, a);
          yield new Logic(l.op(), a, expr(l.b(), with(reached, when)));
        }
        case Unary u -> new Unary(u.op(), expr(u.x(), reached));
        case Binary b -> new Binary(b.op(), expr(b.a(), reached), expr(b.b(), reached));
        case Compare c -> new Compare(c.op(), expr(c.a(), reached), expr(c.b(), reached));
        case Convert c -> new Convert(c.to(), expr(c.x(), reached));
        case Call c when (c.op() == Intrinsic.ATOMIC_ADD || c.op() == Intrinsic.ATOMIC_CAS) -> {
          List<Expr> args = new ArrayList<>();
          for (Expr a : c.args()) args.add(expr(a, reached));
          Expr ok = w.hoisted.contains(c) ? null : ok(args.get(0), args.get(1));
          if (ok != null && w.assume) {
            args.set(1, w.assumed(args.get(0), args.get(1), r, src, dry));
            ok = null;
          }
          if (ok != null && atomicOk == null) {
            atomicOk = ok;
            atomicIndex = args.get(1);
            atomicSite = w.site(args.get(0), args.get(1), r, src, dry);
          }
          yield new Call(c.op(), c.type(), args);
        }
        case Call c -> new Call(c.op(), c.type(), c.args().stream().map(a -> expr(a, reached)).toList());
        case Length l -> l;
        case Const c -> c;
        case Read rd -> rd;
        case Alloc a -> a;
        case Invoke i -> i;
      };
    }

    private static List<Expr> with(List<Expr> reached, Expr cond) {
      List<Expr> l = new ArrayList<>(reached);
      l.add(cond);
      return l;
    }

    /** The check of {@code index} into {@code array}, or null when it is proven. */
    Expr ok(Expr array, Expr index) {
      return ok(r, array, index);
    }

    /** The check of {@code index} into {@code array}, or null when {@code facts} prove it. */
    static Expr ok(Ranges facts, Expr array, Expr index) {
      boolean[] p = facts.proven(array, index);
      Expr lower = p[0] ? null : new Compare(Op.Compare.GE, index, Const.of(0));
      Expr upper = p[1] ? null : new Compare(Op.Compare.LT, index, new Length(array));
      if (lower == null) return upper;
      return upper == null ? lower : new Logic(Op.Logic.AND, lower, upper);
    }

    /** {@code array[index] = value}, guarded unless proven. */
    Stmt checkedStore(Expr array, Expr index, Expr value, Src at) {
      Stmt store = new Store(array, index, value, at);
      Expr ok = ok(array, index);
      if (ok == null) return store;
      if (w.assume) return new Store(array, w.assumed(array, index, r, src, dry), value, at);
      int site = w.site(array, index, r, src, dry);
      return new If(ok, new Block(List.of(store), at), w.fail(site, index, at), at);
    }

    /**
     * The statement after the reports of its loads, and under its atomic's check. An atomic whose
     * old value is assigned gives the variable a value on the failing path too (zero, as C's
     * declarations do): a reduction's compare-and-set loop compares it with what it expected, and on
     * PTX an unassigned register may read differently each time round, so the loop would not end.
     */
    Block wrap(Stmt s) {
      Stmt x = s;
      if (atomicOk != null) {
        Block fail = w.fail(atomicSite, atomicIndex, src);
        if (s instanceof Assign a && a.var().type() instanceof Prim p) {
          List<Stmt> failing = new ArrayList<>(List.of(new Assign(a.var(), zero(p), src)));
          failing.addAll(fail.stmts());
          fail = new Block(failing, src);
        }
        x = new If(atomicOk, new Block(List.of(s), src), fail, src);
      }
      if (before.isEmpty()) return new Block(List.of(x), src);
      List<Stmt> all = new ArrayList<>(before);
      all.add(x);
      return new Block(all, src);
    }
  }

  private static Const zero(Prim p) {
    return switch (p) {
      case LONG -> Const.of(0L);
      case FLOAT -> Const.of(0f);
      case DOUBLE -> Const.of(0d);
      case BOOLEAN -> Const.of(false);
      default -> Const.of(0);
    };
  }

  private static Block one(Stmt s) {
    return new Block(List.of(s), s.src());
  }

  /** The int variables {@code s} assigns anywhere inside. */
  private static Set<Var> assigned(Stmt s) {
    return new HashSet<>(IrWalk.assigned(s));
  }
}
