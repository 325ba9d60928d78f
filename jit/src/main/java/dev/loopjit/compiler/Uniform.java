// Pass "uniform" (CPU targets): every work-item runs the iteration, clamped into range; only memory writes are guarded.
package dev.loopjit.compiler;

import dev.loopjit.compiler.LoopLoads.Stride;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.IrWalk;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Launch;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Rewriter;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Var;
import java.util.ArrayList;
import java.util.List;

/**
 * PoCL runs a work-group as a loop over its work-items and vectorises across them — but only when
 * their control flow is the same. The parallel pass guards the whole iteration
 * ({@code if (id < count) { … }}), so an inner loop (a matmul's k loop) ends up inside that branch
 * and stays scalar. On CPU targets this pass instead gives work-items past the end the last
 * iteration's indices ({@code min(id, count - 1)}), lets every work-item compute, and guards only
 * the stores to global memory; a barrier at the start lets PoCL run the work-group loop inside the
 * kernel's own loops. Results are those of the guarded form: the extra work-items only repeat reads
 * a real iteration makes and write nothing. Kernels with atomics, reductions, a prologue or an
 * epilogue (whose counts are negative) keep the guard.
 */
final class Uniform implements Pass {
  @Override
  public String name() {
    return "uniform";
  }

  @Override
  public KernelIR run(KernelIR ir, Context cx) {
    if (!cx.target.cpu() || !(ir.launch() instanceof Launch.Loops loops) || loops.frame() == null
        || loops.gridStride() || loops.maxGroupSize() > 0 || loops.prologue() || loops.epilogue() || loops.lanes() > 1 || loops.rows() > 1 || usesAtomics(ir.body())) return ir;
    List<Stmt> out = new ArrayList<>();
    out.add(new Eval(new Call(Intrinsic.BARRIER_LOCAL, null, List.of()), ir.body().src()));
    for (Stmt s : ir.body().stmts()) {
      if (s instanceof Labeled l && l.label().equals(loops.frame()) && ParallelLoops.guardOf(l) instanceof If guard) {
        if (!interchangeHelps(guard.then())) return ir;
        Var inRange = cx.names.fresh("in_range", Prim.BOOLEAN);
        out.add(new Assign(inRange, guard.cond(), guard.src()));
        out.add(new Labeled(l.label(), clamp(guard.then(), loops.countVars(), inRange), l.src()));
      } else {
        out.add(s);
      }
    }
    return ir.withBody(new Block(out, ir.body().src()));
  }

  /** The iteration with each work-item id clamped to its dimension's last iteration and each global store guarded. */
  private static Block clamp(Block iteration, List<Var> countVars, Var inRange) {
    return new Rewriter() {
      @Override
      protected Expr expr(Expr e) {
        if (e instanceof Call c && c.op() == Intrinsic.GLOBAL_ID && c.args().get(0) instanceof Const d) {
          Var count = countVars.get((int) d.longValue());
          return new Call(Intrinsic.MIN, Prim.INT, List.of(c, new Binary(Op.Binary.SUB, new Read(count), Const.of(1))));
        }
        return e;
      }

      @Override
      protected List<Stmt> stmts(Stmt s) {
        if (s instanceof Store st && ((ArrayType) st.array().type()).space() == ArrayType.Space.GLOBAL)
          return List.of(new If(new Read(inRange), new Block(List.of(st)), Block.EMPTY, st.src()));
        return List.of(s);
      }
    }.rewrite(iteration);
  }

  /** How an index moves with the work-item id of dimension x: not at all, one element per work-item, or otherwise. */
  /**
   * Whether running the work-group loop inside the iteration's loops pays: only when those loops
   * read memory that neighbouring work-items (dimension x) find side by side, as a matmul's
   * {@code b[k * n + j]}. A row per work-item ({@code m[i * cols + k]}) would then walk the
   * matrix by columns, which is slower than the guarded form; so is an iteration with no loop.
   */
  private static boolean interchangeHelps(Block iteration) {
    Var x = null;
    for (Stmt s : iteration.stmts())
      if (s instanceof Assign a && mentionsGlobalIdX(a.value())) x = a.var();
    if (x == null) return false;
    Var xv = x;
    return LoopLoads.alongXOnly(iteration, false, index -> stride(index, xv));
  }

  private static boolean mentionsGlobalIdX(Expr e) {
    boolean[] found = {false};
    new Rewriter() {
      @Override
      protected Expr expr(Expr x) {
        if (x instanceof Call c && c.op() == Intrinsic.GLOBAL_ID && c.args().get(0) instanceof Const d && d.longValue() == 0) found[0] = true;
        return x;
      }
    }.rewrite(e);
    return found[0];
  }

  private static Stride stride(Expr e, Var x) {
    if (!Effects.reads(e, x)) return Stride.NONE;
    return switch (e) {
      case Read r -> Stride.UNIT;
      case Binary b when b.op() == Op.Binary.ADD -> {
        Stride l = stride(b.a(), x), r = stride(b.b(), x);
        yield l == Stride.NONE ? r : r == Stride.NONE ? l : Stride.OTHER;
      }
      case Binary b when b.op() == Op.Binary.SUB && !Effects.reads(b.b(), x) -> stride(b.a(), x);
      default -> Stride.OTHER;
    };
  }

  private static boolean usesAtomics(Block body) {
    boolean[] found = {false};
    new Rewriter() {
      @Override
      protected Expr expr(Expr e) {
        if (e instanceof Call c && (c.op() == Intrinsic.ATOMIC_ADD || c.op() == Intrinsic.ATOMIC_CAS)) found[0] = true;
        return e;
      }
    }.rewrite(body);
    return found[0];
  }
}
