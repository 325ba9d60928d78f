// Part of pass "coarsen": the lanes' loop run a block of iterations at a time by the whole work-group, a barrier between blocks, so what a block reads stays in cache for every work-item that reads it.
package dev.loopjit.compiler;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.IrWalk;
import dev.loopjit.ir.Label;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Var;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A coarsened work-item of a matmul reads a column block of B (16 columns × k rows) once per row
 * block of C, and the work-items of a group that share it run one after the other on a CPU: at
 * n = 2048 the group's blocks of B and rows of A no longer fit in L2 between them, and the rate per
 * flop halves (docs/PERFORMANCE.md, "Rows read side by side, and blocks of k for the work-group").
 * So the lanes' loop {@code for (p…; p < limit; …)} runs {@link #BLOCK} iterations at a time for
 * the whole group, a work-group barrier after each block:
 *
 * <pre>
 * if (in) { statements before the loop }
 * block = 0;
 * for (;;) { end = block &gt;= limit ? limit : limit - block &gt; BLOCK ? block + BLOCK : limit;
 *            if (in) loop with its exit at p &gt;= end;  barrier;  if (block &gt;= limit) break;  block = end; }
 * if (in) { statements after the loop }
 * </pre>
 *
 * A CPU device runs every work-item of the group through one block before any starts the next, so
 * the block's rows of B and A stay in cache for all of them. Each work-item still runs its own
 * iterations in order, whatever its counter's start (the last round, {@code end = limit}, runs any
 * left, as the loop itself would), so results are Java's. Every work-item of the group reaches
 * every barrier: the blocks' bounds are the same for all ({@code limit} is a parameter, a length,
 * a count or a value computed from them before the loops), and {@code in} (the work-item is an
 * iteration of the range) only decides the work inside.
 *
 * @param before the statements before the loop
 * @param loop   the loop: its first statement is its only exit, {@code if (p >= limit) break}
 * @param limit  the loop's end, the same for every work-item of a group
 * @param after  the statements after it
 */
record GroupBlocks(List<Stmt> before, Loop loop, Expr limit, List<Stmt> after) {
  /** Iterations of the loop per block (128 to 512 measured alike at n = 2048). */
  static final int BLOCK = 256;

  /**
   * The form of the lanes' body {@code lanes}, or null where it does not apply: exactly one loop at
   * its top level (lane loops aside) reads memory, its only exit is its leading test against a limit
   * {@code groupUniform} accepts, and nothing leaves the iteration ({@code frame}) or the kernel.
   */
  static GroupBlocks of(Block lanes, Label frame, Predicate<Expr> groupUniform) {
    List<Stmt> top = lanes.flat();
    int at = -1;
    for (int i = 0; i < top.size(); i++) {
      // lane loops (a constant trip count) aside
      if (!(top.get(i) instanceof Loop l) || lanesLoop(l) || !IrWalk.anyExpr(l, GroupBlocks::readsGlobal)) continue;
      if (at >= 0) return null;   // two such loops: left as they are
      at = i;
    }
    if (at < 0) return null;
    Loop l = (Loop) top.get(at);
    LoopExit exit = LoopExit.of(l);
    if (exit == null || !groupUniform.test(exit.limit())) return null;
    int[] exits = {0};
    boolean leaves = IrWalk.anyStmt(lanes, s -> {
      if (s instanceof Break b && b.target().equals(l.label())) exits[0]++;
      return s instanceof Return || s instanceof Break b && b.target().equals(frame) || s instanceof Continue k && k.target().equals(frame);
    });
    if (leaves || exits[0] != 1) return null;
    return new GroupBlocks(top.subList(0, at), l, exit.limit(), top.subList(at + 1, top.size()));
  }

  /** The statements, with {@code in} (whether the work-item is an iteration of the range) deciding the work. */
  List<Stmt> statements(Var in, Pass.Context cx, Src at) {
    Var block = cx.names.fresh("block", Prim.INT), end = cx.names.fresh("block_end", Prim.INT);
    Label rounds = cx.names.label();
    Expr b = new Read(block);
    Expr next = new Select(new Compare(Op.Compare.GE, b, limit), limit,
        new Select(new Compare(Op.Compare.GT, new Binary(Op.Binary.SUB, limit, b), Const.of(BLOCK)), new Binary(Op.Binary.ADD, b, Const.of(BLOCK)), limit));
    List<Stmt> body = new ArrayList<>(loop.body().stmts());
    body.set(0, new If(new Compare(Op.Compare.GE, new Read(LoopExit.of(loop).counter()), new Read(end)), new Block(List.of(new Break(loop.label(), at)), at),
        Block.EMPTY, at));
    Loop inBlock = new Loop(loop.label(), new Block(body, loop.body().src()), loop.update(), loop.src());
    Loop blocks = new Loop(rounds, new Block(List.of(
        new Assign(end, next, at),
        new If(new Read(in), new Block(List.of(inBlock), at), Block.EMPTY, at),
        new Eval(new Call(Intrinsic.BARRIER_LOCAL, null, List.of()), at),
        new If(new Compare(Op.Compare.GE, b, limit), new Block(List.of(new Break(rounds, at)), at), Block.EMPTY, at),
        new Assign(block, new Read(end), at)), at), Block.EMPTY, at);
    return List.of(
        new If(new Read(in), new Block(before, at), Block.EMPTY, at),
        new Assign(block, Const.of(0), at),
        blocks,
        new If(new Read(in), new Block(after, at), Block.EMPTY, at));
  }

  private static boolean lanesLoop(Loop l) {
    return !l.body().stmts().isEmpty() && l.body().stmts().get(0) instanceof If i && i.cond() instanceof Compare c && c.b() instanceof Const;
  }

  private static boolean readsGlobal(Expr e) {
    return e instanceof Load l && ((ArrayType) l.array().type()).space() == ArrayType.Space.GLOBAL;
  }

}
