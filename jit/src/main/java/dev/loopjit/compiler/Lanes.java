// Part of pass "chunk": neighbouring iterations of the innermost dimension run side by side in lanes, so the JVM's JIT vectorises across them.
package dev.loopjit.compiler;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
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
 * The chunked target's interchange, the JVM's counterpart of the {@code uniform} pass: up to
 * {@link #WIDTH} consecutive iterations of the innermost {@code @Parallel} dimension (x) run
 * together, statement by statement, each statement that differs between them becoming a loop over
 * the lanes. A matmul's {@code for (k…) acc += a[i·n + k] · b[k·n + j]} becomes
 * {@code for (k…) for (lane…) acc[lane] += a[i·n + k] · b[k·n + x + lane]}: the inner loop reads B
 * by rows and the JIT vectorises it, and each lane still adds its products in k order, so results
 * are bit-identical. It applies only where it pays and keeps Java's meaning: every branch and loop
 * condition is the same for all lanes (uniform); values that differ per lane are scalars; there is
 * no allocation, no atomic or barrier, no {@code continue} of the parallel loop and no return; and
 * the loops inside the iteration read global memory along x (unit stride), none across it.
 * Statements of one iteration keep their order; iterations are independent work-items, so
 * interleaving them is a legal schedule.
 *
 * <p>Where an inner loop reads across x instead (a row per iteration: matrix-vector, dense), lanes
 * would walk memory by columns, so the iterations are jammed instead: {@link #JAM} neighbouring
 * iterations run statement by statement with their own scalars ({@code sum_0 … sum_3}), which gives
 * the JIT independent chains of additions in place of one chain whose every add waits for the last,
 * and reads what they share ({@code x[j]}) once; a chunk's last iterations run alone.
 */
final class Lanes {
  /** Iterations run side by side in lanes (wide form). */
  static final int WIDTH = 1024;

  /** Iterations interleaved statement by statement (jammed form). */
  static final int JAM = 4;

  /** Wide (lane loops the JIT vectorises) or jammed ({@link #JAM} copies of each statement, for independent chains). */
  private boolean wide;

  private final Var x;
  private final Set<Var> varying = new HashSet<>();
  private final Map<Var, Expr> affine = new LinkedHashMap<>();
  private final Map<Var, Var> laneArrays = new LinkedHashMap<>();
  private Block iteration;

  private Lanes(Var x) {
    this.x = x;
  }

  /**
   * The lane form of {@code iteration} (whose x index is {@code x}), or null where it does not
   * apply or would not pay. {@code frame} is the label a {@code continue} of the parallel loop breaks.
   */
  static Lanes of(Block iteration, Var x, Label frame) {
    Lanes l = new Lanes(x);
    l.iteration = l.withoutDeadStores(iteration);
    l.varying.add(x);
    boolean grew = true;
    while (grew) {
      grew = false;
      for (Assign a : assigns(l.iteration))
        if (!l.varying.contains(a.var()) && l.readsVarying(a.value())) grew = l.varying.add(a.var());
    }
    if (!l.laneable(frame)) return null;
    l.substituteAffine();
    if (l.pays()) l.wide = true;
    else if (!l.jamPays()) return null;
    return l;
  }

  /** Whether this is the wide form ({@link #allocations}, {@link #body}); else the jammed one ({@link #jammed}). */
  boolean wide() {
    return wide;
  }

  /** The lane arrays to allocate once per chunk, before the loops. */
  List<Stmt> allocations(Pass.Context cx, Src at) {
    List<Stmt> out = new ArrayList<>();
    for (Var v : varying) {
      if (v.equals(x) || affine.containsKey(v)) continue;
      Var a = cx.names.fresh(v.name() + "_lanes", new ArrayType((Prim) v.type(), ArrayType.Space.PRIVATE, WIDTH));
      laneArrays.put(v, a);
      out.add(new Assign(a, new Alloc((ArrayType) a.type()), at));
    }
    return out;
  }

  /** The iteration for lanes {@code x … x + lanes - 1}: uniform statements once, the others in a loop over the lanes. */
  Block body(Var lanes, Pass.Context cx) {
    return block(iteration, lanes, cx);
  }

  private Block block(Block b, Var lanes, Pass.Context cx) {
    List<Stmt> out = new ArrayList<>();
    for (Stmt s : b.stmts()) out.add(stmt(s, lanes, cx));
    return new Block(out, b.src());
  }

  private Stmt stmt(Stmt s, Var lanes, Pass.Context cx) {
    return switch (s) {
      case Block b -> block(b, lanes, cx);
      case Assign a when affine.containsKey(a.var()) -> Block.EMPTY;
      case Assign a when !varying.contains(a.var()) -> a;
      case Assign a -> perLane(a, lanes, cx);
      case Store st -> perLane(st, lanes, cx);
      case If i -> new If(i.cond(), block(i.then(), lanes, cx), block(i.otherwise(), lanes, cx), i.src());
      case Loop l -> new Loop(l.label(), block(l.body(), lanes, cx), block(l.update(), lanes, cx), l.src());
      case Switch sw -> new Switch(sw.label(), sw.selector(),
          sw.cases().stream().map(c -> new Case(c.values(), block(c.body(), lanes, cx))).toList(), sw.src());
      case Labeled l -> new Labeled(l.label(), block(l.body(), lanes, cx), l.src());
      case Eval e -> e;
      case Break br -> br;
      case Continue c -> c;
      case Return r -> r;
    };
  }

  /**
   * {@code for (lane = 0; lane < lanes; lane++) s}, with the lane's values. What every lane reads
   * from memory at the same index ({@code a[i·n + k]}) is read once before the loop: the JIT cannot
   * move it out itself, since the loop's stores might (as far as it knows) change it.
   */
  private Stmt perLane(Stmt s, Var lanes, Pass.Context cx) {
    List<Stmt> before = new ArrayList<>();
    s = hoistUniformLoads(s, before, cx);
    Var lane = cx.names.fresh("lane", Prim.INT);
    Rewriter r = new Rewriter() {
      @Override
      protected Expr expr(Expr e) {
        if (e instanceof Read rd) {
          if (rd.var().equals(x)) return new Binary(Op.Binary.ADD, rd, new Read(lane));
          if (laneArrays.containsKey(rd.var())) return new Load(new Read(laneArrays.get(rd.var())), new Read(lane));
        }
        return e;
      }
    };
    Stmt one = switch (s) {
      case Assign a -> new Store(new Read(laneArrays.get(a.var())), new Read(lane), r.rewrite(inline(a.value())), a.src());
      case Store st -> new Store(r.rewrite(inline(st.array())), r.rewrite(inline(st.index())), r.rewrite(inline(st.value())), st.src());
      default -> throw new IllegalStateException(s.toString());
    };
    Label loop = cx.names.label();
    Src at = s.src();
    before.add(new Assign(lane, Const.of(0), at));
    return new Block(List.of(
        new Block(before, at),
        new Loop(loop, new Block(List.of(
            new If(new Compare(Op.Compare.GE, new Read(lane), new Read(lanes)), new Block(List.of(new Break(loop, at))), Block.EMPTY, at),
            one)), new Block(List.of(new Assign(lane, new Binary(Op.Binary.ADD, new Read(lane), Const.of(1)), at))), at)), at);
  }

  /** {@code s} with each largest uniform subexpression that loads from memory read into a variable first, in {@code before}. */
  private Stmt hoistUniformLoads(Stmt s, List<Stmt> before, Pass.Context cx) {
    java.util.function.UnaryOperator<Expr> lift = new java.util.function.UnaryOperator<>() {
      @Override
      public Expr apply(Expr e) {
        if (!readsVarying(inline(e)) && Effects.readsMemory(e) && Effects.pure(e) && e.type() instanceof Prim p) {
          Var t = cx.names.fresh("uniform", p.stackType());
          before.add(new Assign(t, e, s.src()));
          return new Read(t);
        }
        return switch (e) {
          case Unary u -> new Unary(u.op(), apply(u.x()));
          case Binary b -> new Binary(b.op(), apply(b.a()), apply(b.b()));
          case Convert c -> new Convert(c.to(), apply(c.x()));
          case Load l -> new Load(l.array(), apply(l.index()));
          case Call c when !c.op().hasEffect() -> new Call(c.op(), c.type(), c.args().stream().map(this).toList());
          default -> e;   // compare, select, logic: evaluated as they stand (a select evaluates one side only)
        };
      }
    };
    return switch (s) {
      case Assign a -> new Assign(a.var(), lift.apply(a.value()), a.src());
      case Store st -> new Store(st.array(), lift.apply(st.index()), lift.apply(st.value()), st.src());
      default -> s;
    };
  }

  /** {@code e} with each affine variable replaced by its value (itself in terms of x and uniform values). */
  private Expr inline(Expr e) {
    return new Rewriter() {
      @Override
      protected Expr expr(Expr x) {
        return x instanceof Read r && affine.containsKey(r.var()) ? affine.get(r.var()) : x;
      }
    }.rewrite(e);
  }

  // ---- jammed form ------------------------------------------------------------------------------

  /** The iteration for x … x + JAM - 1, each varying statement once per lane with the lane's scalars; loops and labels renamed. */
  Block jammed(Pass.Context cx) {
    Map<Var, Var[]> scalars = new LinkedHashMap<>();
    for (Var v : varying) {
      if (v.equals(x) || affine.containsKey(v)) continue;
      Var[] copies = new Var[JAM];
      for (int k = 0; k < JAM; k++) copies[k] = cx.names.fresh(v.name() + "_" + k, v.type());
      scalars.put(v, copies);
    }
    return jamBlock(iteration, scalars, new HashMap<>(), cx);
  }

  private Block jamBlock(Block b, Map<Var, Var[]> scalars, Map<Label, Label> labels, Pass.Context cx) {
    List<Stmt> out = new ArrayList<>();
    for (Stmt s : b.stmts()) out.add(jam(s, scalars, labels, cx));
    return new Block(out, b.src());
  }

  private Stmt jam(Stmt s, Map<Var, Var[]> scalars, Map<Label, Label> labels, Pass.Context cx) {
    return switch (s) {
      case Block b -> jamBlock(b, scalars, labels, cx);
      case Assign a when affine.containsKey(a.var()) -> Block.EMPTY;
      case Assign a when !varying.contains(a.var()) -> a;
      case Assign a -> perLane(a, scalars, cx);
      case Store st -> perLane(st, scalars, cx);
      case If i -> new If(i.cond(), jamBlock(i.then(), scalars, labels, cx), jamBlock(i.otherwise(), scalars, labels, cx), i.src());
      case Loop l -> {
        Label fresh = cx.names.label();
        labels.put(l.label(), fresh);
        yield new Loop(fresh, jamBlock(l.body(), scalars, labels, cx), jamBlock(l.update(), scalars, labels, cx), l.src());
      }
      case Switch sw -> {
        Label fresh = cx.names.label();
        labels.put(sw.label(), fresh);
        yield new Switch(fresh, sw.selector(),
            sw.cases().stream().map(c -> new Case(c.values(), jamBlock(c.body(), scalars, labels, cx))).toList(), sw.src());
      }
      case Labeled l -> {
        Label fresh = cx.names.label();
        labels.put(l.label(), fresh);
        yield new Labeled(fresh, jamBlock(l.body(), scalars, labels, cx), l.src());
      }
      case Break br -> new Break(labels.getOrDefault(br.target(), br.target()), br.src());
      case Continue c -> new Continue(labels.getOrDefault(c.target(), c.target()), c.src());
      case Eval e -> e;
      case Return r -> r;
    };
  }

  /** {@code s} once for each of the JAM lanes, in lane order, after reading what they share. */
  private Stmt perLane(Stmt s, Map<Var, Var[]> scalars, Pass.Context cx) {
    List<Stmt> out = new ArrayList<>();
    s = hoistUniformLoads(s, out, cx);
    for (int k = 0; k < JAM; k++) {
      int lane = k;
      Rewriter r = new Rewriter() {
        @Override
        protected Expr expr(Expr e) {
          if (e instanceof Read rd) {
            if (rd.var().equals(x)) return lane == 0 ? rd : new Binary(Op.Binary.ADD, rd, Const.of(lane));
            if (scalars.containsKey(rd.var())) return new Read(scalars.get(rd.var())[lane]);
          }
          return e;
        }
      };
      out.add(switch (s) {
        case Assign a -> new Assign(scalars.get(a.var())[lane], r.rewrite(inline(a.value())), a.src());
        case Store st -> new Store(r.rewrite(inline(st.array())), r.rewrite(inline(st.index())), r.rewrite(inline(st.value())), st.src());
        default -> throw new IllegalStateException(s.toString());
      });
    }
    return new Block(out, s.src());
  }

  /** Jamming pays where a loop inside the iteration does work per lane (a sum along a row). */
  private boolean jamPays() {
    boolean[] found = {false};
    new Object() {
      void stmt(Stmt s, boolean inLoop) {
        switch (s) {
          case Block b -> b.stmts().forEach(t -> stmt(t, inLoop));
          case Loop l -> { stmt(l.body(), true); stmt(l.update(), true); }
          case If i -> { stmt(i.then(), inLoop); stmt(i.otherwise(), inLoop); }
          case Switch sw -> sw.cases().forEach(c -> stmt(c.body(), inLoop));
          case Labeled l -> stmt(l.body(), inLoop);
          case Assign a -> { if (inLoop && varying.contains(a.var())) found[0] = true; }
          default -> {}
        }
      }
    }.stmt(iteration, false);
    return found[0];
  }

  // ---- analysis ---------------------------------------------------------------------------------

  /** Every branch uniform, every varying value a scalar, nothing that cannot run lane by lane. */
  private boolean laneable(Label frame) {
    for (Var v : varying) if (!(v.type() instanceof Prim)) return false;
    boolean[] ok = {true};
    new Object() {
      void stmt(Stmt s) {
        switch (s) {
          case Block b -> b.stmts().forEach(this::stmt);
          case Assign a -> {
            if (a.value() instanceof Alloc || a.var().type() instanceof ArrayType || effect(a.value())) ok[0] = false;
          }
          case Store st -> {
            if (effect(st.index()) || effect(st.value()) || !(st.array() instanceof Read r) || varying.contains(r.var())) ok[0] = false;
          }
          case Eval e -> ok[0] = false;
          case If i -> {
            if (readsVarying(i.cond()) || effect(i.cond())) ok[0] = false;
            stmt(i.then());
            stmt(i.otherwise());
          }
          case Loop l -> { stmt(l.body()); stmt(l.update()); }
          case Switch sw -> {
            if (readsVarying(sw.selector())) ok[0] = false;
            sw.cases().forEach(c -> stmt(c.body()));
          }
          case Labeled l -> stmt(l.body());
          case Break b -> { if (b.target().equals(frame)) ok[0] = false; }
          case Continue c -> {}
          case Return r -> ok[0] = false;
        }
      }
    }.stmt(iteration);
    return ok[0];
  }

  /**
   * Varying variables assigned once, at the top of the iteration, to a value of x, constants and
   * values that do not change afterwards ({@code j = x}, {@code col = x + offset}) are used as
   * that expression, so that an index stays visibly {@code x + lane + c} for the JIT.
   */
  private void substituteAffine() {
    List<Stmt> top = iteration.stmts();
    Map<Var, Integer> assignCount = new HashMap<>();
    for (Assign a : assigns(iteration)) assignCount.merge(a.var(), 1, Integer::sum);
    for (int k = 0; k < top.size(); k++) {
      if (!(top.get(k) instanceof Assign a) || !varying.contains(a.var()) || assignCount.get(a.var()) != 1) continue;
      if (!Effects.pure(a.value()) || Effects.readsMemory(a.value()) || !(a.value().type() instanceof Prim)) continue;
      boolean stable = true;
      for (Var v : reads(a.value())) {
        if (v.equals(x) || affine.containsKey(v)) continue;
        if (varying.contains(v)) { stable = false; break; }
        // a uniform value it reads must not be assigned after this point
        for (int m = k; m < top.size() && stable; m++) if (Chunks.assigned(top.get(m)).contains(v)) stable = false;
      }
      if (stable) affine.put(a.var(), inline(a.value()));
    }
  }

  /** Pays when a loop in the iteration reads global memory along x and no loop reads it across x. */
  private boolean pays() {
    int[] unit = {0}, other = {0};
    new Object() {
      void stmt(Stmt s, boolean inLoop) {
        switch (s) {
          case Block b -> b.stmts().forEach(t -> stmt(t, inLoop));
          case Loop l -> { stmt(l.body(), true); stmt(l.update(), true); }
          case If i -> { loads(i.cond(), inLoop); stmt(i.then(), inLoop); stmt(i.otherwise(), inLoop); }
          case Switch sw -> sw.cases().forEach(c -> stmt(c.body(), inLoop));
          case Labeled l -> stmt(l.body(), inLoop);
          case Assign a -> loads(a.value(), inLoop);
          case Store st -> { loads(st.index(), inLoop); loads(st.value(), inLoop); }
          default -> {}
        }
      }

      void loads(Expr e, boolean inLoop) {
        if (!inLoop) return;
        new Rewriter() {
          @Override
          protected Expr expr(Expr y) {
            if (y instanceof Load l && ((ArrayType) l.array().type()).space() == ArrayType.Space.GLOBAL) {
              Stride st = stride(inline(l.index()));
              if (st == Stride.UNIT) unit[0]++;
              if (st == Stride.OTHER) other[0]++;
            }
            return y;
          }
        }.rewrite(e);
      }
    }.stmt(iteration, false);
    return unit[0] > 0 && other[0] == 0;
  }

  private enum Stride { NONE, UNIT, OTHER }

  private Stride stride(Expr e) {
    if (!readsVarying(e)) return Stride.NONE;
    return switch (e) {
      case Read r -> r.var().equals(x) ? Stride.UNIT : Stride.OTHER;
      case Binary b when b.op() == Op.Binary.ADD -> {
        Stride l = stride(b.a()), r = stride(b.b());
        yield l == Stride.NONE ? r : r == Stride.NONE ? l : Stride.OTHER;
      }
      case Binary b when b.op() == Op.Binary.SUB && !readsVarying(b.b()) -> stride(b.a());
      default -> Stride.OTHER;
    };
  }

  private boolean readsVarying(Expr e) {
    for (Var v : reads(e)) if (varying.contains(v)) return true;
    return false;
  }

  private static boolean effect(Expr e) {
    boolean[] found = {false};
    new Rewriter() {
      @Override
      protected Expr expr(Expr x) {
        if (x instanceof Call c && c.op().hasEffect() || x instanceof Invoke || x instanceof Alloc) found[0] = true;
        return x;
      }
    }.rewrite(e);
    return found[0];
  }

  private static Set<Var> reads(Expr e) {
    Set<Var> out = new HashSet<>();
    new Rewriter() {
      @Override
      protected Expr expr(Expr x) {
        if (x instanceof Read r) out.add(r.var());
        return x;
      }
    }.rewrite(e);
    return out;
  }

  private static List<Assign> assigns(Stmt s) {
    List<Assign> out = new ArrayList<>();
    new Rewriter() {
      @Override
      protected List<Stmt> stmts(Stmt x) {
        if (x instanceof Assign a) out.add(a);
        return List.of(x);
      }
    }.rewrite(s);
    return out;
  }

  /** The iteration's top level without assignments that a later top-level assignment overwrites unread ({@code j = 0; j = x}). */
  private Block withoutDeadStores(Block b) {
    List<Stmt> top = new ArrayList<>();
    flatten(b.stmts(), top);
    List<Stmt> out = new ArrayList<>();
    for (int k = 0; k < top.size(); k++) {
      if (top.get(k) instanceof Assign a && Effects.pure(a.value()) && !(a.value() instanceof Alloc) && overwrittenUnread(top, k, a.var())) continue;
      out.add(top.get(k));
    }
    return new Block(out, b.src());
  }

  private static boolean overwrittenUnread(List<Stmt> top, int k, Var v) {
    for (int m = k + 1; m < top.size(); m++) {
      Stmt s = top.get(m);
      boolean mentions = Chunks.assigned(s).contains(v) || mentionsRead(s, v);
      if (!mentions) continue;
      return s instanceof Assign a && a.var().equals(v) && !Effects.reads(a.value(), v);
    }
    return false;
  }

  private static boolean mentionsRead(Stmt s, Var v) {
    boolean[] found = {false};
    new Rewriter() {
      @Override
      protected Expr expr(Expr x) {
        if (x instanceof Read r && r.var().equals(v)) found[0] = true;
        return x;
      }
    }.rewrite(s);
    return found[0];
  }

  private static void flatten(List<Stmt> stmts, List<Stmt> out) {
    for (Stmt s : stmts) {
      if (s instanceof Block b) flatten(b.stmts(), out);
      else out.add(s);
    }
  }

  /** The varying variables (for tests and the dump). */
  Set<Var> varying() {
    return new HashSet<>(varying);
  }
}
