// Part of pass "coarsen": a loop whose lanes each read along their own row of memory, read a block of iterations at a time, by columns.
package dev.loopjit.compiler;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.IrWalk;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Rewriter;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Var;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * A counted loop {@code for (k…; k < limit; k++) { straight-line assignments }} of a lane iteration
 * whose lanes read {@code array[start(x) + k]}: each lane its own row (matrix-vector's
 * {@code m[i·cols + j]}, dense's {@code w[o·in + i]}), where lane loops would read memory by columns.
 * The {@code coarsen} pass runs such a loop {@link #BLOCK} iterations at a time: each {@link Site}'s
 * rows read once per block into a tile kept by columns ({@link dev.loopjit.ir.Intrinsic#LOAD_TRANSPOSED}),
 * then the iterations in order, each lane's value of the load read from the tile; the last
 * iterations, fewer than a block, run as before. Every lane still runs its iterations in order, so
 * sums are Java's, and the block reads only elements the iterations read anyway: the loop stores
 * nothing and leaves the sites' arrays and starts unchanged, and each site's load is made by every
 * iteration (not under a {@code ?:}, {@code &&} or {@code ||}).
 *
 * @param counter the loop's counter k (the same for all lanes)
 * @param limit   its end, which the loop does not change
 * @param sites   the rows read, with their columns and tiles
 * @param steps   one iteration without its exit test (its body, then its update): each site's load
 *                read as its column, ending in {@code k = k + 1}
 */
record RowBlocks(Var counter, Expr limit, List<Site> sites, Block steps) {
  /** Iterations read at a time: the elements of each row a LOAD_TRANSPOSED reads. */
  static final int BLOCK = 8;

  /**
   * Rows a loop reads: {@code array[start + k]} for each lane, held as {@code column} (a varying
   * value) and read a block at a time into {@code tile}.
   */
  record Site(Expr array, Expr start, Var column, Var tile) {}

  /**
   * The blocked form of {@code l}, or null where it does not apply. {@code across} tells a global
   * load whose lanes read across x; {@code varying} are the lanes' own values; {@code inline} puts
   * the lanes' affine values in place; {@code lanes} is the tile's width.
   */
  static RowBlocks of(Loop l, Predicate<Expr> across, Set<Var> varying, UnaryOperator<Expr> inline, int lanes, Pass.Context cx) {
    LoopExit exit = LoopExit.of(l);
    if (exit == null) return null;
    Var k = exit.counter();
    // the body after its exit test, then the update (straight-line code: no continue skips to it), ending in k = k + 1
    List<Stmt> rest = new ArrayList<>(l.body().flat());
    rest.removeFirst();   // the exit test
    rest.addAll(l.update().flat());
    if (rest.isEmpty() || !(rest.removeLast() instanceof Assign inc) || !LoopExit.isIncrement(inc, k) || varying.contains(k)) return null;
    Set<Var> assigned = new HashSet<>(Set.of(k));
    List<Stmt> steps = new ArrayList<>();
    for (Stmt s : rest) {
      if (!(s instanceof Assign a) || a.var().equals(k) || !(a.var().type() instanceof Prim) || !Effects.pure(a.value())) return null;
      assigned.add(a.var());
      steps.add(new Assign(a.var(), inline.apply(a.value()), a.src()));
    }
    Expr limit = exit.limit();
    if (!Effects.pure(limit) || Effects.readsMemory(limit) || readsAny(limit, assigned)) return null;

    Map<Load, Site> sites = new LinkedHashMap<>();
    for (Stmt s : steps)
      for (Load load : certainLoads(((Assign) s).value())) {
        if (sites.containsKey(load) || !across.test(load)) continue;
        Expr start = startOf(load, k, assigned);
        Prim e = ((ArrayType) load.array().type()).element();
        if (start == null || !(e == Prim.INT || e == Prim.LONG || e == Prim.FLOAT || e == Prim.DOUBLE)) continue;
        sites.put(load, new Site(load.array(), start, cx.names.fresh("column", e.stackType()),
            cx.names.fresh("rows", new ArrayType(e, ArrayType.Space.PRIVATE, lanes * BLOCK))));
      }
    if (sites.isEmpty()) return null;
    Rewriter columns = new Rewriter() {
      @Override
      protected Expr expr(Expr x) {
        Site site = x instanceof Load load ? sites.get(load) : null;
        return site != null ? new Read(site.column()) : x;
      }
    };
    List<Stmt> out = new ArrayList<>(columns.rewrite(new Block(steps, l.body().src())).stmts());
    out.add(inc);
    return new RowBlocks(k, limit, List.copyOf(sites.values()), new Block(out, l.body().src()));
  }

  /** {@code start} where {@code load}'s index is {@code start + k} (its terms in any order) and start changes nowhere in the loop; else null. */
  private static Expr startOf(Load load, Var k, Set<Var> assigned) {
    if (!(load.array() instanceof Read a) || assigned.contains(a.var())) return null;
    List<Expr> terms = new ArrayList<>();
    terms(load.index(), terms);
    Expr start = null;
    int counters = 0;
    for (Expr t : terms) {
      if (t instanceof Read r && r.var().equals(k)) {
        counters++;
        continue;
      }
      if (readsAny(t, assigned)) return null;
      start = start == null ? t : new Binary(Op.Binary.ADD, start, t);
    }
    return counters == 1 && start != null ? start : null;
  }

  private static void terms(Expr e, List<Expr> out) {
    if (e instanceof Binary b && b.op() == Op.Binary.ADD) {
      terms(b.a(), out);
      terms(b.b(), out);
    } else out.add(e);
  }

  /** The loads {@code e} makes whatever its value: not those in a {@code ?:}'s arms or behind {@code &&} and {@code ||}. */
  private static List<Load> certainLoads(Expr e) {
    List<Load> out = new ArrayList<>();
    new Object() {
      void visit(Expr x) {
        switch (x) {
          case Load l -> { visit(l.index()); out.add(l); }
          case Select s -> visit(s.cond());
          case Logic g -> visit(g.a());
          case Unary u -> visit(u.x());
          case Binary b -> { visit(b.a()); visit(b.b()); }
          case Compare c -> { visit(c.a()); visit(c.b()); }
          case Convert c -> visit(c.x());
          case Call c -> c.args().forEach(this::visit);
          default -> {}
        }
      }
    }.visit(e);
    return out;
  }

  private static boolean readsAny(Expr e, Set<Var> vars) {
    return IrWalk.anyExpr(e, x -> x instanceof Read r && vars.contains(r.var()));
  }

}
