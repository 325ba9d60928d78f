// Java's meaning of the IR's unary, binary, comparison and conversion operators on known values: one evaluator for the host and the compiler.
package dev.loopjit.ir;

/**
 * What {@link Op} and {@link Expr.Convert} mean, applied to values as the IR's constants hold
 * them (Integer, Long, Float, Double, Boolean): Java's arithmetic, wrapping and shifting as Java
 * does; integer division and remainder by zero give 0, as on the devices; a comparison with NaN is
 * false but for {@code !=}, and {@code -0.0 == 0.0}; a float converts to an integer saturating, NaN
 * to 0. Each method gives null where the operator does not apply to the values (a shift of
 * floats, an operand that is not a value); the callers decide what that means: the compiler's
 * folding and the host's launch shapes ({@code compiler.HostEval}) fail, the work estimate
 * ({@link WorkCounter}) does not know the value.
 */
public final class JavaValues {
  private JavaValues() {}

  /** {@code -x} of type {@code t}, or {@code !x}. */
  public static Object unary(Op.Unary op, Prim t, Object x) {
    if (op == Op.Unary.NOT) return x instanceof Boolean b ? !b : null;
    if (!(x instanceof Number n)) return null;
    return switch (t) {
      case INT -> -n.intValue();
      case LONG -> -n.longValue();
      case FLOAT -> -n.floatValue();
      case DOUBLE -> -n.doubleValue();
      default -> null;
    };
  }

  /** {@code a op b}, of type {@code t} ({@code a}'s; a shift's distance is an int). */
  public static Object binary(Op.Binary op, Prim t, Object a0, Object b0) {
    if (a0 instanceof Boolean a && b0 instanceof Boolean b)
      return switch (op) { case AND -> a & b; case OR -> a | b; case XOR -> a ^ b; default -> null; };
    if (!(a0 instanceof Number an) || !(b0 instanceof Number bn)) return null;
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
        yield switch (op) { case ADD -> a + b; case SUB -> a - b; case MUL -> a * b; case DIV -> a / b; case REM -> a % b; default -> null; };
      }
      case DOUBLE -> {
        double a = an.doubleValue(), b = bn.doubleValue();
        yield switch (op) { case ADD -> a + b; case SUB -> a - b; case MUL -> a * b; case DIV -> a / b; case REM -> a % b; default -> null; };
      }
      default -> null;
    };
  }

  /** {@code a op b} on numbers: integers exactly, floating values as IEEE compares them. */
  public static Boolean compare(Op.Compare op, Object a0, Object b0) {
    if (!(a0 instanceof Number a) || !(b0 instanceof Number b)) return null;
    boolean fp = a instanceof Float || a instanceof Double || b instanceof Float || b instanceof Double;
    if (fp && (Double.isNaN(a.doubleValue()) || Double.isNaN(b.doubleValue()))) return op == Op.Compare.NE;
    int c = fp ? Double.compare(a.doubleValue() + 0.0, b.doubleValue() + 0.0) : Long.compare(a.longValue(), b.longValue());
    return switch (op) { case EQ -> c == 0; case NE -> c != 0; case LT -> c < 0; case LE -> c <= 0; case GT -> c > 0; case GE -> c >= 0; };
  }

  /** Java's primitive conversion of {@code v} to {@code to}; BYTE, SHORT and CHAR give the int they extend to, a boolean 0 or 1. */
  public static Object convert(Prim to, Object v) {
    if (v instanceof Boolean b) return b ? 1 : 0;
    if (!(v instanceof Number n)) return null;
    boolean fp = n instanceof Float || n instanceof Double;
    return switch (to) {
      case INT -> fp ? (int) n.doubleValue() : n.intValue();
      case LONG -> fp ? (long) n.doubleValue() : n.longValue();
      case FLOAT -> n instanceof Double ? (float) n.doubleValue() : fp ? n.floatValue() : (float) n.longValue();
      case DOUBLE -> fp ? n.doubleValue() : (double) n.longValue();
      case BYTE -> (int) (byte) (fp ? (int) n.doubleValue() : n.intValue());
      case SHORT -> (int) (short) (fp ? (int) n.doubleValue() : n.intValue());
      case CHAR -> (int) (char) (fp ? (int) n.doubleValue() : n.intValue());
      default -> null;
    };
  }
}
