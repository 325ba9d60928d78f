// A counted loop's leading exit test, `if (counter >= limit) break loop`, as the front end writes every for loop.
package dev.loopjit.compiler;

import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Stmt.*;
import dev.loopjit.ir.Var;
import java.util.List;

/**
 * The first statement of a loop's body when it is {@code if (counter >= limit) break loop} with an
 * int counter: what {@code for (int q = …; q < limit; …)} becomes. The passes that rewrite counted
 * loops ({@link LoopVersions}, {@link RowBlocks}, {@link GroupBlocks}) start from it.
 */
record LoopExit(Var counter, Expr limit) {
  /** The exit test of {@code l}, or null where its body does not start with one. */
  static LoopExit of(Loop l) {
    List<Stmt> body = l.body().stmts();
    if (body.isEmpty() || !(body.get(0) instanceof If test) || !test.otherwise().isEmpty() || test.then().stmts().size() != 1
        || !(test.then().stmts().get(0) instanceof Break br) || !br.target().equals(l.label())
        || !(test.cond() instanceof Compare c) || c.op() != Op.Compare.GE || !(c.a() instanceof Read r) || r.var().type() != Prim.INT)
      return null;
    return new LoopExit(r.var(), c.b());
  }

  /** Whether {@code s} is {@code counter = counter + 1}. */
  static boolean isIncrement(Stmt s, Var counter) {
    return s instanceof Assign a && a.var().equals(counter) && a.value() instanceof Binary b && b.op() == Op.Binary.ADD
        && b.a() instanceof Read r && r.var().equals(counter) && b.b() instanceof Const k && k.type() == Prim.INT && k.longValue() == 1;
  }
}
