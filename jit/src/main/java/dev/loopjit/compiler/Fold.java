// Constant folding and integer identities (x + 0, x * 1, x / 1), exact in Java's semantics.
package dev.loopjit.compiler;

import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Rewriter;
import java.util.Map;

/**
 * Folds what is already known: operations on constants (evaluated by {@link HostEval}, which has
 * the kernels' semantics) and integer identities. Float identities are left alone: {@code x + 0.0f}
 * is not {@code x} when x is -0.0.
 */
final class Fold extends Rewriter {
  static final Fold INSTANCE = new Fold();

  static Expr fold(Expr e) {
    return INSTANCE.rewrite(e);
  }

  @Override
  protected Expr expr(Expr e) {
    switch (e) {
      case Binary b when b.a() instanceof Const && b.b() instanceof Const && b.prim() != Prim.BOOLEAN -> {
        return new Const(b.prim(), HostEval.eval(b, Map.of()));
      }
      case Compare c when c.a() instanceof Const && c.b() instanceof Const -> {
        return new Const(Prim.BOOLEAN, HostEval.eval(c, Map.of()));
      }
      case Select s when s.cond() instanceof Const k -> {
        return (Boolean) k.value() ? s.a() : s.b();
      }
      case Unary u when u.x() instanceof Const k && u.op() == Op.Unary.NOT -> {
        return Const.of(!(Boolean) k.value());
      }
      case Unary u when u.x() instanceof Const && u.op() == Op.Unary.NEG -> {
        return new Const(u.prim(), HostEval.eval(u, Map.of()));
      }
      case Convert c when c.x() instanceof Const k && k.type() != Prim.BOOLEAN && c.to().stackType() == c.to() -> {
        return new Const(c.to(), HostEval.eval(c, Map.of()));
      }
      case Binary b when !b.prim().isFloating() && b.prim() != Prim.BOOLEAN -> {
        if ((b.op() == Op.Binary.ADD || b.op() == Op.Binary.SUB || b.op() == Op.Binary.OR || b.op() == Op.Binary.XOR
            || b.op().isShift()) && isZero(b.b())) return b.a();
        if ((b.op() == Op.Binary.ADD || b.op() == Op.Binary.OR || b.op() == Op.Binary.XOR) && isZero(b.a())) return b.b();
        if ((b.op() == Op.Binary.MUL || b.op() == Op.Binary.DIV) && isOne(b.b())) return b.a();
        if (b.op() == Op.Binary.MUL && isOne(b.a())) return b.b();
        if (b.op() == Op.Binary.ADD && b.b() instanceof Const c && c.longValue() < 0 && c.longValue() != Long.MIN_VALUE
            && c.longValue() != Integer.MIN_VALUE)
          return new Binary(Op.Binary.SUB, b.a(), new Const(c.type(), HostEval.eval(new Unary(Op.Unary.NEG, c), Map.of())));
        return e;
      }
      default -> {
        return e;
      }
    }
  }

  private static boolean isZero(Expr e) {
    return e instanceof Const c && !c.type().isFloating() && c.longValue() == 0;
  }

  private static boolean isOne(Expr e) {
    return e instanceof Const c && !c.type().isFloating() && c.longValue() == 1;
  }
}
