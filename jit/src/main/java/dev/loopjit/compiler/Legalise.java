// Pass "legalise": operations whose Java meaning a device's own operation lacks, rewritten into IR that has it.
package dev.loopjit.compiler;

import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Rewriter;
import java.util.List;

/**
 * Where a device's built-in differs from Java at the edges, the IR is rewritten here, once for every
 * emitter, into operations whose meaning is the same everywhere — rather than each emitter knowing
 * each exception. Each {@link Rule} names the Java behaviour it keeps. Rules apply bottom-up, and a
 * rule's result is legalised again (so a rule may produce what another rule rewrites).
 *
 * <ul>
 * <li>{@code Math.abs(int/long)}: Java gives {@code MIN_VALUE} for {@code MIN_VALUE}; OpenCL's
 *     {@code abs} is undefined there to LLVM ({@code Math.abs(x) >= 0} folds to true), so it
 *     becomes {@code x < 0 ? -x : x}, whose negation wraps (IR NEG is Java's).
 * </ul>
 */
final class Legalise implements Pass {
  /** One rewrite: the legal replacement of {@code e}, or null when the rule does not apply. */
  @FunctionalInterface
  interface Rule {
    Expr apply(Expr e, Context cx);
  }

  /** The rules, tried in order on every expression. */
  static final List<Rule> RULES = List.of(Legalise::integerAbs);

  @Override
  public String name() {
    return "legalise";
  }

  @Override
  public KernelIR run(KernelIR ir, Context cx) {
    return ir.withBody(rewriter(cx).rewrite(ir.body()));
  }

  private static Rewriter rewriter(Context cx) {
    return new Rewriter() {
      @Override
      protected Expr expr(Expr e) {
        for (Rule r : RULES) {
          Expr legal = r.apply(e, cx);
          if (legal != null) return Fold.fold(rewrite(legal));
        }
        return e;
      }
    };
  }

  /**
   * {@code Math.abs} of an int or long as {@code x < 0 ? -x : x}. The operand appears three times;
   * it is pure (an expression has no effect), so the device compiler computes it once.
   */
  static Expr integerAbs(Expr e, Context cx) {
    if (!(e instanceof Call c) || c.op() != Intrinsic.ABS || c.type() == null || !c.type().isIntegral()) return null;
    Expr x = c.args().get(0);
    Const zero = x.prim() == Prim.LONG ? Const.of(0L) : Const.of(0);
    return new Select(new Compare(Op.Compare.LT, x, zero), new Unary(Op.Unary.NEG, x), x);
  }
}
