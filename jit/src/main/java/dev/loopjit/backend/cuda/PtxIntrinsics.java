// The IR's intrinsics in PTX: work-item geometry, barriers, atomics, and the Math methods PTX computes exactly.
package dev.loopjit.backend.cuda;

import dev.loopjit.backend.cuda.PtxCode.Reg;
import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.Call;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.IrPrinter;
import dev.loopjit.ir.Prim;
import java.util.EnumSet;
import java.util.Set;

/**
 * One case per {@link Intrinsic}. Math functions without a correctly rounded PTX instruction (exp,
 * sin, pow, ...) are refused: the front end inlines the JDK's StrictMath code for them instead,
 * unless fast math allows the {@code .approx} instructions (float only).
 */
final class PtxIntrinsics {
  private static final Set<Intrinsic> EXACT = EnumSet.of(Intrinsic.GLOBAL_ID, Intrinsic.LOCAL_ID, Intrinsic.GROUP_ID,
      Intrinsic.GLOBAL_SIZE, Intrinsic.LOCAL_SIZE, Intrinsic.BARRIER_LOCAL, Intrinsic.BARRIER_GLOBAL, Intrinsic.ATOMIC_ADD, Intrinsic.ATOMIC_CAS,
      Intrinsic.SQRT, Intrinsic.FMA, Intrinsic.FLOOR, Intrinsic.CEIL, Intrinsic.RINT, Intrinsic.ABS, Intrinsic.MIN, Intrinsic.MAX,
      Intrinsic.FLOAT_BITS, Intrinsic.BITS_FLOAT, Intrinsic.DOUBLE_BITS, Intrinsic.BITS_DOUBLE, Intrinsic.POPCOUNT, Intrinsic.CLZ,
      Intrinsic.CTZ, Intrinsic.DIV_UNCHECKED, Intrinsic.REM_UNCHECKED, Intrinsic.ADD_NO_WRAP, Intrinsic.MUL_NO_WRAP, Intrinsic.SIMD_SHUFFLE, Intrinsic.PRINTF);
  /** Float-only approximations allowed in fast math. */
  private static final Set<Intrinsic> APPROXIMATE = EnumSet.of(Intrinsic.EXP, Intrinsic.LOG, Intrinsic.LOG10, Intrinsic.SIN,
      Intrinsic.COS, Intrinsic.TANH);

  private final PtxExpressions exprs;
  private final PtxCode code;

  private final PtxExtras extras;

  PtxIntrinsics(PtxExpressions exprs) {
    this.exprs = exprs;
    this.code = exprs.code;
    this.extras = new PtxExtras(exprs);
  }

  static Set<Intrinsic> natives(boolean fastMath) {
    Set<Intrinsic> s = EnumSet.copyOf(EXACT);
    if (fastMath) s.addAll(APPROXIMATE);
    return s;
  }

  static boolean isNative(Intrinsic op, Prim type, boolean fastMath) {
    return EXACT.contains(op) || fastMath && APPROXIMATE.contains(op) && type == Prim.FLOAT;
  }

  /** Emits {@code c}; returns its result register, or null for a call with no value. */
  String call(Call c) {
    return switch (c.op()) {
      case GLOBAL_ID, LOCAL_ID, GROUP_ID, GLOBAL_SIZE, LOCAL_SIZE -> geometry(c);
      case BARRIER_LOCAL -> barrier(false);
      case BARRIER_GLOBAL -> barrier(true);
      case ATOMIC_ADD -> atomicAdd(c);
      case ATOMIC_CAS -> atomicCompareAndSet(c);
      // Correctly rounded (IEEE) forms: sqrt.rn, fma.rn (one rounding, as Math.fma).
      case SQRT -> floatOp("sqrt.rn", c);
      case FMA -> floatOp("fma.rn", c);
      // Rounding to an integral value in the float format: Math.floor, ceil and rint (ties to even).
      case FLOOR -> floatCvt("cvt.rmi", c);
      case CEIL -> floatCvt("cvt.rpi", c);
      case RINT -> floatCvt("cvt.rni", c);
      case ABS -> abs(c);
      case MIN, MAX -> minMax(c);
      case FLOAT_BITS -> bits(c, Reg.FLOAT, Reg.INT);
      case BITS_FLOAT -> bits(c, Reg.INT, Reg.FLOAT);
      case DOUBLE_BITS -> bits(c, Reg.DOUBLE, Reg.LONG);
      case BITS_DOUBLE -> bits(c, Reg.LONG, Reg.DOUBLE);
      case POPCOUNT -> countBits("popc", c);
      case CLZ -> countBits("clz", c);
      case CTZ -> trailingZeros(c);
      case DIV_UNCHECKED, REM_UNCHECKED -> {
        Reg r = Reg.of(c.type());
        yield exprs.divide(r, exprs.eval(arg(c, 0)), exprs.eval(arg(c, 1)), c.op() == Intrinsic.REM_UNCHECKED);
      }
      case ADD_NO_WRAP -> exprs.eval(new dev.loopjit.ir.Expr.Binary(dev.loopjit.ir.Op.Binary.ADD, arg(c, 0), arg(c, 1)));   // add.s32 wraps; the sum never does
      case MUL_NO_WRAP -> exprs.eval(new dev.loopjit.ir.Expr.Binary(dev.loopjit.ir.Op.Binary.MUL, arg(c, 0), arg(c, 1)));   // mul.lo.s32 likewise
      case EXP, LOG, LOG10, SIN, COS, TANH -> approximate(c);
      case CBRT, EXPM1, LOG1P, POW, TAN, ASIN, ACOS, ATAN, ATAN2, SINH, COSH, HYPOT -> throw noExact(c);
      case SIMD_SHUFFLE -> extras.shuffle(c);
      case PRINTF -> extras.printf(c);
      case SHAPE, SIMD_SUM, SIMD_MAX, THROW -> throw new IllegalStateException(c.op() + " is lowered by the compiler before emission: " + IrPrinter.expr(c));
      case LOAD_TRANSPOSED -> throw new IllegalStateException("only the coarsen pass of CPU targets writes " + IrPrinter.expr(c));
    };
  }

  private static IllegalStateException noExact(Call c) {
    return new IllegalStateException("no exact PTX for " + c.op() + " (" + IrPrinter.expr(c)
        + "); the front end must inline a Java implementation before PTX emission");
  }

  private Expr arg(Call c, int i) {
    if (c.args().size() <= i) throw new IllegalStateException(c.op() + " needs " + (i + 1) + " arguments: " + IrPrinter.expr(c));
    return c.args().get(i);
  }

  private String geometry(Call c) {
    if (!(arg(c, 0) instanceof Expr.Const dim) || dim.longValue() < 0 || dim.longValue() > 2)
      throw new IllegalStateException(c.op() + " needs a constant dimension 0, 1 or 2: " + IrPrinter.expr(c));
    String axis = "xyz".substring((int) dim.longValue(), (int) dim.longValue() + 1);
    String d = code.reg(Reg.INT);
    switch (c.op()) {
      case LOCAL_ID -> code.op("mov.u32 " + d + ", %tid." + axis);
      case GROUP_ID -> code.op("mov.u32 " + d + ", %ctaid." + axis);
      case LOCAL_SIZE -> code.op("mov.u32 " + d + ", %ntid." + axis);
      case GLOBAL_ID -> {
        String g = code.reg(Reg.INT), n = code.reg(Reg.INT), t = code.reg(Reg.INT);
        code.op("mov.u32 " + g + ", %ctaid." + axis);
        code.op("mov.u32 " + n + ", %ntid." + axis);
        code.op("mov.u32 " + t + ", %tid." + axis);
        code.op("mad.lo.s32 " + d + ", " + g + ", " + n + ", " + t);
      }
      case GLOBAL_SIZE -> {
        String g = code.reg(Reg.INT), n = code.reg(Reg.INT);
        code.op("mov.u32 " + g + ", %nctaid." + axis);
        code.op("mov.u32 " + n + ", %ntid." + axis);
        code.op("mul.lo.s32 " + d + ", " + g + ", " + n);
      }
      default -> throw new AssertionError(c.op());
    }
    return d;
  }

  /**
   * barrier.sync is bar.sync without ".aligned" ("bar.sync is equivalent to barrier.sync.aligned",
   * PTX ISA, barrier): on sm_70 and newer it stays correct when the threads of a warp reach it
   * through divergent branches, which structured Java code can produce, and on sm_6x it is the
   * aligned form. Work-items that returned early do not block it (PTX ISA, exit). It orders memory
   * among the CTA's threads; a global barrier adds membar.gl so that writes are visible device-wide.
   */
  private String barrier(boolean global) {
    if (global) code.op("membar.gl");
    code.op("barrier.sync 0");
    return null;
  }

  /**
   * atomicAdd(array, index, value), giving the old value. Global and local (shared) arrays use atom;
   * private arrays belong to one work-item, so a plain load and store is atomic. Note: float atomic
   * adds on global memory flush subnormals to zero on NVIDIA hardware (CUDA Programming Guide,
   * "Floating-Point Standard").
   */
  private String atomicAdd(Call c) {
    Expr array = arg(c, 0);
    ArrayType t = (ArrayType) array.type();
    String type = switch (t.element()) {
      case INT -> "u32";
      case LONG -> "u64";
      case FLOAT -> "f32";
      case DOUBLE -> "f64";
      default -> throw new IllegalStateException("atomic add on a " + t.element() + " array");
    };
    Reg r = Reg.of(t.element());
    String at = exprs.address(array, arg(c, 1));
    String v = exprs.eval(arg(c, 2));
    PtxExpressions.require(Reg.of(arg(c, 2).type()) == r, "atomic add of a " + arg(c, 2).type() + " to a " + t.element() + " array");
    String old = code.reg(r);
    if (t.space() == ArrayType.Space.PRIVATE) {
      String sum = code.reg(r);
      code.op("ld.local." + r.type + " " + old + ", " + at);
      code.op((r.isFloat() ? "add.rn." : "add.") + r.type + " " + sum + ", " + old + ", " + v);
      code.op("st.local." + r.type + " " + at + ", " + sum);
    } else {
      code.op("atom." + PtxExpressions.space(t) + ".add." + type + " " + old + ", " + at + ", " + v);
    }
    return old;
  }

  /** atom.cas on the element's bits (.b32/.b64 accept float registers of the same width). */
  private String atomicCompareAndSet(Call c) {
    Expr array = arg(c, 0);
    ArrayType t = (ArrayType) array.type();
    if (t.space() == ArrayType.Space.PRIVATE) throw new IllegalStateException("atomic compare-and-set on a private array");
    Reg r = Reg.of(t.element());
    String width = switch (t.element()) {
      case INT, FLOAT -> "b32";
      case LONG, DOUBLE -> "b64";
      default -> throw new IllegalStateException("atomic compare-and-set on a " + t.element() + " array");
    };
    String at = exprs.address(array, arg(c, 1));
    String expected = exprs.eval(arg(c, 2)), value = exprs.eval(arg(c, 3));
    PtxExpressions.require(Reg.of(arg(c, 2).type()) == r && Reg.of(arg(c, 3).type()) == r,
        "compare-and-set of mixed types on a " + t.element() + " array");
    String old = code.reg(r);
    code.op("atom." + PtxExpressions.space(t) + ".cas." + width + " " + old + ", " + at + ", " + expected + ", " + value);
    return old;
  }

  private Reg floatArg(Call c, int i) {
    Reg r = Reg.of(arg(c, i).type());
    if (!r.isFloat()) throw new IllegalStateException(c.op() + " of a " + arg(c, i).type() + ": " + IrPrinter.expr(c));
    return r;
  }

  private String floatOp(String name, Call c) {
    Reg r = floatArg(c, 0);
    StringBuilder operands = new StringBuilder();
    for (Expr a : c.args()) {
      PtxExpressions.require(Reg.of(a.type()) == r, c.op() + " with mixed operand types: " + IrPrinter.expr(c));
      operands.append(", ").append(exprs.eval(a));
    }
    String d = code.reg(r);
    code.op(name + "." + r.type + " " + d + operands);
    return d;
  }

  private String floatCvt(String name, Call c) {
    Reg r = floatArg(c, 0);
    String x = exprs.eval(arg(c, 0)), d = code.reg(r);
    code.op(name + "." + r.type + "." + r.type + " " + d + ", " + x);
    return d;
  }

  /**
   * Math.abs of a float or double: clear the sign bit, as Java does, NaNs included (abs.f64 passes
   * NaNs through unchanged). Integers arrive legalised ({@code x < 0 ? -x : x}, the legalise pass).
   */
  private String abs(Call c) {
    Expr a = arg(c, 0);
    Reg r = Reg.of(a.type());
    if (!r.isFloat()) throw new IllegalStateException("abs of a " + a.type() + " reaches the emitter only legalised (the legalise pass)");
    String x = exprs.eval(a), d = code.reg(r);
    Reg b = r == Reg.FLOAT ? Reg.INT : Reg.LONG;
    String bits = code.reg(b), cleared = code.reg(b);
    code.op("mov." + r.bits + " " + bits + ", " + x);
    code.op("and." + r.bits + " " + cleared + ", " + bits + ", " + (r == Reg.FLOAT ? "0x7FFFFFFF" : "0x7FFFFFFFFFFFFFFF"));
    code.op("mov." + r.bits + " " + d + ", " + cleared);
    return d;
  }

  /**
   * Math.min/max: min/max.s32/s64 for integers; for floats only with fast math (PTX's min and max
   * return the non-NaN operand and need not order -0.0 below 0.0) — with strict semantics the
   * legalise pass has written Java's rule out already.
   */
  private String minMax(Call c) {
    boolean min = c.op() == Intrinsic.MIN;
    Expr ea = arg(c, 0), eb = arg(c, 1);
    Reg r = Reg.of(ea.type());
    PtxExpressions.require(Reg.of(eb.type()) == r, c.op() + " with mixed operand types: " + IrPrinter.expr(c));
    if (r.isFloat() && !exprs.target.fastMath())
      throw new IllegalStateException("floating " + c.op() + " reaches the emitter only legalised (the legalise pass)");
    PtxExpressions.require(r.isInteger() || r.isFloat(), c.op() + " of a " + ea.type());
    String a = exprs.eval(ea), b = exprs.eval(eb), d = code.reg(r);
    code.op((min ? "min." : "max.") + r.type + " " + d + ", " + a + ", " + b);
    return d;
  }

  /** Float.floatToRawIntBits and friends: a move between register classes of one width. */
  private String bits(Call c, Reg from, Reg to) {
    Expr a = arg(c, 0);
    PtxExpressions.require(Reg.of(a.type()) == from, c.op() + " of a " + a.type());
    String x = exprs.eval(a), d = code.reg(to);
    code.op("mov." + from.bits + " " + d + ", " + x);
    return d;
  }

  /** Integer/Long.bitCount and numberOfLeadingZeros; popc and clz give a 32-bit count for either width (clz of 0 is the width). */
  private String countBits(String name, Call c) {
    Expr a = arg(c, 0);
    Reg r = Reg.of(a.type());
    PtxExpressions.require(r.isInteger(), c.op() + " of a " + a.type());
    String x = exprs.eval(a), d = code.reg(Reg.INT);
    code.op(name + "." + r.bits + " " + d + ", " + x);
    return d;
  }

  /** numberOfTrailingZeros: leading zeros of the bit-reversed value, which is the width for 0, as in Java. */
  private String trailingZeros(Call c) {
    Expr a = arg(c, 0);
    Reg r = Reg.of(a.type());
    PtxExpressions.require(r.isInteger(), c.op() + " of a " + a.type());
    String x = exprs.eval(a), reversed = code.reg(r), d = code.reg(Reg.INT);
    code.op("brev." + r.bits + " " + reversed + ", " + x);
    code.op("clz." + r.bits + " " + d + ", " + reversed);
    return d;
  }

  /** Fast math only, FLOAT only: the .approx instructions, scaled from base 2 where needed. */
  private String approximate(Call c) {
    if (!exprs.target.fastMath()) throw noExact(c);
    Expr a = arg(c, 0);
    if (a.type() != Prim.FLOAT)
      throw new IllegalStateException("no PTX for " + c.op() + " on " + a.type() + ": fast-math approximations exist for float only; "
          + "the front end must inline a Java implementation");
    if (c.op() == Intrinsic.TANH && smVersion(exprs.target.variant()) < 75)
      throw new IllegalStateException("tanh.approx.f32 needs sm_75 or newer, not " + exprs.target.variant());
    String x = exprs.eval(a), d = code.reg(Reg.FLOAT);
    switch (c.op()) {
      case EXP -> {
        String t = code.reg(Reg.FLOAT);
        code.op("mul.f32 " + t + ", " + x + ", " + f32(1.4426950408889634f)); // log2(e)
        code.op("ex2.approx.f32 " + d + ", " + t);
      }
      case LOG, LOG10 -> {
        String t = code.reg(Reg.FLOAT);
        code.op("lg2.approx.f32 " + t + ", " + x);
        code.op("mul.f32 " + d + ", " + t + ", " + f32(c.op() == Intrinsic.LOG ? 0.6931471805599453f : 0.3010299956639812f)); // ln 2, log10 2
      }
      case SIN -> code.op("sin.approx.f32 " + d + ", " + x);
      case COS -> code.op("cos.approx.f32 " + d + ", " + x);
      case TANH -> code.op("tanh.approx.f32 " + d + ", " + x);
      default -> throw new AssertionError(c.op());
    }
    return d;
  }

  static int smVersion(String variant) {
    return Integer.parseInt(variant.substring(3));
  }

  private static String f32(float v) {
    return String.format("0f%08X", Float.floatToRawIntBits(v));
  }
}
