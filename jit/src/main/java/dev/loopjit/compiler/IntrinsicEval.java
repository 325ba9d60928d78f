// Evaluates a pure intrinsic on known values with the Java method that defines it, for constant folding.
package dev.loopjit.compiler;

import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.Prim;
import java.util.List;

/**
 * Each {@link Intrinsic} names the Java method whose result it must equal; this calls that method.
 * Folding with it gives exactly what the {@code jvm} device computes, and keeps drivers from ever
 * seeing a built-in of a constant (PoCL 3.1 miscompiles {@code rint(1e300)}: see
 * docs/DRIVER-WORKAROUNDS.md). Float overloads of the double functions (only under fast math, or
 * {@code sqrt}) round the double result, which is what the compiler made of {@code (float) Math.f(x)}.
 */
final class IntrinsicEval {
  private IntrinsicEval() {}

  /** Whether {@code op} has no effect and no dependence on the work-item, so it can be evaluated at compile time. */
  static boolean foldable(Intrinsic op) {
    return switch (op) {
      case GLOBAL_ID, LOCAL_ID, GROUP_ID, GLOBAL_SIZE, LOCAL_SIZE, BARRIER_LOCAL, BARRIER_GLOBAL, ATOMIC_ADD, ATOMIC_CAS -> false;
      default -> true;
    };
  }

  /** {@code op} of {@code args} (Integer, Long, Float or Double, as the IR's constants hold them) giving a {@code type}. */
  static Object eval(Intrinsic op, Prim type, List<Object> args) {
    if (!foldable(op)) throw new IllegalStateException(op + " cannot be evaluated on the host");
    Object a = args.get(0);
    return switch (op) {
      case ABS -> switch (a) {
        case Integer x -> Math.abs(x);
        case Long x -> Math.abs(x);
        case Float x -> Math.abs(x);
        default -> Math.abs((Double) a);
      };
      case MIN, MAX -> minMax(op == Intrinsic.MIN, a, args.get(1));
      case FMA -> a instanceof Float x ? (Object) Math.fma(x, (Float) args.get(1), (Float) args.get(2))
          : (Object) Math.fma((Double) a, (Double) args.get(1), (Double) args.get(2));
      case FLOAT_BITS -> Float.floatToRawIntBits((Float) a);
      case BITS_FLOAT -> Float.intBitsToFloat((Integer) a);
      case DOUBLE_BITS -> Double.doubleToRawLongBits((Double) a);
      case BITS_DOUBLE -> Double.longBitsToDouble((Long) a);
      case POPCOUNT -> a instanceof Long x ? Long.bitCount(x) : Integer.bitCount((Integer) a);
      case CLZ -> a instanceof Long x ? Long.numberOfLeadingZeros(x) : Integer.numberOfLeadingZeros((Integer) a);
      case CTZ -> a instanceof Long x ? Long.numberOfTrailingZeros(x) : Integer.numberOfTrailingZeros((Integer) a);
      case DIV_UNCHECKED, REM_UNCHECKED -> divide(op == Intrinsic.REM_UNCHECKED, a, args.get(1));
      case ADD_NO_WRAP -> (Integer) a + (Integer) args.get(1);
      case MUL_NO_WRAP -> (Integer) a * (Integer) args.get(1);
      default -> {
        double x = ((Number) a).doubleValue(), y = args.size() > 1 ? ((Number) args.get(1)).doubleValue() : 0;
        double r = math(op, x, y);
        yield type == Prim.FLOAT ? (Object) (float) r : (Object) r;
      }
    };
  }

  /** Java's truncating division; a divisor of 0 (which legalise never leaves to these) gives 0, as on the devices. */
  private static Object divide(boolean rem, Object a, Object b) {
    return switch (a) {
      case Integer x -> { int y = (Integer) b; yield y == 0 ? 0 : rem ? x % y : x / y; }
      default -> { long x = (Long) a, y = (Long) b; yield y == 0 ? 0L : rem ? x % y : x / y; }
    };
  }

  private static Object minMax(boolean min, Object a, Object b) {
    return switch (a) {
      case Integer x -> min ? Math.min(x, (Integer) b) : Math.max(x, (Integer) b);
      case Long x -> min ? Math.min(x, (Long) b) : Math.max(x, (Long) b);
      case Float x -> min ? Math.min(x, (Float) b) : Math.max(x, (Float) b);
      default -> min ? Math.min((Double) a, (Double) b) : Math.max((Double) a, (Double) b);
    };
  }

  private static double math(Intrinsic op, double x, double y) {
    return switch (op) {
      case SQRT -> Math.sqrt(x);
      case CBRT -> Math.cbrt(x);
      case EXP -> Math.exp(x);
      case EXPM1 -> Math.expm1(x);
      case LOG -> Math.log(x);
      case LOG10 -> Math.log10(x);
      case LOG1P -> Math.log1p(x);
      case POW -> Math.pow(x, y);
      case SIN -> Math.sin(x);
      case COS -> Math.cos(x);
      case TAN -> Math.tan(x);
      case ASIN -> Math.asin(x);
      case ACOS -> Math.acos(x);
      case ATAN -> Math.atan(x);
      case ATAN2 -> Math.atan2(x, y);
      case SINH -> Math.sinh(x);
      case COSH -> Math.cosh(x);
      case TANH -> Math.tanh(x);
      case HYPOT -> Math.hypot(x, y);
      case FLOOR -> Math.floor(x);
      case CEIL -> Math.ceil(x);
      case RINT -> Math.rint(x);
      default -> throw new IllegalStateException(op + " is not a math function");
    };
  }
}
