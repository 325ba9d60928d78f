// Part of pass "chunk": neighbouring iterations of the innermost dimension run side by side in lanes, so the JVM's JIT vectorises across them.
package dev.loopjit.compiler;

import dev.loopjit.compiler.LoopLoads.Stride;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.IrWalk;
import dev.loopjit.ir.Label;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Rewriter;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.TransposedLoad;
import dev.loopjit.ir.Var;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
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
  /** The most lanes a chunk runs: the length of each lane array. */
  private final int width;
  private final Set<Var> varying = new java.util.LinkedHashSet<>();   // in the order found: the code is byte-stable
  private final Map<Var, Expr> affine = new LinkedHashMap<>();
  private final Map<Var, Var> laneArrays = new LinkedHashMap<>();
  private Block iteration;

  private Lanes(Var x, int width) {
    this.x = x;
    this.width = width;
  }

  /**
   * The lane form of {@code iteration} (whose x index is {@code x}), or null where it does not
   * apply or would not pay. {@code frame} is the label a {@code continue} of the parallel loop breaks.
   */
  static Lanes of(Block iteration, Var x, Label frame) {
    return of(iteration, x, frame, WIDTH);
  }

  /** The same, for at most {@code width} lanes at a time. */
  static Lanes of(Block iteration, Var x, Label frame, int width) {
    Lanes l = analysed(iteration, x, frame, width);
    if (l == null) return null;
    if (l.pays()) l.wide = true;
    else if (!l.jamPays()) return null;
    return l;
  }

  /**
   * The jammed form of {@code iteration} for the {@code coarsen} pass, wherever it keeps Java's
   * meaning (every branch uniform in x, …), whether or not it pays; null where it does not apply.
   */
  static Lanes jam(Block iteration, Var x, Label frame) {
    return analysed(iteration, x, frame, JAM);
  }

  /**
   * {@code iteration} for {@code rows} neighbouring values of {@code y} ({@code y … y + rows - 1}),
   * jammed statement by statement ({@link #jammed}); null where the rows cannot be (a branch on y).
   * What the {@code coarsen} pass and the {@code chunk} pass's rows then run in lanes.
   */
  static Block rowsJammed(Block iteration, Var y, Label frame, int rows, Pass.Context cx) {
    Lanes byRow = jam(iteration, y, frame);
    return byRow == null ? null : byRow.jammed(cx, rows, false);
  }

  private static Lanes analysed(Block iteration, Var x, Label frame, int width) {
    Lanes l = new Lanes(x, width);
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
    return l;
  }

  /**
   * The wide form of {@code iteration} for the {@code coarsen} pass where its loops read memory
   * across x ({@code m[x·cols + j]}): each such loop a block at a time ({@link RowBlocks}), its lanes'
   * rows read into tiles by columns; null where a loop that reads across x cannot be, or none does.
   */
  static Lanes transposed(Block iteration, Var x, Label frame, int width, Pass.Context cx) {
    Lanes l = analysed(iteration, x, frame, width);
    if (l == null || !l.blocksRows(cx)) return null;
    l.wide = true;
    return l;
  }

  /** Loops that read across x, as {@link RowBlocks}; empty outside the transposed form. */
  private final Map<Loop, RowBlocks> blocked = new IdentityHashMap<>();
  /** The columns of {@link #blocked}'s sites, and (while a block's steps are written) the step within the block. */
  private final Map<Var, RowBlocks.Site> columns = new HashMap<>();
  private Var step;

  /** Whether every loop that reads across x is a {@link RowBlocks} (at least one). */
  private boolean blocksRows(Pass.Context cx) {
    boolean[] ok = {true};
    IrWalk.walk(iteration, new IrWalk.Visitor() {
      /** The innermost loops that read across x: blocked (or not, and then refused), not walked into. */
      private final Set<Loop> leaves = java.util.Collections.newSetFromMap(new IdentityHashMap<>());

      @Override
      public void stmt(Stmt s) {
        if (!(s instanceof Loop l)) return;
        if (readsAcross(l) && !IrWalk.anyStmt(l.body(), t -> t instanceof Loop)) {
          leaves.add(l);
          RowBlocks b = RowBlocks.of(l, Lanes.this::acrossLoad, varying, Lanes.this::inline, width, cx);
          if (b == null) ok[0] = false;
          else {
            blocked.put(l, b);
            for (RowBlocks.Site site : b.sites()) {
              columns.put(site.column(), site);
              varying.add(site.column());
            }
          }
        } else if (readsAcrossOutside(l.body()) || readsAcrossOutside(l.update())) {
          ok[0] = false;   // a loop around loops: those are blocked, and it may read nothing across x itself
        }
      }

      @Override
      public boolean descend(Stmt s) {
        return !leaves.contains(s);
      }
    });
    return ok[0] && !blocked.isEmpty();
  }

  private boolean readsAcross(Stmt s) {
    return IrWalk.anyExpr(s, this::acrossLoad);
  }

  /** A load of global memory whose lanes read across x. */
  private boolean acrossLoad(Expr e) {
    return e instanceof Load load && ((ArrayType) load.array().type()).space() == ArrayType.Space.GLOBAL && stride(inline(load.index())) == Stride.OTHER;
  }

  /** Whether {@code b} reads across x other than in the loops inside it. */
  private boolean readsAcrossOutside(Block b) {
    boolean[] across = {false};
    IrWalk.walk(b, new IrWalk.Visitor() {
      @Override
      public boolean descend(Stmt s) {
        return !(s instanceof Loop);
      }

      @Override
      public void expr(Expr e, Stmt in) {
        across[0] |= acrossLoad(e);
      }
    });
    return across[0];
  }

  /**
   * {@code l} a block at a time: while a whole block is left, each site's rows read into its tile
   * by columns, then the block's iterations in order, lane loops reading each column's value from
   * the tile ({@code rows[step·W + lane]}); then the iterations left, as the wide form runs them.
   */
  private Stmt blockedLoop(Loop l, RowBlocks b, Expr lanes, Pass.Context cx) {
    Src at = l.src();
    Label outer = cx.names.label(), inner = cx.names.label();
    Expr k = new Read(b.counter()), limit = b.limit();
    List<Stmt> body = new ArrayList<>();
    // k >= limit || limit - k < BLOCK: a difference that wraps (beyond int) is negative and leaves the rest to the plain loop
    Expr noBlock = new Logic(Op.Logic.OR, new Compare(Op.Compare.GE, k, limit),
        new Compare(Op.Compare.LT, new Binary(Op.Binary.SUB, limit, k), Const.of(RowBlocks.BLOCK)));
    body.add(new If(noBlock, new Block(List.of(new Break(outer, at)), at), Block.EMPTY, at));
    for (RowBlocks.Site site : b.sites()) {
      List<Expr> starts = new ArrayList<>();
      for (int q = 0; q < width; q++) starts.add(new Binary(Op.Binary.ADD, ofLane(site.start(), q), k));
      body.add(new Eval(new TransposedLoad(new Read(site.tile()), site.array(), starts).call(), at));
    }
    Var t = cx.names.fresh("step", Prim.INT);
    body.add(new Assign(t, Const.of(0), at));
    Var outerStep = step;
    step = t;
    Block steps = block(b.steps(), lanes, cx);
    step = outerStep;
    Block stepBody = new Block(List.of(new If(new Compare(Op.Compare.GE, new Read(t), Const.of(RowBlocks.BLOCK)),
        new Block(List.of(new Break(inner, at)), at), Block.EMPTY, at), steps), at);
    body.add(new Loop(inner, stepBody, new Block(List.of(new Assign(t, new Binary(Op.Binary.ADD, new Read(t), Const.of(1)), at)), at), at));
    return new Block(List.of(new Loop(outer, new Block(body, at), Block.EMPTY, at),
        new Loop(l.label(), block(l.body(), lanes, cx), block(l.update(), lanes, cx), at)), at);
  }

  /** {@code e} (affine values inlined) as lane {@code q} computes it. */
  private Expr ofLane(Expr e, int q) {
    return new Rewriter() {
      @Override
      protected Expr expr(Expr y) {
        if (y instanceof Read r && r.var().equals(x)) return q == 0 ? y : new Binary(Op.Binary.ADD, y, Const.of(q));
        if (y instanceof Read r && laneArrays.containsKey(r.var())) return new Load(new Read(laneArrays.get(r.var())), Const.of(q));
        return y;
      }
    }.rewrite(e);
  }

  /** Whether this is the wide form ({@link #allocations}, {@link #body}); else the jammed one ({@link #jammed}). */
  boolean wide() {
    return wide;
  }

  /** The lane arrays to allocate once per chunk, before the loops. */
  List<Stmt> allocations(Pass.Context cx, Src at) {
    List<Stmt> out = new ArrayList<>();
    for (Var v : varying) {
      if (v.equals(x) || affine.containsKey(v) || columns.containsKey(v)) continue;
      Var a = cx.names.fresh(v.name() + "_lanes", new ArrayType((Prim) v.type(), ArrayType.Space.PRIVATE, width));
      laneArrays.put(v, a);
      out.add(new Assign(a, new Alloc((ArrayType) a.type()), at));
    }
    for (RowBlocks b : blocked.values())
      for (RowBlocks.Site site : b.sites()) out.add(new Assign(site.tile(), new Alloc((ArrayType) site.tile().type()), at));
    return out;
  }

  /** The iteration for lanes {@code x … x + lanes - 1}: uniform statements once, the others in a loop over the lanes. */
  Block body(Expr lanes, Pass.Context cx) {
    return body(lanes, cx, false);
  }

  /**
   * The same; with {@code noWrap}, an index that moves one element per lane is written
   * {@code ADD_NO_WRAP(index(x), lane)} ({@link #laneIndex}). The caller makes sure every lane is an
   * iteration of the range.
   */
  Block body(Expr lanes, Pass.Context cx, boolean noWrap) {
    this.frozenX = noWrap ? cx.names.fresh(x.name() + "_base", Prim.INT) : null;
    return block(iteration, lanes, cx);
  }

  private Block block(Block b, Expr lanes, Pass.Context cx) {
    return new Rewriter() {
      @Override
      protected List<Stmt> before(Stmt s) {
        return s instanceof Loop l && blocked.containsKey(l) ? List.of(blockedLoop(l, blocked.get(l), lanes, cx)) : null;
      }

      @Override
      protected List<Stmt> stmts(Stmt s) {
        return List.of(switch (s) {
          case Assign a when affine.containsKey(a.var()) -> Block.EMPTY;
          case Assign a when !varying.contains(a.var()) -> a;
          case Assign a -> perLane(a, lanes, cx);
          case Store st -> perLane(st, lanes, cx);
          default -> s;
        });
      }
    }.rewrite(b);
  }

  /**
   * {@code for (lane = 0; lane < lanes; lane++) s}, with the lane's values. What every lane reads
   * from memory at the same index ({@code a[i·n + k]}) is read once before the loop: the JIT cannot
   * move it out itself, since the loop's stores might (as far as it knows) change it.
   */
  private Stmt perLane(Stmt s, Expr lanes, Pass.Context cx) {
    List<Stmt> before = new ArrayList<>();
    s = hoistUniformLoads(s, before, cx);
    Var lane = cx.names.fresh("lane", Prim.INT);
    Rewriter offsets = laneOffsets(new Read(lane));
    Rewriter r = new Rewriter() {
      @Override
      protected Expr expr(Expr e) {
        if (e instanceof Read rd) {
          if (rd.var().equals(x)) return new Binary(Op.Binary.ADD, rd, new Read(lane));
          if (laneArrays.containsKey(rd.var())) return new Load(new Read(laneArrays.get(rd.var())), new Read(lane));
          RowBlocks.Site site = columns.get(rd.var());   // rows[step·W + lane]
          if (site != null) return new Load(new Read(site.tile()),
              new Binary(Op.Binary.ADD, new Binary(Op.Binary.MUL, new Read(step), Const.of(width)), new Read(lane)));
        }
        return e;
      }
    };
    Stmt one = switch (s) {
      case Assign a -> new Store(new Read(laneArrays.get(a.var())), new Read(lane), laneValue(a.value(), r, offsets), a.src());
      case Store st -> new Store(r.rewrite(inline(st.array())), thaw(r.rewrite(laneIndex(inline(st.index()), new Read(lane), offsets))),
          laneValue(st.value(), r, offsets), st.src());
      default -> throw new IllegalStateException(s.toString());
    };
    Label loop = cx.names.label();
    Src at = s.src();
    before.add(new Assign(lane, Const.of(0), at));
    return new Block(List.of(
        new Block(before, at),
        new Loop(loop, new Block(List.of(
            new If(new Compare(Op.Compare.GE, new Read(lane), lanes), new Block(List.of(new Break(loop, at))), Block.EMPTY, at),
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

  /** Lanes the jammed form interleaves ({@link #jammed(Pass.Context, int, boolean)}). */
  private int copies = JAM;
  /** Set for the {@code noWrap} forms: a unit-stride index of a lane is written {@code ADD_NO_WRAP(index(x), lane)}. */
  private Var frozenX;

  /** The iteration for x … x + JAM - 1, each varying statement once per lane with the lane's scalars; loops and labels renamed. */
  Block jammed(Pass.Context cx) {
    return jammed(cx, JAM, false);
  }

  /**
   * The iteration for x … x + copies - 1, each varying statement once per lane. With
   * {@code noWrap}, an index that moves one element per lane ({@code k·n + x}) is written for lane
   * k as {@code ADD_NO_WRAP(k·n + x, k)}: the same int (Java's + wraps and so would the sum, but a
   * lane's index is an index Java computes, so it does not), with the lane's offset outermost, where
   * a device compiler sees that neighbouring lanes read neighbouring elements. The caller makes sure
   * every lane is an iteration of the range.
   */
  Block jammed(Pass.Context cx, int copies, boolean noWrap) {
    this.copies = copies;
    this.frozenX = noWrap ? cx.names.fresh(x.name() + "_base", Prim.INT) : null;
    Map<Var, Var[]> scalars = new LinkedHashMap<>();
    for (Var v : varying) {
      if (v.equals(x) || affine.containsKey(v)) continue;
      Var[] vs = new Var[copies];
      for (int k = 0; k < copies; k++) vs[k] = cx.names.fresh(v.name() + "_" + k, v.type());
      scalars.put(v, vs);
    }
    return jamBlock(iteration, scalars, new HashMap<>(), cx);
  }

  /** {@code b} jammed: varying statements once per lane; each loop, switch and labelled block with a fresh label. */
  private Block jamBlock(Block b, Map<Var, Var[]> scalars, Map<Label, Label> labels, Pass.Context cx) {
    return new Rewriter() {
      @Override
      protected List<Stmt> before(Stmt s) {
        // a fresh label on the way down, for the breaks and continues inside
        return switch (s) {
          case Loop l -> List.of(new Loop(relabel(l.label()), rewrite(l.body()), rewrite(l.update()), l.src()));
          case Switch sw -> {
            Label fresh = relabel(sw.label());
            yield List.of(new Switch(fresh, sw.selector(), sw.cases().stream().map(c -> new Case(c.values(), rewrite(c.body()))).toList(), sw.src()));
          }
          case Labeled l -> List.of(new Labeled(relabel(l.label()), rewrite(l.body()), l.src()));
          default -> null;
        };
      }

      private Label relabel(Label old) {
        Label fresh = cx.names.label();
        labels.put(old, fresh);
        return fresh;
      }

      @Override
      protected List<Stmt> stmts(Stmt s) {
        return List.of(switch (s) {
          case Assign a when affine.containsKey(a.var()) -> Block.EMPTY;
          case Assign a when !varying.contains(a.var()) -> a;
          case Assign a -> perLane(a, scalars, cx);
          case Store st -> perLane(st, scalars, cx);
          case Break br -> new Break(labels.getOrDefault(br.target(), br.target()), br.src());
          case Continue c -> new Continue(labels.getOrDefault(c.target(), c.target()), c.src());
          default -> s;
        });
      }
    }.rewrite(b);
  }

  /** {@code s} once for each lane, in lane order, after reading what they share. */
  private Stmt perLane(Stmt s, Map<Var, Var[]> scalars, Pass.Context cx) {
    List<Stmt> out = new ArrayList<>();
    s = hoistUniformLoads(s, out, cx);
    for (int k = 0; k < copies; k++) {
      int lane = k;
      Rewriter offsets = laneOffsets(Const.of(lane));
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
        case Assign a -> new Assign(scalars.get(a.var())[lane], laneValue(a.value(), r, offsets), a.src());
        case Store st -> new Store(r.rewrite(inline(st.array())), thaw(r.rewrite(laneIndex(inline(st.index()), Const.of(lane), offsets))),
            laneValue(st.value(), r, offsets), st.src());
        default -> throw new IllegalStateException(s.toString());
      });
    }
    return new Block(out, s.src());
  }

  /** A value as one lane computes it: affine variables inlined, its loads' lane offsets, then the lane's own values ({@code lane}). */
  private Expr laneValue(Expr e, Rewriter lane, Rewriter offsets) {
    return thaw(lane.rewrite(offsets.rewrite(inline(e))));
  }

  /** With {@code noWrap}: each unit-stride load index of lane {@code lane} as {@code ADD_NO_WRAP(index(frozen x), lane)}. */
  private Rewriter laneOffsets(Expr lane) {
    return new Rewriter() {
      @Override
      protected Expr expr(Expr e) {
        return e instanceof Load l ? new Load(l.array(), laneIndex(l.index(), lane, null)) : e;
      }
    };
  }

  /**
   * {@code index} for lane {@code lane}: with {@code noWrap}, where it moves one element per lane,
   * {@code ADD_NO_WRAP(index(x), lane)} over a stand-in for x that the lane rewrite leaves alone
   * ({@link #thaw} puts x back); otherwise as it is, for the lane rewrite to make {@code x + lane}.
   */
  private Expr laneIndex(Expr index, Expr lane, Rewriter inside) {
    Expr rewritten = inside == null ? index : inside.rewrite(index);
    if (frozenX == null || lane instanceof Const k && k.longValue() == 0 || stride(index) != Stride.UNIT) return rewritten;
    Expr frozen = new Rewriter() {
      @Override
      protected Expr expr(Expr e) {
        return e instanceof Read r && r.var().equals(x) ? new Read(frozenX) : e;
      }
    }.rewrite(index);
    return new Call(dev.loopjit.ir.Intrinsic.ADD_NO_WRAP, Prim.INT, List.of(frozen, lane));
  }

  /** {@code e} with the frozen x (see {@link #laneIndex}) back to x itself. */
  private Expr thaw(Expr e) {
    if (frozenX == null) return e;
    return new Rewriter() {
      @Override
      protected Expr expr(Expr y) {
        return y instanceof Read r && r.var().equals(frozenX) ? new Read(x) : y;
      }
    }.rewrite(e);
  }

  /** Jamming pays where a loop inside the iteration does work per lane (a sum along a row). */
  private boolean jamPays() {
    boolean[] found = {false};
    IrWalk.walk(iteration, new IrWalk.Visitor() {
      private int loops;

      @Override
      public void stmt(Stmt s) {
        if (s instanceof Loop) loops++;
        if (loops > 0 && s instanceof Assign a && varying.contains(a.var())) found[0] = true;
      }

      @Override
      public void leave(Stmt s) {
        if (s instanceof Loop) loops--;
      }
    });
    return found[0];
  }

  // ---- analysis ---------------------------------------------------------------------------------

  /** Every branch uniform, every varying value a scalar, nothing that cannot run lane by lane. */
  private boolean laneable(Label frame) {
    for (Var v : varying) if (!(v.type() instanceof Prim)) return false;
    boolean[] ok = {true};
    IrWalk.walk(iteration, new IrWalk.Visitor() {
      @Override
      public void stmt(Stmt s) {
        switch (s) {
          case Assign a -> {
            if (a.value() instanceof Alloc || a.var().type() instanceof ArrayType || effect(a.value())) ok[0] = false;
          }
          case Store st -> {
            if (effect(st.index()) || effect(st.value()) || !(st.array() instanceof Read r) || varying.contains(r.var())) ok[0] = false;
          }
          case Eval e -> ok[0] = false;
          case If i -> {
            if (readsVarying(i.cond()) || effect(i.cond())) ok[0] = false;
          }
          case Switch sw -> {
            if (readsVarying(sw.selector())) ok[0] = false;
          }
          case Break b -> {
            if (b.target().equals(frame)) ok[0] = false;
          }
          case Return r -> ok[0] = false;
          case Block b -> {}
          case Loop l -> {}
          case Labeled l -> {}
          case Continue c -> {}
        }
      }
    });
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
    return LoopLoads.alongXOnly(iteration, true, index -> stride(inline(index)));
  }

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
    List<Stmt> top = b.flat();
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


  /** The varying variables (for tests and the dump). */
  Set<Var> varying() {
    return new HashSet<>(varying);
  }
}
