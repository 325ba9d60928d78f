// For the reduce pass: locals that carry an update's value (a helper's parameters and result, t = out[0]) forwarded into it.
package dev.loopjit.compiler;

import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.IrWalk;
import dev.loopjit.ir.Rewriter;
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
 * {@code out[0] = combine(x, out[0])} reaches the reduce pass, after inlining, as
 * {@code {a = x; b = out[0]; t = a + b} out[0] = t} — and {@code long t = out[0]; out[0] = t + x}
 * as written. In one block (the blocks nested in it included), a local that is assigned once, read
 * once (by the update or by another such local), and whose value nothing between its assignment
 * and the update can change (no assignment to what it reads, no store, no effect) is replaced by
 * its value; its assignment goes.
 * An update is only rewritten when the result reads the element it updates — what the reduce pass
 * then recognises; anything else is left as it was, to be refused there.
 */
final class ReduceForwarding {
  private ReduceForwarding() {}

  static Block forward(Block frame, List<Var> arrays) {
    Map<Var, Integer> reads = new HashMap<>(), assigns = new HashMap<>();
    IrWalk.walk(frame, new IrWalk.Visitor() {
      @Override
      public void stmt(Stmt s) {
        if (s instanceof Assign a) assigns.merge(a.var(), 1, Integer::sum);
      }

      @Override
      public void expr(Expr e, Stmt in) {
        if (e instanceof Read r) reads.merge(r.var(), 1, Integer::sum);
      }
    });
    Set<Var> single = new HashSet<>();
    for (var e : assigns.entrySet()) if (e.getValue() == 1 && reads.getOrDefault(e.getKey(), 0) == 1) single.add(e.getKey());
    single.removeAll(arrays);
    // Every block, inner ones first: a switch's cases, a loop's body, an if's arms as much as the
    // frame. A helper's body inlined before the update is a nested block ({a = x; b = out[0]; t = a + b}
    // out[0] = t): its statements count as the block's, which keeps them, flattened, where an update forwards.
    return new Rewriter() {
      @Override
      protected List<Stmt> block(List<Stmt> stmts) {
        List<Stmt> out = new ArrayList<>();
        boolean forwarded = false;
        for (Stmt t : new Block(stmts).flat()) {
          if (t instanceof Store st && st.array() instanceof Read r && arrays.contains(r.var())) {
            t = update(st, r.var(), out, single);
            forwarded |= t != st;
          }
          out.add(t);
        }
        return forwarded ? out : stmts;
      }
    }.rewrite(frame);
  }

  /** {@code st} with the single-use locals assigned just before it in {@code before} forwarded, when that makes it read its element. */
  private static Stmt update(Store st, Var array, List<Stmt> before, Set<Var> single) {
    Expr value = st.value();
    List<Integer> gone = new ArrayList<>();
    boolean changed = true;
    while (changed) {
      changed = false;
      for (int j = before.size() - 1; j >= 0; j--) {
        if (!(before.get(j) instanceof Assign a) || !single.contains(a.var()) || gone.contains(j) || !Effects.reads(value, a.var())) continue;
        if (!unchangedAfter(a.value(), before.subList(j + 1, before.size()), gone, j + 1)) continue;
        value = ReduceOperands.replace(value, Map.of(a.var(), a.value()));
        gone.add(j);
        changed = true;
      }
    }
    if (gone.isEmpty() || !readsElement(value, array, st.index())) return st;
    gone.sort(null);
    for (int k = gone.size() - 1; k >= 0; k--) before.remove((int) gone.get(k));
    return new Store(st.array(), st.index(), value, st.src());
  }

  /** Whether nothing in {@code between} (but the assignments already forwarded) can change the value of {@code e}. */
  private static boolean unchangedAfter(Expr e, List<Stmt> between, List<Integer> gone, int first) {
    Set<Var> read = new HashSet<>();
    boolean[] memory = {false};
    IrWalk.walk(e, null, new IrWalk.Visitor() {
      @Override
      public void expr(Expr x, Stmt in) {
        if (x instanceof Read r) read.add(r.var());
        if (x instanceof Load) memory[0] = true;
        if (x instanceof Call c && c.op().hasEffect() || x instanceof Invoke) memory[0] = true;
      }
    });
    for (int k = 0; k < between.size(); k++) {
      if (gone.contains(first + k)) continue;
      Stmt s = between.get(k);
      if (!(s instanceof Assign a) || read.contains(a.var()) || memory[0] && ReduceOperands.hasEffect(a.value())) return false;
    }
    return true;
  }

  private static boolean readsElement(Expr e, Var array, Expr index) {
    return IrWalk.anyExpr(e, x -> x instanceof Load l && l.array() instanceof Read r && r.var().equals(array) && l.index().equals(index));
  }
}
