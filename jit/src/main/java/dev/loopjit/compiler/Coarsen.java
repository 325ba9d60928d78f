// Pass "coarsen" (CPU targets asked for lanes): a work-item computes a block of neighbouring iterations, statement by statement, for the device compiler to vectorise.
package dev.loopjit.compiler;

import dev.loopjit.ir.Target;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.IrWalk;
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
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

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
 * into the hand-written {@code float16x4} shape of docs/performance-log.md, while each sum still runs
 * in Java's order, so results are bit-identical. The host launches
 * {@code count_x / W × count_y / R} work-items ({@link Launch.Loops#lanes()}, {@code rows()}); the
 * runtime asks for this target only when the counts are multiples of W and R and no access needs a
 * bounds check, so every lane is an iteration of the range and none fails alone.
 *
 * <p>Where the iteration's loops read across x instead (a row per lane: matrix-vector, dense with
 * W as (out, in)), lane loops would read memory by columns: there each such loop runs 8 iterations
 * at a time, the 8 lanes' rows read into a tile by columns ({@link RowBlocks}), 8 lanes × 8 rows
 * (the rows form); where a loop cannot be read so, 8 × 8 iterations jammed. With rows, the lanes
 * form runs its loop in blocks for the whole work-group, a barrier between them ({@link GroupBlocks}),
 * so that what a block reads stays in cache for every work-item that reads it.
 *
 * <p>Applies where it keeps Java's meaning and pays: every branch the same for all lanes and all
 * rows (uniform), no atomic, allocation, return or early end of the iteration ({@link Lanes}), and
 * a loop that reads global memory along x; rows only where the kernel has a y dimension whose
 * branches are the same for all rows too (else lanes alone, {@code rows == 1} in the launch). A
 * target with one lane and rows ({@code ROWS_ALONE}, which the runtime asks for where x fits no
 * lanes) jams rows of y alone around an iteration that has a loop. Reductions,
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
    if (cx.target.lanes() == 1 && cx.target.rows() == 1 || !cx.target.cpu() || cx.target.chunked() || !(ir.launch() instanceof Launch.Loops loops)
        || loops.frame() == null || loops.gridStride() || loops.maxGroupSize() > 0 || loops.prologue() || loops.epilogue() || loops.lanes() > 1
        || loops.rows() > 1) return ir;
    for (KernelIR.Param p : ir.params()) if (p.reduce()) return ir;
    List<Stmt> top = ir.body().stmts();
    int at = ParallelLoops.frameIndex(ir, loops);
    if (at < 0) return ir;
    Labeled frame = (Labeled) top.get(at);
    If guard = ParallelLoops.guardOf(frame);
    if (guard == null) return ir;
    if (Chunks.carries(top.subList(0, at), guard.then())) return ir;   // an iteration would see what its neighbour left
    if (cx.target.lanes() == 1) {   // rows alone: x as it is, rows of y jammed around the iteration's loops
      if (loops.counts().size() < 2 || !IrWalk.anyStmt(guard.then(), st -> st instanceof Loop)) return ir;
      KernelIR rowsOnly = coarsen(ir, cx, loops, at, frame, guard, Form.ROWS_ALONE, Math.min(JAM_ROWS, cx.target.rows()));
      return rowsOnly != null ? rowsOnly : ir;
    }

    // The form, from the iteration as it is: lanes where its loops read along x, jammed where they read across it
    Var probeX = cx.names.fresh("x_probe", Prim.INT);
    Block probeIteration = ids(probeX, null).rewrite(guard.then());
    Lanes probe = Lanes.of(probeIteration, probeX, frame.label(), cx.target.lanes());
    if (probe == null) return ir;
    Form form = probe.wide() ? Form.WIDE
        : Lanes.transposed(probeIteration, probeX, frame.label(), Math.min(ROW_LANES, cx.target.lanes()), cx) != null ? Form.ROWS : Form.JAMMED;
    int rows = loops.counts().size() < 2 ? 1 : Math.min(form == Form.WIDE ? LANE_ROWS : JAM_ROWS, cx.target.rows());
    KernelIR coarse = rows > 1 ? coarsen(ir, cx, loops, at, frame, guard, form, rows) : null;
    if (coarse == null) coarse = coarsen(ir, cx, loops, at, frame, guard, form, 1);   // rows that differ in a branch: lanes alone
    if (coarse == null && form == Form.ROWS) coarse = coarsen(ir, cx, loops, at, frame, guard, Form.JAMMED, 1);
    return coarse != null ? coarse : ir;
  }

  /**
   * How the lanes run: {@code WIDE}, side by side in lane loops, where the iteration's loops read
   * along x; {@code ROWS}, the same with the loops that read across x a block at a time, each lane's
   * row read into a tile by columns ({@link RowBlocks}); {@code JAMMED}, each statement once per lane;
   * {@code ROWS_ALONE}, one iteration of x per work-item and rows of y jammed: a target with one lane
   * and rows, which the runtime asks for where x fits no lanes (a dense layer of 10 outputs), so that
   * the rows' sums still run side by side.
   */
  private enum Form { WIDE, ROWS, JAMMED, ROWS_ALONE }

  private static int lanes(Form form, Target t) {
    return switch (form) {
      case WIDE -> t.lanes();
      case ROWS -> Math.min(ROW_LANES, t.lanes());
      case JAMMED -> Math.min(JAM_LANES, t.lanes());
      case ROWS_ALONE -> 1;
    };
  }

  /** Rows with lanes: four rows share each vector of the row of B they read (the hand-written {@code float16x4}). */
  static final int LANE_ROWS = 4;
  /** The jammed form's block: 8 × 8 iterations, 64 independent sums (docs/performance-log.md, "coarsening"); the rows form's rows too. */
  static final int JAM_LANES = 8, JAM_ROWS = 8;
  /** The rows form's lanes: 8 rows of 8 elements make a tile (docs/performance-log.md, "Rows read side by side"). */
  static final int ROW_LANES = 8;

  /** Global id x read as {@code x}, and id y as {@code y} when not null. */
  private static Rewriter ids(Var x, Var y) {
    return new Rewriter() {
      @Override
      protected Expr expr(Expr e) {
        if (isGlobalId(e, 0)) return new Read(x);
        if (y != null && isGlobalId(e, 1)) return new Read(y);
        return e;
      }
    };
  }

  /** The kernel in blocks of lanes × {@code rows} iterations in {@code form}, or null where that does not apply. */
  private static KernelIR coarsen(KernelIR ir, Context cx, Launch.Loops loops, int at, Labeled frame, If guard, Form form, int rows) {
    int w = lanes(form, cx.target);
    boolean wide = form != Form.JAMMED && form != Form.ROWS_ALONE;
    List<Stmt> top = ir.body().stmts();
    Var x = cx.names.fresh(form == Form.ROWS_ALONE ? "column" : "lane_base", Prim.INT), y = rows > 1 ? cx.names.fresh("row_base", Prim.INT) : null;
    Rewriter ids = ids(x, y);
    Block iteration = ids.rewrite(guard.then());
    if (y != null) {
      iteration = Lanes.rowsJammed(iteration, y, frame.label(), rows, cx);
      if (iteration == null) return null;
    }
    Lanes byLane = switch (form) {
      case WIDE -> Lanes.of(iteration, x, frame.label(), w);
      case ROWS -> Lanes.transposed(iteration, x, frame.label(), w, cx);
      case JAMMED -> Lanes.jam(iteration, x, frame.label());
      case ROWS_ALONE -> null;
    };
    if (form != Form.ROWS_ALONE && (byLane == null || wide && !byLane.wide())) return null;

    // if (id_x < count_x >> log2 W && id_y < count_y >> log2 R) { lane_base = id_x << log2 W; row_base = …; if (guard) frame: { the block } }
    Src src = frame.src();
    List<Stmt> items = new ArrayList<>(wide ? byLane.allocations(cx, src) : List.of());
    Block lanes = form == Form.ROWS_ALONE ? iteration : wide ? byLane.body(Const.of(w), cx, true) : byLane.jammed(cx, w, true);
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
    Label wrapper = cx.names.label();
    List<Stmt> body = new ArrayList<>(top.subList(0, at));
    GroupBlocks blocks = form == Form.WIDE && y != null ? GroupBlocks.of(lanes, frame.label(), groupUniform(ir, loops, body)) : null;
    if (blocks != null) {
      // every work-item of the group runs the blocks (and their barriers); in says whether it is an iteration of the range
      Var in = cx.names.fresh("in_range", Prim.BOOLEAN);
      items.add(new Assign(in, new Logic(Op.Logic.AND, inRange, ids.rewrite(guard.cond())), src));
      items.addAll(blocks.statements(in, cx, src));
      body.add(new Labeled(wrapper, new Block(items, src), src));
    } else {
      items.add(new If(ids.rewrite(guard.cond()), new Block(List.of(new Labeled(frame.label(), lanes, src)), src), Block.EMPTY, guard.src()));
      body.add(new Labeled(wrapper, new Block(List.of(new If(inRange, new Block(items, src), Block.EMPTY, src)), src), src));
    }
    body.addAll(top.subList(at + 1, top.size()));
    return ir.withLaunch(loops.withLanes(w, rows, wrapper), new Block(body, ir.body().src()));
  }

  /**
   * Whether an expression has one value for every work-item: built from constants, lengths, the
   * launch's counts, parameters no statement assigns and locals assigned once, in {@code before}
   * (the statements every work-item runs before the loops), from such values.
   */
  private static Predicate<Expr> groupUniform(KernelIR ir, Launch.Loops loops, List<Stmt> before) {
    Map<Var, Integer> assigned = new HashMap<>();
    IrWalk.anyStmt(ir.body(), s -> {
      if (s instanceof Assign a) assigned.merge(a.var(), 1, Integer::sum);
      return false;
    });
    Set<Var> uniform = new HashSet<>(loops.countVars());
    for (KernelIR.Param p : ir.params()) if (p.var() != null && !assigned.containsKey(p.var())) uniform.add(p.var());
    Predicate<Expr> test = e -> !IrWalk.anyExpr(e, x -> switch (x) {
      case Read r -> !uniform.contains(r.var()) && !(r.var().type() instanceof ArrayType);
      case Load l -> true;
      case Call c -> true;
      case Invoke i -> true;
      case Alloc a -> true;
      default -> false;
    });
    for (Stmt s : before)
      if (s instanceof Assign a && assigned.get(a.var()) == 1 && a.var().type() instanceof Prim && test.test(a.value())) uniform.add(a.var());
    return test;
  }

  private static boolean isGlobalId(Expr e, int d) {
    return e instanceof Call c && c.op() == Intrinsic.GLOBAL_ID && c.args().get(0) instanceof Const k && k.longValue() == d;
  }
}
