// Expressions to SPIR-V: each IR node's Java meaning as typed instructions, operands evaluated left to right.
package dev.loopjit.backend.spirv;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.IrPrinter;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Var;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Evaluates expressions to result ids. Every {@link Var} lives in a Function variable (booleans
 * as an int 0/1, arrays as a pointer to their first element); drivers promote them to registers.
 * Java's meaning is kept where SPIR-V's differs: integer {@code /} and {@code %} never divide by 0
 * or overflow (the divisor is replaced by 1 when it is 0 or -1 and the special results chosen
 * after), shift distances are masked, float negation flips the sign bit, float-to-integer
 * conversions saturate with NaN to 0, and {@code &&}, {@code ||} and {@code ?:} evaluate only what
 * Java evaluates (branches and an OpPhi), since the operand not taken may read memory Java would not.
 */
final class SpirvExpressions {
  final SpirvCode code;
  final SpirvModule m;
  final boolean fastMath;
  private final Map<Var, Integer> vars = new LinkedHashMap<>();   // in first-use order, so the module is byte-stable
  private final SpirvIntrinsics intrinsics;

  SpirvExpressions(SpirvCode code, boolean fastMath) {
    this.code = code;
    this.m = code.m;
    this.fastMath = fastMath;
    this.intrinsics = new SpirvIntrinsics(this);
  }

  /** The Function variable of {@code v}, declared (and named) on first use. */
  int var(Var v) {
    Integer p = vars.get(v);
    if (p == null) {
      p = code.variable(code.storedType(v.type()), v.name());
      vars.put(v, p);
    }
    return p;
  }

  /** The Input variables of the work-item built-ins used, for the entry point's interface. */
  int[] interfaceVariables() {
    return intrinsics.interfaceVariables();
  }

  /** Every variable declared so far, for zeroing them at the kernel's start. */
  Map<Var, Integer> variables() {
    return vars;
  }

  /** Stores {@code value} (of {@code v}'s value type) into {@code v}. */
  void assign(Var v, int value) {
    if (v.type() == Prim.BOOLEAN) value = boolToInt(value);
    code.store(var(v), value);
  }

  int read(Var v) {
    int loaded = code.load(code.storedType(v.type()), var(v));
    return v.type() == Prim.BOOLEAN ? code.op(SpirvOp.INotEqual, m.boolType(), loaded, code.intConstant(0)) : loaded;
  }

  /** The id of {@code e}'s value, of type {@code code.valueType(e.type())}. */
  int eval(Expr e) {
    return switch (e) {
      case Const c -> constant(c);
      case Read r -> read(r.var());
      case Unary u -> unary(u);
      case Binary b -> binary(b);
      case Compare c -> compare(c);
      case Logic l -> logic(l);
      case Convert c -> convert(c.to(), c.x().prim(), eval(c.x()));
      case Select s -> select(s);
      case Load l -> load(l);
      case Length l -> {
        ArrayType t = (ArrayType) l.array().type();
        if (t.space() == ArrayType.Space.GLOBAL)
          throw new IllegalStateException("length of a kernel parameter array must be lowered to a Length argument: " + IrPrinter.expr(l));
        yield code.intConstant(t.length());
      }
      case Call c -> {
        Integer r = intrinsics.call(c);
        if (r == null) throw new IllegalStateException(c.op() + " has no value: " + IrPrinter.expr(c));
        yield r;
      }
      case Alloc a -> throw new IllegalStateException("new " + a.type() + " is only allowed as the value of an assignment");
      case Invoke i -> throw new IllegalStateException("call of " + i.owner() + "." + i.name() + " was not inlined");
    };
  }

  /** Evaluates a call for its effect (a barrier, or an atomic whose old value is not used). */
  void effect(Expr e) {
    if (e instanceof Call c) intrinsics.call(c);
    else eval(e);
  }

  int constant(Const c) {
    return switch (c.type()) {
      case BOOLEAN -> m.constant(c.longValue() != 0);
      case INT, BYTE, SHORT, CHAR -> code.intConstant((int) c.longValue());
      case LONG -> code.longConstant(c.longValue());
      case FLOAT -> m.constant(((Number) c.value()).floatValue());
      case DOUBLE -> m.constant(((Number) c.value()).doubleValue());
      case HALF -> throw new IllegalStateException("half is storage only; no half constants: " + c);
    };
  }

  /** A zero of stack type {@code p} (false for booleans). */
  int zero(Prim p) {
    if (p == Prim.BOOLEAN) return m.constant(false);
    return switch (p.stackType()) {
      case INT -> code.intConstant(0);
      case LONG -> code.longConstant(0);
      case FLOAT -> m.constant(0f);
      case DOUBLE -> m.constant(0d);
      default -> throw new IllegalStateException("no zero of " + p);
    };
  }

  int boolToInt(int b) {
    return code.op(SpirvOp.Select, m.intType(32), b, code.intConstant(1), code.intConstant(0));
  }

  // ---- operators ----------------------------------------------------------------------------

  private int unary(Unary u) {
    int x = eval(u.x());
    Prim p = u.prim();
    return switch (u.op()) {
      case NOT -> code.op(SpirvOp.LogicalNot, m.boolType(), x);
      case NEG -> switch (p) {
        // Two's complement: -MIN_VALUE == MIN_VALUE, as in Java.
        case INT, LONG -> code.op(SpirvOp.SNegate, code.valueType(p), x);
        // Java's fneg flips the sign bit, NaNs and zeros included; OpFNegate may be computed as 0 - x.
        case FLOAT, DOUBLE -> flipSign(p, x);
        default -> throw new IllegalStateException("- of a " + p);
      };
    };
  }

  int flipSign(Prim p, int x) {
    boolean d = p == Prim.DOUBLE;
    int bits = m.intType(d ? 64 : 32);
    int raw = code.op(SpirvOp.Bitcast, bits, x);
    int sign = d ? code.longConstant(Long.MIN_VALUE) : code.intConstant(Integer.MIN_VALUE);
    return code.op(SpirvOp.Bitcast, code.valueType(p), code.op(SpirvOp.BitwiseXor, bits, raw, sign));
  }

  private int binary(Binary b) {
    Prim p = b.a().prim();
    Op.Binary op = b.op();
    int x = eval(b.a()), y = eval(b.b());
    int type = code.valueType(p);
    if (p == Prim.BOOLEAN) {
      return switch (op) {
        case AND -> code.op(SpirvOp.LogicalAnd, type, x, y);
        case OR -> code.op(SpirvOp.LogicalOr, type, x, y);
        case XOR -> code.op(SpirvOp.LogicalNotEqual, type, x, y);
        default -> throw new IllegalStateException(op.symbol + " on booleans");
      };
    }
    if (p.isFloating()) {
      return switch (op) {
        case ADD -> code.arithmetic(SpirvOp.FAdd, type, x, y);
        case SUB -> code.arithmetic(SpirvOp.FSub, type, x, y);
        case MUL -> code.arithmetic(SpirvOp.FMul, type, x, y);
        // Correctly rounded where the program is built with -cl-fp32-correctly-rounded-divide-sqrt (see SpirvEmitter).
        case DIV -> code.arithmetic(SpirvOp.FDiv, type, x, y);
        // Java's float % is C's fmod, exact in OpenCL (0 ulp).
        case REM -> code.ext(type, Spv.CL_FMOD, x, y);
        default -> throw new IllegalStateException(op.symbol + " on " + p);
      };
    }
    return switch (op) {
      // OpIAdd, OpISub and OpIMul wrap modulo 2^n, as Java's do.
      case ADD -> code.op(SpirvOp.IAdd, type, x, y);
      case SUB -> code.op(SpirvOp.ISub, type, x, y);
      case MUL -> code.op(SpirvOp.IMul, type, x, y);
      case DIV, REM -> throw new IllegalStateException("integer " + op.symbol + " reaches the emitter only legalised (the legalise pass)");
      case AND -> code.op(SpirvOp.BitwiseAnd, type, x, y);
      case OR -> code.op(SpirvOp.BitwiseOr, type, x, y);
      case XOR -> code.op(SpirvOp.BitwiseXor, type, x, y);
      case SHL -> shift(SpirvOp.ShiftLeftLogical, p, x, b.b().prim(), y);
      case SHR -> shift(SpirvOp.ShiftRightArithmetic, p, x, b.b().prim(), y);
      case USHR -> shift(SpirvOp.ShiftRightLogical, p, x, b.b().prim(), y);
    };
  }

  /**
   * The device's truncating division or remainder (OpSDiv; OpSRem, whose sign is the dividend's, as
   * Java's) of a divisor that is neither 0 nor -1, where both are Java's: the legalise pass
   * guarantees it ({@link dev.loopjit.ir.Intrinsic#DIV_UNCHECKED}).
   */
  int divide(Prim p, int a, int b, boolean remainder) {
    return code.op(remainder ? SpirvOp.SRem : SpirvOp.SDiv, code.valueType(p), a, b);
  }

  /** Java masks the distance to 5 (int) or 6 (long) bits; SPIR-V leaves distances of the width or more undefined. */
  private int shift(SpirvOp op, Prim p, int x, Prim distanceType, int distance) {
    if (!p.isIntegral()) throw new IllegalStateException("shift of a " + p);
    boolean wide = p == Prim.LONG;
    int type = code.valueType(p);
    // The distance gets the shifted value's width: LLVM (the consumer of llvm-spirv's output) wants equal widths.
    if (distanceType == Prim.LONG && !wide) distance = code.op(SpirvOp.UConvert, type, distance);
    else if (distanceType != Prim.LONG && wide) distance = code.op(SpirvOp.UConvert, type, distance);
    int masked = code.op(SpirvOp.BitwiseAnd, type, distance, wide ? code.longConstant(63) : code.intConstant(31));
    return code.op(op, type, x, masked);
  }

  private int compare(Compare c) {
    Prim p = c.a().prim();
    int x = eval(c.a()), y = eval(c.b());
    SpirvOp op;
    if (p == Prim.BOOLEAN) {
      op = switch (c.op()) {
        case EQ -> SpirvOp.LogicalEqual;
        case NE -> SpirvOp.LogicalNotEqual;
        default -> throw new IllegalStateException(c.op().symbol + " on booleans");
      };
    } else if (p.isFloating()) {
      // Ordered comparisons are false on NaN; Java's != is true on NaN: the unordered not-equal.
      op = switch (c.op()) {
        case EQ -> SpirvOp.FOrdEqual;
        case NE -> SpirvOp.FUnordNotEqual;
        case LT -> SpirvOp.FOrdLessThan;
        case LE -> SpirvOp.FOrdLessThanEqual;
        case GT -> SpirvOp.FOrdGreaterThan;
        case GE -> SpirvOp.FOrdGreaterThanEqual;
      };
    } else {
      op = switch (c.op()) {
        case EQ -> SpirvOp.IEqual;
        case NE -> SpirvOp.INotEqual;
        case LT -> SpirvOp.SLessThan;
        case LE -> SpirvOp.SLessThanEqual;
        case GT -> SpirvOp.SGreaterThan;
        case GE -> SpirvOp.SGreaterThanEqual;
      };
    }
    return code.op(op, m.boolType(), x, y);
  }

  /** {@code a && b}, {@code a || b}: b is evaluated only when a does not decide. */
  private int logic(Logic l) {
    boolean and = l.op() == Op.Logic.AND;
    int a = eval(l.a());
    int from = code.current();
    int right = m.id(), join = m.id();
    if (and) code.branchConditional(a, right, join);
    else code.branchConditional(a, join, right);
    code.block(right);
    int b = eval(l.b());
    int fromRight = code.current();
    code.block(join);
    return code.phi(m.boolType(), m.constant(!and), from, b, fromRight);
  }

  /** {@code c ? a : b}: an OpSelect when both operands are cheap and cannot fault, else branches, so only the chosen one runs. */
  private int select(Select s) {
    int type = code.valueType(s.type());
    int c = eval(s.cond());
    if (harmless(s.a()) && harmless(s.b())) return code.op(SpirvOp.Select, type, c, eval(s.a()), eval(s.b()));
    int then = m.id(), otherwise = m.id(), join = m.id();
    code.branchConditional(c, then, otherwise);
    code.block(then);
    int a = eval(s.a());
    int fromA = code.current();
    code.branch(join);
    code.block(otherwise);
    int b = eval(s.b());
    int fromB = code.current();
    code.block(join);
    return code.phi(type, a, fromA, b, fromB);
  }

  /** Whether evaluating {@code e} has no effect, cannot fault and costs little: constants, variables and arithmetic on them. */
  private static boolean harmless(Expr e) {
    return switch (e) {
      case Const c -> true;
      case Read r -> true;
      case Unary u -> harmless(u.x());
      case Binary b -> harmless(b.a()) && harmless(b.b());
      case Compare c -> harmless(c.a()) && harmless(c.b());
      case Convert c -> harmless(c.x());
      case Select s -> harmless(s.cond()) && harmless(s.a()) && harmless(s.b());
      case Call c -> switch (c.op()) {
        case FLOAT_BITS, BITS_FLOAT, DOUBLE_BITS, BITS_DOUBLE -> harmless(c.args().get(0));
        default -> false;
      };
      default -> false;
    };
  }

  // ---- memory -------------------------------------------------------------------------------

  /**
   * A pointer to {@code array[index]}. An int index stays 32 bits (an access chain's indices are
   * signed and of any width), so a kernel without longs or work-item ids needs no Int64.
   */
  int address(Expr array, Expr index) {
    if (!(array.type() instanceof ArrayType t)) throw new IllegalStateException("not an array: " + IrPrinter.expr(array));
    int base = eval(array);
    int i = eval(index);
    return code.op(SpirvOp.InBoundsPtrAccessChain, code.pointerTo(t), base, i);
  }

  private int load(Load l) {
    ArrayType t = (ArrayType) l.array().type();
    if (t.element() == Prim.HALF) return loadHalf(l.array(), l.index(), t);
    int at = address(l.array(), l.index());
    int element = code.elementType(t.element(), t.space());
    int v = code.load(element, at);
    return switch (t.element()) {
      case BYTE, SHORT -> code.op(SpirvOp.SConvert, m.intType(32), v);
      case BOOLEAN, CHAR -> code.op(SpirvOp.UConvert, m.intType(32), v);
      default -> v;
    };
  }

  /** {@code array[index] = value}, evaluated in Java's order: array, index, value. */
  void store(Expr array, Expr index, Expr value) {
    ArrayType t = (ArrayType) array.type();
    if (t.element() == Prim.HALF) {
      storeHalf(array, index, value, t);
      return;
    }
    int at = address(array, index);
    int v = eval(value);
    int element = code.elementType(t.element(), t.space());
    int stored = switch (t.element()) {
      // The JVM's bastore keeps only bit 0 of an int stored into a boolean array.
      case BOOLEAN -> value.prim() == Prim.BOOLEAN
          ? code.op(SpirvOp.Select, element, v, m.constant(element, 1), m.constant(element, 0))
          : code.op(SpirvOp.UConvert, element, code.op(SpirvOp.BitwiseAnd, m.intType(32), v, code.intConstant(1)));
      // Narrowing keeps the low bits.
      case BYTE, SHORT, CHAR -> code.op(SpirvOp.UConvert, element, v);
      default -> v;
    };
    code.store(at, stored);
  }

  /**
   * Half elements: vload_half/vstore_half (OpenCL.std), which take a pointer to a 16-bit float and
   * convert exactly, and round to nearest even, as {@code Float.floatToFloat16}. Local and private
   * half arrays hold 16-bit integers, whose pointer is reinterpreted.
   */
  private int loadHalf(Expr array, Expr index, ArrayType t) {
    int base = halfPointer(eval(array), t);
    int i = widen(eval(index), index.prim());
    return code.ext(m.floatType(32), Spv.CL_VLOAD_HALF, i, base);
  }

  private void storeHalf(Expr array, Expr index, Expr value, ArrayType t) {
    int base = halfPointer(eval(array), t);
    int i = widen(eval(index), index.prim());
    int v = eval(value);
    code.ext(m.voidType(), Spv.CL_VSTORE_HALF, v, i, base);
  }

  private int halfPointer(int pointer, ArrayType t) {
    if (t.space() == ArrayType.Space.GLOBAL) return pointer;
    return code.op(SpirvOp.Bitcast, m.pointerType(SpirvCode.storageClass(t.space()), m.floatType(16)), pointer);
  }

  private int widen(int index, Prim p) {
    return p == Prim.LONG ? index : code.op(SpirvOp.SConvert, m.intType(64), index);
  }

  // ---- conversions --------------------------------------------------------------------------

  /** Java's conversion of {@code x} (stack type {@code from}) to {@code to}; the result has {@code to}'s stack type. */
  int convert(Prim to, Prim from, int x) {
    if (from == Prim.BOOLEAN) {   // a condition: 0 or 1 (stackType() would call it an int)
      if (to == Prim.BOOLEAN) return x;
      return convert(to, Prim.INT, boolToInt(x));
    }
    from = from.stackType();
    if (from == to.stackType() && to.stackType() == to) return x;
    return switch (to) {
      case BOOLEAN -> throw new IllegalStateException("no Java conversion from " + from + " to boolean");
      case INT -> toInt(from, x);
      case LONG -> from.isFloating() ? saturate(Prim.LONG, from, x) : code.op(SpirvOp.SConvert, m.intType(64), x);
      // Integer to float rounds to nearest even, OpenCL's default for conversions to floating point.
      case FLOAT -> from == Prim.DOUBLE ? code.op(SpirvOp.FConvert, m.floatType(32), x) : code.op(SpirvOp.ConvertSToF, m.floatType(32), x);
      case DOUBLE -> from == Prim.FLOAT ? code.op(SpirvOp.FConvert, m.floatType(64), x) : code.op(SpirvOp.ConvertSToF, m.floatType(64), x);
      // i2b, i2s: keep the low 8 or 16 bits and sign-extend them back; i2c zero-extends.
      case BYTE -> signExtend(toInt(from, x), 24);
      case SHORT -> signExtend(toInt(from, x), 16);
      case CHAR -> code.op(SpirvOp.BitwiseAnd, m.intType(32), toInt(from, x), code.intConstant(0xFFFF));
      case HALF -> roundToHalf(from == Prim.FLOAT ? x : convert(Prim.FLOAT, from, x));
    };
  }

  private int toInt(Prim from, int x) {
    return switch (from) {
      case INT -> x;
      case LONG -> code.op(SpirvOp.UConvert, m.intType(32), x);   // l2i keeps the low 32 bits
      case FLOAT, DOUBLE -> saturate(Prim.INT, from, x);
      default -> throw new IllegalStateException("conversion of a " + from + " to int");
    };
  }

  private int signExtend(int x, int bits) {
    int type = m.intType(32), n = code.intConstant(bits);
    return code.op(SpirvOp.ShiftRightArithmetic, type, code.op(SpirvOp.ShiftLeftLogical, type, x, n), n);
  }

  /**
   * f2i, f2l, d2i, d2l: toward zero (OpConvertFToS), saturating, NaN to 0. OpConvertFToS of a value
   * out of range is undefined, so the bounds and NaN are tested and the conversion's result is only
   * chosen when it is defined.
   */
  private int saturate(Prim to, Prim from, int x) {
    boolean wide = to == Prim.LONG, d = from == Prim.DOUBLE;
    int type = code.valueType(to), bool = m.boolType();
    double limit = wide ? 0x1p63 : 0x1p31;
    int upper = d ? m.constant(limit) : m.constant((float) limit), lower = d ? m.constant(-limit) : m.constant((float) -limit);
    int max = wide ? code.longConstant(Long.MAX_VALUE) : code.intConstant(Integer.MAX_VALUE);
    int min = wide ? code.longConstant(Long.MIN_VALUE) : code.intConstant(Integer.MIN_VALUE);
    int converted = code.op(SpirvOp.ConvertFToS, type, x);
    int high = code.op(SpirvOp.FOrdGreaterThanEqual, bool, x, upper), low = code.op(SpirvOp.FOrdLessThan, bool, x, lower);
    int clamped = code.op(SpirvOp.Select, type, low, min, code.op(SpirvOp.Select, type, high, max, converted));
    int nan = code.op(SpirvOp.IsNan, bool, x);
    return code.op(SpirvOp.Select, type, nan, zero(to), clamped);
  }

  /**
   * A float rounded to half precision (to nearest even) and back, as
   * {@code Float.float16ToFloat(Float.floatToFloat16(x))}: vstore_half into a private scratch
   * word and vload_half from it.
   */
  int roundToHalf(int x) {
    if (halfScratch == 0) halfScratch = code.variable(m.intType(32), "half_scratch");
    int half = code.op(SpirvOp.Bitcast, m.pointerType(Spv.SC_FUNCTION, m.floatType(16)), halfScratch);
    code.ext(m.voidType(), Spv.CL_VSTORE_HALF, x, code.longConstant(0), half);
    return code.ext(m.floatType(32), Spv.CL_VLOAD_HALF, code.longConstant(0), half);
  }

  private int halfScratch;
}
