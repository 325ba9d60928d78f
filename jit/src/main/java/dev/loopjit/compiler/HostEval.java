// Evaluates launch-shape expressions on the host, with the same Java semantics the kernels have.
package dev.loopjit.compiler;

import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Var;
import java.util.Map;

/**
 * An interpreter for the pure expressions a launch shape uses: constants, parameters, array
 * lengths, arithmetic, comparisons, selects, conversions and min/max/abs. Integer division by zero
 * gives 0, as on the devices.
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
      case Unary u -> u.op() == Op.Unary.NOT ? !(Boolean) eval(u.x(), env) : negate(u.prim(), (Number) eval(u.x(), env));
      case Binary b -> binary(b.op(), b.prim(), eval(b.a(), env), eval(b.b(), env));
      case Compare c -> compare(c.op(), c.a().prim(), (Number) eval(c.a(), env), (Number) eval(c.b(), env));
      case Logic l -> l.op() == Op.Logic.AND ? (Boolean) eval(l.a(), env) && (Boolean) eval(l.b(), env)
          : (Boolean) eval(l.a(), env) || (Boolean) eval(l.b(), env);
      case Select s -> (Boolean) eval(s.cond(), env) ? eval(s.a(), env) : eval(s.b(), env);
      case Convert c -> convert(c.to(), eval(c.x(), env));
      case Call c when c.op() == dev.loopjit.ir.Intrinsic.MIN || c.op() == dev.loopjit.ir.Intrinsic.MAX -> {
        Number a = (Number) eval(c.args().get(0), env), b = (Number) eval(c.args().get(1), env);
        boolean min = c.op() == dev.loopjit.ir.Intrinsic.MIN;
        yield switch (c.type()) {
          case INT -> min ? Math.min(a.intValue(), b.intValue()) : Math.max(a.intValue(), b.intValue());
          case LONG -> min ? Math.min(a.longValue(), b.longValue()) : Math.max(a.longValue(), b.longValue());
          default -> throw new IllegalStateException("launch shape uses " + c);
        };
      }
      case Call c when c.op() == dev.loopjit.ir.Intrinsic.DIV_UNCHECKED || c.op() == dev.loopjit.ir.Intrinsic.REM_UNCHECKED ->
          binary(c.op() == dev.loopjit.ir.Intrinsic.DIV_UNCHECKED ? Op.Binary.DIV : Op.Binary.REM, c.type(), eval(c.args().get(0), env),
              eval(c.args().get(1), env));
      default -> throw new IllegalStateException("launch shape uses " + dev.loopjit.ir.IrPrinter.expr(e) + ", which the host cannot evaluate");
    };
  }

  private static Object negate(Prim t, Number x) {
    return switch (t) {
      case INT -> -x.intValue();
      case LONG -> -x.longValue();
      case FLOAT -> -x.floatValue();
      default -> -x.doubleValue();
    };
  }

  private static Object binary(Op.Binary op, Prim t, Object a0, Object b0) {
    if (t == Prim.BOOLEAN) {
      boolean a = (Boolean) a0, b = (Boolean) b0;
      return switch (op) { case AND -> a & b; case OR -> a | b; case XOR -> a ^ b; default -> throw new IllegalStateException(op.name()); };
    }
    Number an = (Number) a0, bn = (Number) b0;
    return switch (t) {
      case INT -> {
        int a = an.intValue(), b = bn.intValue();
        yield switch (op) {
          case ADD -> a + b; case SUB -> a - b; case MUL -> a * b;
          case DIV -> b == 0 ? 0 : a / b; case REM -> b == 0 ? 0 : a % b;
          case AND -> a & b; case OR -> a | b; case XOR -> a ^ b;
          case SHL -> a << b; case SHR -> a >> b; case USHR -> a >>> b;
        };
      }
      case LONG -> {
        long a = an.longValue(), b = bn.longValue();
        yield switch (op) {
          case ADD -> a + b; case SUB -> a - b; case MUL -> a * b;
          case DIV -> b == 0 ? 0L : a / b; case REM -> b == 0 ? 0L : a % b;
          case AND -> a & b; case OR -> a | b; case XOR -> a ^ b;
          case SHL -> a << bn.intValue(); case SHR -> a >> bn.intValue(); case USHR -> a >>> bn.intValue();
        };
      }
      case FLOAT -> {
        float a = an.floatValue(), b = bn.floatValue();
        yield switch (op) { case ADD -> a + b; case SUB -> a - b; case MUL -> a * b; case DIV -> a / b; case REM -> a % b;
          default -> throw new IllegalStateException(op.name()); };
      }
      default -> {
        double a = an.doubleValue(), b = bn.doubleValue();
        yield switch (op) { case ADD -> a + b; case SUB -> a - b; case MUL -> a * b; case DIV -> a / b; case REM -> a % b;
          default -> throw new IllegalStateException(op.name()); };
      }
    };
  }

  private static boolean compare(Op.Compare op, Prim t, Number a, Number b) {
    if (t == Prim.INT || t == Prim.LONG) {
      int c = Long.compare(a.longValue(), b.longValue());
      return test(op, c);
    }
    double x = a.doubleValue(), y = b.doubleValue();
    if (Double.isNaN(x) || Double.isNaN(y)) return op == Op.Compare.NE;
    return test(op, Double.compare(x == 0 ? 0.0 : x, y == 0 ? 0.0 : y));
  }

  private static boolean test(Op.Compare op, int c) {
    return switch (op) { case EQ -> c == 0; case NE -> c != 0; case LT -> c < 0; case LE -> c <= 0; case GT -> c > 0; case GE -> c >= 0; };
  }

  private static Object convert(Prim to, Object v) {
    if (v instanceof Boolean b) return b ? 1 : 0;
    Number n = (Number) v;
    boolean fp = n instanceof Float || n instanceof Double;
    return switch (to) {
      case INT -> fp ? (int) n.doubleValue() : n.intValue();
      case LONG -> fp ? (long) n.doubleValue() : n.longValue();
      case FLOAT -> n instanceof Double ? (float) n.doubleValue() : fp ? n.floatValue() : (float) n.longValue();
      case DOUBLE -> fp ? n.doubleValue() : (double) n.longValue();
      case BYTE -> (int) (byte) (fp ? (int) n.doubleValue() : n.intValue());
      case SHORT -> (int) (short) (fp ? (int) n.doubleValue() : n.intValue());
      case CHAR -> (int) (char) (fp ? (int) n.doubleValue() : n.intValue());
      default -> throw new IllegalStateException("convert to " + to);
    };
  }
}
