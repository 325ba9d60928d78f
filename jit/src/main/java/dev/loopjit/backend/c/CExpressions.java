// The expression half of the C-family kernel emitters: Java's arithmetic, conversions and constants as C expressions.
package dev.loopjit.backend.c;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import java.util.Locale;

/**
 * IR expressions to C-family expressions. A dialect subclass supplies the names (types, address
 * spaces, bit casts, saturating conversions, half loads, intrinsics); this class gives Java's
 * integer semantics: int and long ADD/SUB/MUL/NEG/SHL/USHR are computed on the unsigned type of the
 * same width (no signed-overflow UB) and reinterpreted, shift distances are masked; integer DIV/REM
 * arrive legalised (the legalise pass) as calls the dialect maps to C's own {@code /} and {@code %}. Each
 * expression carries its C precedence, so parentheses appear only where C needs them (or where
 * mixing bitwise operators confuses readers).
 *
 * <p>Two things C leaves to the implementation are assumed, as every LLVM-based OpenCL compiler
 * does them: a cast to a narrower signed type keeps the low bits ({@code (char)x}, {@code (int)l}),
 * and {@code >>} on a negative signed value shifts in sign bits.
 */
public abstract class CExpressions {
  public static final int ASSIGN = 2, COND = 3, LOR = 4, LAND = 5, BOR = 6, BXOR = 7, BAND = 8, EQUAL = 9, REL = 10,
      SHIFT = 11, ADD = 12, MUL = 13, UNARY = 15, PRIMARY = 16;

  /** A C expression and the precedence of its outermost operator. */
  public record C(String text, int prec) {
    public static C of(String text) {
      return new C(text, PRIMARY);
    }

    /** The text, parenthesised unless its operator binds at least as tightly as {@code min}. */
    public String at(int min) {
      return prec >= min ? text : "(" + text + ")";
    }
  }

  protected final CNames names = new CNames();

  // ---- the dialect's table -------------------------------------------------------------------

  /** The C type of a value of stack type {@code p} (BOOLEAN, INT, LONG, FLOAT, DOUBLE), or the unsigned one. */
  protected abstract String type(Prim p, boolean unsigned);

  /** The C type of an array element stored in {@code space}. */
  protected abstract String elementType(Prim p, ArrayType.Space space);

  /** The address-space prefix of a pointer or array in {@code space}, with a trailing blank, or "". */
  protected abstract String space(ArrayType.Space space);

  /** {@code x}'s bits as a value of {@code to} (same size). */
  protected abstract C reinterpret(Prim to, C x);

  /** Java's float-to-INT/LONG conversion: round toward zero, saturate, NaN to 0. */
  protected abstract C saturate(Prim to, C x);

  /** Java's FLOAT rounded to half precision and back. */
  protected abstract C roundToHalf(C x);

  /** A load from a HALF array, as FLOAT. */
  protected abstract C loadHalf(C array, C index, ArrayType t);

  /** A call of an intrinsic. */
  protected abstract C intrinsic(Call c);

  // ---- expressions ---------------------------------------------------------------------------

  /** {@code e} as a C expression of the dialect's type for {@code e.type()}. */
  protected final C expr(Expr e) {
    return switch (e) {
      case Const c -> constant(c);
      case Read r -> C.of(names.of(r.var()));
      case Unary u -> switch (u.op()) {
        case NOT -> unary("!", expr(u.x()));
        case NEG -> u.prim().isIntegral() ? reinterpret(u.prim(), bits(u)) : unary("-", expr(u.x()));
      };
      case Binary b -> binary(b);
      case Compare c -> binary(expr(c.a()), c.op().symbol, expr(c.b()),
          c.op() == Op.Compare.EQ || c.op() == Op.Compare.NE ? EQUAL : REL);
      case Logic l -> binary(expr(l.a()), l.op().symbol, expr(l.b()), l.op() == Op.Logic.AND ? LAND : LOR);
      case Convert c -> convert(c.to(), c.x());
      case Select s -> new C(expr(s.cond()).at(LOR) + " ? " + expr(s.a()).at(ASSIGN) + " : " + expr(s.b()).at(COND), COND);
      case Load l -> {
        ArrayType t = (ArrayType) l.array().type();
        C array = expr(l.array()), index = expr(l.index());
        yield t.element() == Prim.HALF ? loadHalf(array, index, t) : C.of(array.at(PRIMARY) + "[" + index.text() + "]");
      }
      case Length l -> {
        ArrayType t = (ArrayType) l.array().type();
        if (t.space() == ArrayType.Space.GLOBAL) throw new IllegalStateException("length of a global array was not lowered: " + l);
        yield C.of(Integer.toString(t.length()));
      }
      case Call c -> intrinsic(c);
      case Alloc a -> throw new IllegalStateException("allocation outside an assignment: " + a);
      case Invoke i -> throw new IllegalStateException("call of " + i.owner() + "." + i.name() + " was not inlined");
    };
  }

  /**
   * {@code e} with exactly the C type of its IR type. {@link #expr} gives that type only after
   * C's integer promotions: a load from a byte, short, char or boolean array is a {@code char},
   * {@code short}, {@code ushort} or {@code uchar} in C, which arithmetic promotes to int by itself
   * but an overloaded built-in does not ({@code popcount((char)-1)} is 8, {@code min(short, ushort)}
   * is ambiguous, {@code as_float(char)} does not build). Arguments of built-ins go through here.
   */
  protected final C typed(Expr e) {
    C c = expr(e);
    return narrowInC(e) ? cast(type(Prim.INT, false), c) : c;
  }

  /** Whether {@code e}'s C expression has a type narrower than int: a narrow load or parameter, or a ?: of two. */
  private static boolean narrowInC(Expr e) {
    Prim p = switch (e) {
      case Load l -> ((ArrayType) l.array().type()).element();
      case Read r when r.type() != Prim.BOOLEAN && r.type() instanceof Prim q -> q; // a kernel's own byte parameter
      case Select s -> narrowInC(s.a()) && narrowInC(s.b()) ? Prim.BYTE : null;
      default -> null;
    };
    return p == Prim.BYTE || p == Prim.SHORT || p == Prim.CHAR || p == Prim.BOOLEAN;
  }

  private C binary(Binary b) {
    Prim p = b.a().prim();
    Op.Binary op = b.op();
    if (p == Prim.BOOLEAN || p.isFloating()) {
      return switch (op) {
        case ADD, SUB, MUL, DIV -> binary(expr(b.a()), op.symbol, expr(b.b()), op == Op.Binary.ADD || op == Op.Binary.SUB ? ADD : MUL);
        case REM -> C.of("fmod(" + expr(b.a()).text() + ", " + expr(b.b()).text() + ")");
        case AND -> binary(expr(b.a()), "&", expr(b.b()), BAND);
        case OR -> binary(expr(b.a()), "|", expr(b.b()), BOR);
        case XOR -> binary(expr(b.a()), "^", expr(b.b()), BXOR);
        case SHL, SHR, USHR -> throw new IllegalStateException(op + " on " + p);
      };
    }
    return switch (op) {
      case ADD, SUB, MUL, SHL, USHR -> reinterpret(p, bits(b));
      case DIV, REM -> throw new IllegalStateException("integer " + op.symbol + " reaches the emitter only legalised (the legalise pass)");
      case AND -> binary(expr(b.a()), "&", expr(b.b()), BAND);
      case OR -> binary(expr(b.a()), "|", expr(b.b()), BOR);
      case XOR -> binary(expr(b.a()), "^", expr(b.b()), BXOR);
      case SHR -> binary(expr(b.a()), ">>", distance(b.b(), p), SHIFT);
    };
  }

  /** An INT or LONG expression computed on the unsigned type of the same width, where it wraps as Java's does. */
  private C bits(Expr e) {
    Prim p = e.prim();
    if (e instanceof Const c && c.longValue() >= 0) return C.of(c.longValue() + (p == Prim.LONG ? "uL" : "u"));
    if (e instanceof Unary u && u.op() == Op.Unary.NEG) return unary("-", bits(u.x()));
    if (e instanceof Binary b) {
      switch (b.op()) {
        case ADD, SUB -> { return binary(bits(b.a()), b.op().symbol, bits(b.b()), ADD); }
        case MUL -> { return binary(bits(b.a()), "*", bits(b.b()), MUL); }
        case SHL -> { return binary(bits(b.a()), "<<", distance(b.b(), p), SHIFT); }
        case USHR -> { return binary(bits(b.a()), ">>", distance(b.b(), p), SHIFT); }
        case DIV, REM, AND, OR, XOR, SHR -> {}
      }
    }
    // Everything else has a signed value without overflow; its bits are the cast.
    return cast(type(p, true), expr(e));
  }

  /** A shift distance masked as Java does (to 0..31 for INT, 0..63 for LONG). */
  private C distance(Expr d, Prim shifted) {
    int mask = shifted == Prim.LONG ? 63 : 31;
    if (d instanceof Const c) return C.of(Long.toString(c.longValue() & mask));
    return binary(expr(d), "&", C.of(Integer.toString(mask)), BAND);
  }

  private C convert(Prim to, Expr x) {
    Prim from = x.prim();
    C v = expr(x);
    if (from == to || from == Prim.BOOLEAN && to == Prim.INT) return v;
    return switch (to) {
      case BOOLEAN -> throw new IllegalStateException("no Java conversion from " + from + " to boolean");
      case INT -> from.isFloating() ? saturate(Prim.INT, v) : cast(type(Prim.INT, false), v);
      case LONG -> from.isFloating() ? saturate(Prim.LONG, v) : cast(type(Prim.LONG, false), v);
      case FLOAT, DOUBLE -> cast(type(to, false), v);
      case BYTE, SHORT, CHAR -> cast(type(Prim.INT, false),
          cast(elementType(to, ArrayType.Space.PRIVATE), from.isFloating() ? saturate(Prim.INT, v) : v));
      case HALF -> roundToHalf(from == Prim.FLOAT ? v : cast(type(Prim.FLOAT, false), v));
    };
  }

  /** A constant, written so that C reads back exactly the same value and type. */
  protected final C constant(Const c) {
    Prim p = c.type();
    return switch (p) {
      case BOOLEAN -> C.of(c.longValue() != 0 ? "1" : "0");
      case LONG -> c.longValue() == Long.MIN_VALUE ? C.of("(-9223372036854775807L-1L)") : signed(c.longValue() + "L");
      case FLOAT -> {
        float f = ((Number) c.value()).floatValue();
        if (Float.isNaN(f)) yield reinterpret(Prim.FLOAT, C.of(String.format(Locale.ROOT, "0x%08x", Float.floatToRawIntBits(f))));
        if (Float.isInfinite(f)) yield signed(f > 0 ? "INFINITY" : "-INFINITY");
        yield signed(Float.toString(f) + "f");
      }
      case DOUBLE -> {
        double d = ((Number) c.value()).doubleValue();
        if (Double.isNaN(d)) yield reinterpret(Prim.DOUBLE, C.of(String.format(Locale.ROOT, "0x%016xL", Double.doubleToRawLongBits(d))));
        if (Double.isInfinite(d)) yield d > 0 ? cast("double", C.of("INFINITY")) : unary("-", cast("double", C.of("INFINITY")));
        yield signed(Double.toString(d));
      }
      case INT, BYTE, SHORT, CHAR -> c.longValue() == Integer.MIN_VALUE ? C.of("(-2147483647-1)") : signed(Long.toString(c.longValue()));
      case HALF -> throw new IllegalStateException("half is storage only; no half constants: " + c);
    };
  }

  private static C signed(String literal) {
    return new C(literal, literal.startsWith("-") ? UNARY : PRIMARY);
  }

  // ---- C syntax ------------------------------------------------------------------------------

  public static C cast(String type, C x) {
    return new C("(" + type + ")" + x.at(UNARY), UNARY);
  }

  public static C unary(String op, C x) {
    String t = x.at(UNARY);
    // "- -x" must not become "--x".
    return new C(op + (t.startsWith("-") || t.startsWith("+") ? "(" + t + ")" : t), UNARY);
  }

  /** {@code a op b} for a left-associative operator of precedence {@code prec}. */
  public static C binary(C a, String op, C b, int prec) {
    return new C(operand(a, prec, false) + " " + op + " " + operand(b, prec, true), prec);
  }

  private static String operand(C x, int prec, boolean right) {
    boolean bitwise = prec >= BOR && prec <= BAND || prec == SHIFT;
    // Parenthesise what C would misread, and mixtures of bitwise and other operators, or && under ||, which people misread.
    boolean confusing = x.prec() != prec && x.prec() > ASSIGN && x.prec() < UNARY && (bitwise || prec == LOR && x.prec() == LAND);
    return (right ? x.prec() > prec : x.prec() >= prec) && !confusing ? x.text() : "(" + x.text() + ")";
  }
}
