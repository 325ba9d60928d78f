// Pass "chunk" (chunked targets: the JVM's cores): a work-item runs a contiguous chunk of the @Parallel range as plain counted loops.
package dev.loopjit.compiler;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.IrWalk;
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
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * On a {@link Target#chunked() chunked} target a work-item is not one iteration but a contiguous
 * chunk of them: work-item {@code g} of {@code G} in dimension d runs iterations
 * {@code [count·g/G, count·(g+1)/G)}, as plain counted loops (x innermost), so that the JVM's JIT
 * sees the loops it optimises. The guarded iteration the {@code parallel} pass made,
 * {@code frame: if (id < count) { i = start + id·step; … }}, becomes
 *
 * <pre>
 * lo_x = count_x·id/G; hi_x = count_x·(id+1)/G; …
 * chunk: { for (y = lo_y; y &lt; hi_y; y++) for (x = lo_x; x &lt; hi_x; x++) frame: { i = start + x·step; … } }
 * </pre>
 *
 * The statements before the nest run once per chunk, as they run once per work-item on a device,
 * unless an iteration could see what an earlier iteration of its chunk left in a variable (it
 * reads a variable before assigning it, and assigns it) or in a private array: then they run at
 * the start of every iteration, and a parameter the iteration assigns gets a copy, so that each
 * iteration starts as a work-item does. After this pass the kernel's parallel frame ({@link Launch.Loops#frame}) is the chunk,
 * so a reduction's partial result spans the chunk ({@code reduce}). A prologue or epilogue launch
 * (every count -1 or -2, {@link Launch.Loops#prologue}) is one chunk of no iterations that runs
 * the statements of its phase once. Where it keeps Java's meaning
 * and pays, the innermost dimension runs in {@link Lanes}: up to {@link Lanes#WIDTH} iterations
 * side by side, so that a matmul's inner loop reads along x and the JIT vectorises it. Where the
 * kernel has a y dimension and {@value #ROWS} rows of it can run jammed in that form (their
 * branches the same for every row), the chunk runs in column strips of {@value #STRIP} lanes, each
 * strip down the chunk's rows {@value #ROWS} at a time (the rows share what they read along x),
 * the last rows one at a time:
 *
 * <pre>
 * for (x = lo_x; x &lt; hi_x; x += min(STRIP, hi_x - x)) {
 *   for (y = lo_y; hi_y - y &gt;= ROWS; y += ROWS) { lanes = min(STRIP, hi_x - x); rows y … y + 3, lanes x … }
 *   for (; y &lt; hi_y; y++) { lanes = min(STRIP, hi_x - x); row y, lanes x … }
 * }
 * </pre>
 */
final class Chunks implements Pass {
  @Override
  public String name() {
    return "chunk";
  }

  @Override
  public KernelIR run(KernelIR ir, Context cx) {
    if (!cx.target.chunked() || !(ir.launch() instanceof Launch.Loops loops) || loops.frame() == null) return ir;
    List<Stmt> top = ir.body().stmts();
    int at = ParallelLoops.frameIndex(ir, loops);
    if (at < 0) throw new IllegalStateException("no parallel frame " + loops.frame() + " in " + ir.name());
    Labeled frame = (Labeled) top.get(at);
    If guard = ParallelLoops.guardOf(frame);
    if (guard == null) throw new IllegalStateException("the parallel frame of " + ir.name() + " is not a guarded iteration");
    Src src = frame.src();
    int dims = loops.counts().size();
    Var[] item = new Var[dims];
    for (int d = 0; d < dims; d++) item[d] = cx.names.fresh("item_" + "xyz".charAt(d), Prim.INT);
    Block iteration = new Rewriter() {
      @Override
      protected Expr expr(Expr e) {
        if (e instanceof Call c && c.op() == Intrinsic.GLOBAL_ID && c.args().get(0) instanceof Const d) return new Read(item[(int) d.longValue()]);
        return e;
      }
    }.rewrite(guard.then());

    // The statements before the nest run once per chunk (outer). Those in the prologue
    // (if (count_x == -1) …) never run per iteration: the prologue launch has one chunk and no
    // iterations. With everyIteration the others run again in each iteration.
    List<Stmt> before = top.subList(0, at), outer = new ArrayList<>(before);
    List<Stmt> prelude = new ArrayList<>(before.stream().filter(s -> !ParallelLoops.inPrologue(s)).toList());
    boolean everyIteration = carries(prelude, iteration);
    if (everyIteration) {
      // parameters the iteration assigns get a copy, made again at the start of every iteration
      Map<Var, Var> copies = new HashMap<>();
      Set<Var> assigned = assigned(iteration);
      for (KernelIR.Param p : ir.params())
        if (p.kind() == KernelIR.Param.Kind.SCALAR && assigned.contains(p.var())) copies.put(p.var(), cx.names.fresh(p.var().name() + "_item", p.var().type()));
      if (!copies.isEmpty()) {
        List<Stmt> start = new ArrayList<>();
        for (var e : copies.entrySet()) start.add(new Assign(e.getValue(), new Read(e.getKey()), src));
        Rewriter rename = renamer(copies);
        outer = new ArrayList<>(start);
        for (Stmt s : before) outer.addAll(rename.rewrite(s));   // the prologue reads the copies too
        for (Stmt s : prelude) start.addAll(rename.rewrite(s));
        prelude = start;
        iteration = rename.rewrite(iteration);
      }
    }

    Lanes lanes = everyIteration || reduces(ir) ? null : Lanes.of(iteration, item[0], frame.label());
    List<Stmt> chunk = new ArrayList<>();
    Var[] lo = new Var[dims], hi = new Var[dims];
    for (int d = 0; d < dims; d++) {
      Var count = loops.countVars().get(d);
      lo[d] = cx.names.fresh("chunk_start_" + "xyz".charAt(d), Prim.INT);
      hi[d] = cx.names.fresh("chunk_end_" + "xyz".charAt(d), Prim.INT);
      chunk.add(new Assign(lo[d], bound(count, geometry(Intrinsic.GLOBAL_ID, d), d), src));
      chunk.add(new Assign(hi[d], bound(count, new Binary(Op.Binary.ADD, geometry(Intrinsic.GLOBAL_ID, d), Const.of(1)), d), src));
    }
    List<Stmt> inner = new ArrayList<>();
    if (everyIteration) inner.addAll(relabelled(prelude, cx));   // a second copy of the statements before the nest: labels of its own
    Expr step = Const.of(1);
    Lanes rows = null;
    if (lanes != null && !lanes.wide()) {
      // Lanes.JAM iterations of x interleaved while that many are left, then one at a time
      Var jam = cx.names.fresh("step", Prim.INT);
      inner.add(new If(new Compare(Op.Compare.GE, new Binary(Op.Binary.SUB, new Read(hi[0]), new Read(item[0])), Const.of(Lanes.JAM)),
          new Block(List.of(new Assign(jam, Const.of(Lanes.JAM), src), lanes.jammed(cx)), src),
          new Block(List.of(new Assign(jam, Const.of(1), src), new Labeled(frame.label(), iteration, src)), src), src));
      step = new Read(jam);
    } else if (lanes != null && (rows = rows(iteration, item, frame, cx)) != null) {
      // column strips of STRIP lanes, each down the chunk's rows ROWS at a time, then the rows left one at a time
      lanes = Lanes.of(iteration, item[0], frame.label(), STRIP);
      chunk.addAll(rows.allocations(cx, src));
      chunk.addAll(lanes.allocations(cx, src));
      Expr strip = new Call(Intrinsic.MIN, Prim.INT, List.of(Const.of(STRIP), new Binary(Op.Binary.SUB, new Read(hi[0]), new Read(item[0]))));
      Var wide = cx.names.fresh("lanes", Prim.INT), narrow = cx.names.fresh("lanes", Prim.INT);
      Label rowsLabel = cx.names.label(), restLabel = cx.names.label();
      List<Stmt> down = new ArrayList<>();
      down.add(new Assign(item[1], new Read(lo[1]), src));
      down.add(new Loop(rowsLabel, new Block(List.of(
          new If(new Compare(Op.Compare.LT, new Binary(Op.Binary.SUB, new Read(hi[1]), new Read(item[1])), Const.of(ROWS)),
              new Block(List.of(new Break(rowsLabel, src))), Block.EMPTY, src),
          new Assign(wide, strip, src),
          new Labeled(cx.names.label(), rows.body(new Read(wide), cx), src))),
          new Block(List.of(new Assign(item[1], new Binary(Op.Binary.ADD, new Read(item[1]), Const.of(ROWS)), src))), src));
      down.add(new Loop(restLabel, new Block(List.of(
          new If(new Compare(Op.Compare.GE, new Read(item[1]), new Read(hi[1])), new Block(List.of(new Break(restLabel, src))), Block.EMPTY, src),
          new Assign(narrow, strip, src),
          new Labeled(frame.label(), lanes.body(new Read(narrow), cx), src))),
          new Block(List.of(new Assign(item[1], new Binary(Op.Binary.ADD, new Read(item[1]), Const.of(1)), src))), src));
      inner.addAll(down);
      step = strip;
    } else if (lanes != null) {
      // up to Lanes.WIDTH iterations of x side by side; the step is the number of lanes, so x never passes hi
      chunk.addAll(lanes.allocations(cx, src));
      Var width = cx.names.fresh("lanes", Prim.INT);
      inner.add(new Assign(width, new Call(Intrinsic.MIN, Prim.INT,
          List.of(Const.of(Lanes.WIDTH), new Binary(Op.Binary.SUB, new Read(hi[0]), new Read(item[0])))), src));
      inner.add(new Labeled(frame.label(), lanes.body(new Read(width), cx), src));
      step = new Read(width);
    } else {
      inner.add(new Labeled(frame.label(), iteration, src));
    }
    Stmt nest = new Block(inner, src);
    for (int d = 0; d < dims; d++) {
      if (rows != null && d == 1) continue;   // the strips run the rows inside
      nest = loop(item[d], lo[d], hi[d], d == 0 ? step : Const.of(1), nest, cx, src);
    }
    chunk.add(nest);
    Label wrapper = cx.names.label();

    List<Stmt> body = new ArrayList<>();
    body.addAll(outer);
    body.add(new Labeled(wrapper, new Block(chunk, src), src));
    body.addAll(top.subList(at + 1, top.size()));
    return ir.withLaunch(new Launch.Loops(loops.counts(), loops.countVars(), wrapper, loops.maxGroupSize(), loops.gridStride(),
        loops.prologue(), loops.epilogue()),
        new Block(body, ir.body().src()));
  }

  /**
   * Rows of y run together in the wide form: {@value #ROWS} iterations of y jammed, each lane array
   * per row, so that the rows share each load that does not depend on y (a matmul's row of B), as
   * the {@code coarsen} pass's lanes do on OpenCL CPUs.
   */
  static final int ROWS = 4;

  /**
   * The lanes of a strip when rows run together: the chunk runs its columns a strip at a time, each
   * strip down all the chunk's rows, so that what the strip reads of B stays in the cache. Measured
   * on jvm-mt's naive matmul (2-core AMD EPYC, AVX-512, 16 floats a vector, fastest of 5, GFLOP/s at
   * n = 1024 / 2048 / 1000): 32 lanes 121 / 75 / 106, 64 142 / 96 / 77, 128 133 / 95 / 70, 256 123 / 92 / 69.
   */
  static final int STRIP = 64;

  /**
   * The wide form of {@value #ROWS} rows of {@code iteration} jammed (their lanes {@link #STRIP}
   * at most), or null where the kernel has one dimension, the rows cannot be jammed (a branch on y)
   * or the jammed rows are not the wide form.
   */
  private static Lanes rows(Block iteration, Var[] item, Labeled frame, Context cx) {
    Block jammed = item.length < 2 ? null : Lanes.rowsJammed(iteration, item[1], frame.label(), ROWS, cx);
    Lanes rows = jammed == null ? null : Lanes.of(jammed, item[0], frame.label(), STRIP);
    return rows != null && rows.wide() ? rows : null;
  }

  /** A copy of {@code stmts} whose loops, switches and labelled blocks have fresh labels (a label names one statement). */
  private static List<Stmt> relabelled(List<Stmt> stmts, Context cx) {
    Map<Label, Label> fresh = new HashMap<>();
    for (Stmt s : stmts) IrWalk.walk(s, new IrWalk.Visitor() {
      @Override
      public void stmt(Stmt x) {
        switch (x) {
          case Loop l -> fresh.put(l.label(), cx.names.label());
          case Switch sw -> fresh.put(sw.label(), cx.names.label());
          case Labeled l -> fresh.put(l.label(), cx.names.label());
          default -> {}
        }
      }
    });
    Rewriter r = new Rewriter() {
      @Override
      protected List<Stmt> stmts(Stmt x) {
        return List.of(switch (x) {
          case Loop l -> new Loop(fresh.get(l.label()), l.body(), l.update(), l.src());
          case Switch sw -> new Switch(fresh.get(sw.label()), sw.selector(), sw.cases(), sw.src());
          case Labeled l -> new Labeled(fresh.get(l.label()), l.body(), l.src());
          case Break b -> new Break(fresh.getOrDefault(b.target(), b.target()), b.src());
          case Continue c -> new Continue(fresh.getOrDefault(c.target(), c.target()), c.src());
          default -> x;
        });
      }
    };
    List<Stmt> out = new ArrayList<>();
    for (Stmt s : stmts) out.addAll(r.rewrite(s));
    return out;
  }

  /** {@code item = lo; for (;;) { if (item >= hi) break; body } update { item += step }}. */
  private static Stmt loop(Var item, Var lo, Var hi, Expr step, Stmt body, Context cx, Src src) {
    Label l = cx.names.label();
    return new Block(List.of(
        new Assign(item, new Read(lo), src),
        new Loop(l, new Block(List.of(
            new If(new Compare(Op.Compare.GE, new Read(item), new Read(hi)), new Block(List.of(new Break(l, src))), Block.EMPTY, src),
            body)), new Block(List.of(new Assign(item, new Binary(Op.Binary.ADD, new Read(item), step), src))), src)), src);
  }

  /** Whether the kernel has {@code @Reduce} parameters (their partial results are the reduce pass's, per chunk, not per lane). */
  private static boolean reduces(KernelIR ir) {
    for (KernelIR.Param p : ir.params()) if (p.reduce()) return true;
    return false;
  }

  /**
   * {@code (int) ((long) count · (long) id / (long) G)}: a chunk boundary, exact for any count below
   * 2^31; the global size G is at least 1, so the division needs no {@code legalise}.
   */
  private static Expr bound(Var count, Expr id, int d) {
    Expr product = new Binary(Op.Binary.MUL, new Convert(Prim.LONG, new Read(count)), new Convert(Prim.LONG, id));
    return new Convert(Prim.INT, new Call(Intrinsic.DIV_UNCHECKED, Prim.LONG, List.of(product, new Convert(Prim.LONG, geometry(Intrinsic.GLOBAL_SIZE, d)))));
  }

  private static Expr geometry(Intrinsic op, int d) {
    return new Call(op, Prim.INT, List.of(Const.of(d)));
  }

  /**
   * Whether an iteration could see a value an earlier iteration of its chunk left: it reads a
   * variable before assigning it (on some path) and assigns it somewhere, or stores into a private
   * array it did not allocate.
   */
  static boolean carries(List<Stmt> prelude, Block iteration) {
    Set<Var> exposed = new HashSet<>();
    new Exposure(exposed).stmt(iteration, new HashSet<>());
    Set<Var> assigned = assigned(iteration);
    for (Var v : exposed) if (assigned.contains(v)) return true;
    Set<Var> allocatedBefore = new HashSet<>();
    for (Stmt s : prelude)
      new Rewriter() {
        @Override
        protected List<Stmt> stmts(Stmt x) {
          if (x instanceof Assign a && a.var().type() instanceof ArrayType t && t.space() != ArrayType.Space.GLOBAL) allocatedBefore.add(a.var());
          return List.of(x);
        }
      }.rewrite(s);
    boolean[] storesIntoShared = {false};
    new Rewriter() {
      @Override
      protected List<Stmt> stmts(Stmt x) {
        if (x instanceof Store st && st.array() instanceof Read r && allocatedBefore.contains(r.var())) storesIntoShared[0] = true;
        return List.of(x);
      }
    }.rewrite(iteration);
    return storesIntoShared[0];
  }

  /** The variables {@code stmts}, run in order, may read before assigning them (conservatively, as {@link #carries}). */
  static Set<Var> exposed(List<Stmt> stmts) {
    Set<Var> exposed = new HashSet<>(), da = new HashSet<>();
    Exposure e = new Exposure(exposed);
    for (Stmt s : stmts) e.stmt(s, da);
    return exposed;
  }

  /** Every variable {@code s} assigns. */
  static Set<Var> assigned(Stmt s) {
    return ParallelLoops.assigned(s);
  }

  private static Rewriter renamer(Map<Var, Var> copies) {
    return new Rewriter() {
      @Override
      protected Expr expr(Expr e) {
        return e instanceof Read r && copies.containsKey(r.var()) ? new Read(copies.get(r.var())) : e;
      }

      @Override
      protected List<Stmt> stmts(Stmt s) {
        return s instanceof Assign a && copies.containsKey(a.var()) ? List.of(new Assign(copies.get(a.var()), a.value(), a.src())) : List.of(s);
      }
    };
  }

  /**
   * The reads that may see a value from before the statement ran: a definite-assignment walk in
   * program order, conservative (what a loop, a labelled block or a switch assigns is not counted
   * as assigned after it; a branch that jumps away still counts in the meet).
   */
  private record Exposure(Set<Var> exposed) {
    void stmt(Stmt s, Set<Var> da) {
      switch (s) {
        case Block b -> b.stmts().forEach(x -> stmt(x, da));
        case Assign a -> {
          reads(a.value(), da);
          da.add(a.var());
        }
        case Store st -> { reads(st.array(), da); reads(st.index(), da); reads(st.value(), da); }
        case Eval e -> reads(e.call(), da);
        case If i -> {
          reads(i.cond(), da);
          Set<Var> a = new HashSet<>(da), b = new HashSet<>(da);
          stmt(i.then(), a);
          stmt(i.otherwise(), b);
          a.retainAll(b);
          da.addAll(a);
        }
        case Loop l -> {
          Set<Var> inside = new HashSet<>(da);
          stmt(l.body(), inside);
          stmt(l.update(), inside);
        }
        case Switch sw -> {
          reads(sw.selector(), da);
          for (Case c : sw.cases()) stmt(c.body(), new HashSet<>(da));
        }
        case Labeled l -> stmt(l.body(), new HashSet<>(da));
        case Return r -> { if (r.value() != null) reads(r.value(), da); }
        case Break b -> {}
        case Continue c -> {}
      }
    }

    void reads(Expr e, Set<Var> da) {
      new Rewriter() {
        @Override
        protected Expr expr(Expr x) {
          if (x instanceof Read r && !da.contains(r.var())) exposed.add(r.var());
          return x;
        }
      }.rewrite(e);
    }
  }
}
