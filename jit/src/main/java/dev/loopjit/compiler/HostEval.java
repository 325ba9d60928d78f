// Evaluates launch-shape expressions on the host, with the same Java semantics the kernels have.
package dev.loopjit.compiler;

import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.JavaValues;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Var;
import java.util.Map;

/**
 * An interpreter for the pure expressions a launch shape uses: constants, parameters, array
 * lengths, arithmetic, comparisons, selects, conversions and the pure intrinsics, with Java's
 * meaning as {@link JavaValues} gives it (the one evaluator of it; integer division by zero gives 0,
 * as on the devices) and the intrinsics' as {@link IntrinsicEval} does.
 */
public final class HostEval {
  private HostEval() {}

  /** The value of {@code e}; array variables are bound in {@code env} to their lengths (Integer), all the host knows of them. */
  public static Object eval(Expr e, Map<Var, Object> env) {
    return switch (e) {
      case Const c -> c.value();
      case Read r -> {
        if (!env.containsKey(r.var())) throw new IllegalStateException("launch shape reads " + r.var() + ", which the host does not know");
        yield env.get(r.var());
      }
      case Length l -> (Integer) eval(l.array(), env);
      case Unary u -> unary(u.op(), u.prim(), eval(u.x(), env));
      case Binary b -> binary(b.op(), b.prim(), eval(b.a(), env), eval(b.b(), env));
      case Compare c -> known(JavaValues.compare(c.op(), eval(c.a(), env), eval(c.b(), env)), c.op().name());
      case Logic l -> l.op() == Op.Logic.AND ? (Boolean) eval(l.a(), env) && (Boolean) eval(l.b(), env)
          : (Boolean) eval(l.a(), env) || (Boolean) eval(l.b(), env);
      case Select s -> (Boolean) eval(s.cond(), env) ? eval(s.a(), env) : eval(s.b(), env);
      case Convert c -> convert(c.to(), eval(c.x(), env));
      case Call c when IntrinsicEval.foldable(c.op()) ->
          IntrinsicEval.eval(c.op(), c.type(), c.args().stream().map(a -> eval(a, env)).toList());
      default -> throw new IllegalStateException("launch shape uses " + dev.loopjit.ir.IrPrinter.expr(e) + ", which the host cannot evaluate");
    };
  }

  private static Object unary(Op.Unary op, Prim t, Object x) {
    return known(JavaValues.unary(op, t, x), op.name());
  }

  private static Object binary(Op.Binary op, Prim t, Object a, Object b) {
    return known(JavaValues.binary(op, t, a, b), op.name());
  }

  private static Object convert(Prim to, Object v) {
    return known(JavaValues.convert(to, v), "convert to " + to);
  }

  /** {@code v}, which Java's semantics ({@link JavaValues}) gave; null where the operator does not apply to its operands. */
  private static Object known(Object v, String what) {
    if (v == null) throw new IllegalStateException(what);
    return v;
  }
}
