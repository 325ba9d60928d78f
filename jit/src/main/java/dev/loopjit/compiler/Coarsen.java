// Pass "coarsen" (CPU targets asked for lanes): a work-item computes a block of neighbouring iterations, statement by statement, for the device compiler to vectorise.
package dev.loopjit.compiler;

import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Label;
import dev.loopjit.ir.Launch;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Rewriter;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Var;
import java.util.ArrayList;
import java.util.List;

/**
 * On a CPU target with {@link Target#lanes()} {@code W > 1} (and {@link Target#rows()} {@code R}),
 * work-item {@code (g, h)} computes iterations {@code x = W·g … W·g + W - 1} of the innermost
 * {@code @Parallel} dimension for {@code y = R·h … R·h + R - 1} of the next: the rows jammed (each
 * statement once per row, with the row's scalars: {@link Lanes#jammed(Pass.Context, int, boolean)}),
 * then the lanes side by side in loops of a constant W over private lane arrays ({@link Lanes#body}).
 * A matmul's {@code for (p…) acc += a[i·k + p] · b[p·n + j]} becomes, for R = 4 and W = 16,
 *
 * <pre>
 * for (p…) { for (lane < 16) b_lanes[lane] = b[ADD_NO_WRAP(p·n + j, lane)];
 *            a_0 = a[i·k + p]; for (lane < 16) acc_0_lanes[lane] += a_0 · b_lanes[lane];  … (rows 1 to 3) }
 * </pre>
 *
 * sixteen neighbouring elements read with the lane's offset outermost ({@link Intrinsic#ADD_NO_WRAP},
 * so the device compiler sees them side by side) and sixteen independent sums per row: loops the
 * device compiler unrolls and vectorises (the OpenCL emitter asks for the unrolling on CPU targets)
 * into the hand-written {@code float16x4} shape of docs/PERFORMANCE.md, while each sum still runs
 * in Java's order, so results are bit-identical. The host launches
 * {@code count_x / W × count_y / R} work-items ({@link Launch.Loops#lanes()}, {@code rows()}); the
 * runtime asks for this target only when the counts are multiples of W and R and no access needs a
 * bounds check, so every lane is an iteration of the range and none fails alone.
 *
 * <p>Applies where it keeps Java's meaning and pays: every branch the same for all lanes and all
 * rows (uniform), no atomic, allocation, return or early end of the iteration ({@link Lanes}), and
 * a loop that reads global memory along x; rows only where the kernel has a y dimension whose
 * branches are the same for all rows too (else lanes alone, {@code rows == 1} in the launch). Reductions,
 * prologues, epilogues and grid-stride kernels are left as they are, as is everything on other
 * targets (one iteration per work-item, lanes 1 in the launch).
 */
final class Coarsen implements Pass {
  @Override
  public String name() {
    return "coarsen";
  }

  @Override
  public KernelIR run(KernelIR ir, Context cx) {
    int w = cx.target.lanes();
    if (w == 1 || !cx.target.cpu() || cx.target.chunked() || !(ir.launch() instanceof Launch.Loops loops) || loops.frame() == null
        || loops.gridStride() || loops.maxGroupSize() > 0 || loops.prologue() || loops.epilogue() || loops.lanes() > 1) return ir;
    for (KernelIR.Param p : ir.params()) if (p.reduce()) return ir;
    List<Stmt> top = ir.body().stmts();
    int at = -1;
    for (int k = 0; k < top.size(); k++) if (top.get(k) instanceof Labeled l && l.label().equals(loops.frame())) at = k;
    if (at < 0 || !(top.get(at) instanceof Labeled frame) || frame.body().stmts().size() != 1
        || !(frame.body().stmts().get(0) instanceof If guard) || !guard.otherwise().isEmpty()) return ir;
    if (Chunks.carries(top.subList(0, at), guard.then())) return ir;   // an iteration would see what its neighbour left

    int rows = loops.counts().size() >= 2 ? cx.target.rows() : 1;
    KernelIR coarse = rows > 1 ? coarsen(ir, cx, loops, at, frame, guard, rows) : null;
    if (coarse == null) coarse = coarsen(ir, cx, loops, at, frame, guard, 1);   // rows that differ in a branch: lanes alone
    return coarse != null ? coarse : ir;
  }

  /** The kernel in blocks of lanes × rows, or null where that does not apply or pay. */
  private static KernelIR coarsen(KernelIR ir, Context cx, Launch.Loops loops, int at, Labeled frame, If guard, int rows) {
    int w = cx.target.lanes();
    List<Stmt> top = ir.body().stmts();
    Var x = cx.names.fresh("lane_base", Prim.INT), y = rows > 1 ? cx.names.fresh("row_base", Prim.INT) : null;
    Rewriter ids = new Rewriter() {
      @Override
      protected Expr expr(Expr e) {
        if (isGlobalId(e, 0)) return new Read(x);
        if (y != null && isGlobalId(e, 1)) return new Read(y);
        return e;
      }
    };
    Block iteration = ids.rewrite(guard.then());
    if (y != null) {
      Lanes byRow = Lanes.jam(iteration, y, frame.label());
      if (byRow == null) return null;
      iteration = byRow.jammed(cx, rows, false);
    }
    Lanes byLane = Lanes.of(iteration, x, frame.label(), w);
    if (byLane == null || !byLane.wide()) return null;

    // if (id_x < count_x >> log2 W && id_y < count_y >> log2 R) { lane_base = id_x << log2 W; row_base = …; if (guard) frame: { the block } }
    Src src = frame.src();
    List<Stmt> items = new ArrayList<>(byLane.allocations(cx, src));
    Block lanes = byLane.body(Const.of(w), cx, true);
    Expr inRange = null;
    int[] per = {w, rows};
    Var[] base = {x, y};
    for (int d = 0; d < 2; d++) {
      if (base[d] == null) continue;
      int shift = Integer.numberOfTrailingZeros(per[d]);
      Expr id = new Call(Intrinsic.GLOBAL_ID, Prim.INT, List.of(Const.of(d)));
      items.add(new Assign(base[d], new Binary(Op.Binary.SHL, id, Const.of(shift)), src));
      Expr in = new Compare(Op.Compare.LT, id, new Binary(Op.Binary.SHR, new Read(loops.countVars().get(d)), Const.of(shift)));
      inRange = inRange == null ? in : new Logic(Op.Logic.AND, inRange, in);
    }
    items.add(new If(ids.rewrite(guard.cond()), new Block(List.of(new Labeled(frame.label(), lanes, src)), src), Block.EMPTY, guard.src()));
    Label wrapper = cx.names.label();
    List<Stmt> body = new ArrayList<>(top.subList(0, at));
    body.add(new Labeled(wrapper, new Block(List.of(new If(inRange, new Block(items, src), Block.EMPTY, src)), src), src));
    body.addAll(top.subList(at + 1, top.size()));
    return ir.withLaunch(loops.withLanes(w, rows, wrapper), new Block(body, ir.body().src()));
  }

  private static boolean isGlobalId(Expr e, int d) {
    return e instanceof Call c && c.op() == Intrinsic.GLOBAL_ID && c.args().get(0) instanceof Const k && k.longValue() == d;
  }
}
