// Expressions to PTX: each IR node's Java meaning as typed instructions writing fresh registers.
package dev.loopjit.backend.cuda;

import dev.loopjit.backend.cuda.PtxCode.Reg;
import dev.loopjit.ir.Target;
import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Expr.*;
import dev.loopjit.ir.IrPrinter;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Var;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Evaluates expressions into registers. Operands are evaluated left to right, as Java does; a
 * {@link Logic} right operand and the unchosen {@link Select} operand are never evaluated (they may
 * load memory Java would not touch). Every Var owns one register for the whole kernel.
 */
final class PtxExpressions {
  final PtxCode code;
  final Target target;
  private final Map<Var, String> vars = new LinkedHashMap<>();
  private final PtxConversions conversions;
  private final PtxIntrinsics intrinsics;

  PtxExpressions(PtxCode code, Target target) {
    this.code = code;
    this.target = target;
    this.conversions = new PtxConversions(code);
    this.intrinsics = new PtxIntrinsics(this);
  }

  /** The register of {@code v}, given on first use. */
  String var(Var v) {
    return vars.computeIfAbsent(v, x -> code.reg(Reg.of(x.type())));
  }

  /** Which register holds which variable, for a comment at the top of the kernel. */
  Map<Var, String> variables() {
    return vars;
  }

  /** The register holding {@code e}'s value, of class {@code Reg.of(e.type())}. */
  String eval(Expr e) {
    return switch (e) {
      case Const c -> constant(c);
      case Read r -> var(r.var());
      case Unary u -> unary(u.op(), Reg.of(u.type()), eval(u.x()));
      case Binary b -> binary(b);
      case Compare c -> compare(c);
      case Logic l -> logic(l);
      case Convert c -> conversions.convert(c.to(), Reg.of(c.x().type()), eval(c.x()));
      case Select s -> select(s);
      case Load l -> load(l);
      case Length l -> length(l);
      case Alloc a -> throw new IllegalStateException("new " + a.type() + " is only allowed as the value of an assignment");
      case Call c -> {
        String r = intrinsics.call(c);
        if (r == null) throw new IllegalStateException(c.op() + " has no value: " + IrPrinter.expr(c));
        yield r;
      }
      case Invoke i -> throw new IllegalStateException("call of " + i.owner() + "." + i.name() + " was not inlined before PTX emission");
    };
  }

  /** Evaluates a call for its effect (a barrier or an atomic whose old value is not used). */
  void effect(Expr call) {
    if (call instanceof Call c) intrinsics.call(c);
    else eval(call);
  }

  /** {@code mov} of the register class's own type; ptxas would accept a mismatched one silently. */
  void move(Reg r, String dst, String src) {
    code.op("mov." + r.type + " " + dst + ", " + src);
  }

  private String constant(Const c) {
    Reg r = Reg.of(c.type());
    String d = code.reg(r);
    String imm = switch (r) {
      case PRED -> c.longValue() != 0 ? "1" : "0";
      case INT -> Integer.toString((int) c.longValue());
      case LONG -> Long.toString(c.longValue());
      // Hex forms carry the exact bits, NaN payloads and signed zeros included.
      case FLOAT -> String.format("0f%08X", Float.floatToRawIntBits(((Number) c.value()).floatValue()));
      case DOUBLE -> String.format("0d%016X", Double.doubleToRawLongBits(((Number) c.value()).doubleValue()));
      case HALF -> throw new IllegalStateException("half constant");
    };
    code.op("mov." + r.type + " " + d + ", " + imm);
    return d;
  }

  private String unary(Op.Unary op, Reg r, String x) {
    String d = code.reg(r);
    switch (op) {
      case NOT -> {
        require(r == Reg.PRED, "! of a non-boolean");
        code.op("not.pred " + d + ", " + x);
      }
      case NEG -> {
        switch (r) {
          // Two's complement: -MIN_VALUE == MIN_VALUE, as in Java.
          case INT, LONG -> code.op("neg." + r.type + " " + d + ", " + x);
          // Java's fneg/dneg flip the sign bit, NaNs included; neg.f64 passes NaNs through unchanged
          // (CUDA Programming Guide, "Floating-Point Standard"), so flip the bit ourselves.
          case FLOAT, DOUBLE -> {
            Reg bits = r == Reg.FLOAT ? Reg.INT : Reg.LONG;
            String b = code.reg(bits), f = code.reg(bits);
            code.op("mov." + r.bits + " " + b + ", " + x);
            code.op("xor." + r.bits + " " + f + ", " + b + ", " + (r == Reg.FLOAT ? "0x80000000" : "0x8000000000000000"));
            code.op("mov." + r.bits + " " + d + ", " + f);
          }
          case PRED, HALF -> throw new IllegalStateException("- of a " + r);
        }
      }
    }
    return d;
  }

  private String binary(Binary b) {
    Reg r = Reg.of(b.a().type());
    String x = eval(b.a()), y = eval(b.b());
    Op.Binary op = b.op();
    if (op.isShift()) return shift(op, r, x, Reg.of(b.b().type()), y);
    require(Reg.of(b.b().type()) == r, "operands of " + op.symbol + " differ in type: " + IrPrinter.expr(b));
    if (r == Reg.PRED) {
      String d = code.reg(r);
      switch (op) {
        case AND, OR, XOR -> code.op(op.name().toLowerCase() + ".pred " + d + ", " + x + ", " + y);
        default -> throw new IllegalStateException(op.symbol + " on booleans");
      }
      return d;
    }
    if (r.isFloat()) {
      if (op == Op.Binary.REM) return PtxRemainder.emit(code, r, x, y);
      String name = switch (op) {
        case ADD -> "add";
        case SUB -> "sub";
        case MUL -> "mul";
        case DIV -> "div";
        default -> throw new IllegalStateException(op.symbol + " on " + r.type);
      };
      // An explicit .rn keeps each operation IEEE round-to-nearest and stops ptxas from fusing a
      // mul and an add into an fma ("mul/add sequences with no rounding modifiers may be optimized
      // to use fused-multiply-add", PTX ISA, add): Java never contracts. Fast math allows the fusion.
      // div.rn is the IEEE-correct division (div.approx and div.full are not) and stays in fast math.
      boolean contractible = target.fastMath() && op != Op.Binary.DIV;
      String d = code.reg(r);
      code.op(name + (contractible ? "." : ".rn.") + r.type + " " + d + ", " + x + ", " + y);
      return d;
    }
    require(r.isInteger(), op.symbol + " on " + r.type);
    if (op == Op.Binary.DIV || op == Op.Binary.REM)
      throw new IllegalStateException("integer " + op.symbol + " reaches the emitter only legalised (the legalise pass)");
    String d = code.reg(r);
    String name = switch (op) {
      // PTX integer add/sub/mul.lo wrap modulo 2^n, as Java's do.
      case ADD -> "add." + r.type;
      case SUB -> "sub." + r.type;
      case MUL -> "mul.lo." + r.type;
      case AND, OR, XOR -> op.name().toLowerCase() + "." + r.bits;
      case DIV, REM, SHL, SHR, USHR -> throw new AssertionError(op + " is handled above");
    };
    code.op(name + " " + d + ", " + x + ", " + y);
    return d;
  }

  /**
   * The device's truncating division or remainder of a divisor that is neither 0 nor -1 (the legalise
   * pass guarantees it: {@link dev.loopjit.ir.Intrinsic#DIV_UNCHECKED}). PTX says rem of negative
   * numbers is "machine-dependent" (PTX ISA, rem), so the remainder is {@code a - (a / d) * d}.
   */
  String divide(Reg r, String a, String b, boolean remainder) {
    String q = code.reg(r);
    code.op("div." + r.type + " " + q + ", " + a + ", " + b);
    if (!remainder) return q;
    String p = code.reg(r), m = code.reg(r);
    code.op("mul.lo." + r.type + " " + p + ", " + q + ", " + b);
    code.op("sub." + r.type + " " + m + ", " + a + ", " + p);
    return m;
  }

  /**
   * Java masks the distance to 5 (int) or 6 (long) bits; PTX shl/shr clamp distances above the
   * register width instead ("Shift amounts greater than the register width N are clamped to N",
   * PTX ISA, shl/shr), so the mask is explicit. The distance operand is always 32 bits in PTX.
   */
  private String shift(Op.Binary op, Reg r, String x, Reg distanceReg, String distance) {
    require(r.isInteger(), op.symbol + " on " + r.type);
    if (distanceReg == Reg.LONG) {
      String low = code.reg(Reg.INT);
      code.op("cvt.u32.u64 " + low + ", " + distance);
      distance = low;
    } else {
      require(distanceReg == Reg.INT, "shift distance of type " + distanceReg.type);
    }
    String masked = code.reg(Reg.INT), d = code.reg(r);
    code.op("and.b32 " + masked + ", " + distance + ", " + (r == Reg.INT ? 31 : 63));
    String name = switch (op) {
      case SHL -> "shl." + r.bits;
      case SHR -> "shr." + r.type;
      case USHR -> "shr." + r.unsigned;
      default -> throw new AssertionError(op);
    };
    code.op(name + " " + d + ", " + x + ", " + masked);
    return d;
  }

  private String compare(Compare c) {
    Reg r = Reg.of(c.a().type());
    String x = eval(c.a()), y = eval(c.b());
    require(Reg.of(c.b().type()) == r, "operands of " + c.op().symbol + " differ in type: " + IrPrinter.expr(c));
    String d = code.reg(Reg.PRED);
    if (r == Reg.PRED) {
      switch (c.op()) {
        case NE -> code.op("xor.pred " + d + ", " + x + ", " + y);
        case EQ -> {
          String ne = code.reg(Reg.PRED);
          code.op("xor.pred " + ne + ", " + x + ", " + y);
          code.op("not.pred " + d + ", " + ne);
        }
        default -> throw new IllegalStateException(c.op().symbol + " on booleans");
      }
      return d;
    }
    // Float eq/lt/le/gt/ge are the ordered comparisons (false on NaN); Java's != is true on NaN,
    // which is the unordered "neu" (PTX ISA, setp "Floating Point Comparisons").
    String cmp = switch (c.op()) {
      case EQ -> "eq";
      case NE -> r.isFloat() ? "neu" : "ne";
      case LT -> "lt";
      case LE -> "le";
      case GT -> "gt";
      case GE -> "ge";
    };
    code.op("setp." + cmp + "." + r.type + " " + d + ", " + x + ", " + y);
    return d;
  }

  private String logic(Logic l) {
    String d = code.reg(Reg.PRED), end = code.label(l.op() == Op.Logic.AND ? "and" : "or");
    code.op("mov.pred " + d + ", " + eval(l.a()));
    code.op((l.op() == Op.Logic.AND ? "@!" : "@") + d + " bra " + end);
    code.op("mov.pred " + d + ", " + eval(l.b()));
    code.at(end);
    return d;
  }

  /**
   * {@code c ? a : b}. Only the chosen operand is evaluated (the IR's rule), by branching — unless
   * both are cheap and cannot fail (variables, constants, arithmetic and bit moves of them), where
   * both are computed and {@code selp} picks one: no divergent branch (the legalise pass's
   * divisions and min/max are of that kind).
   */
  private String select(Select s) {
    Reg r = Reg.of(s.type());
    if (r != Reg.PRED && cheap(s.a(), 3) && cheap(s.b(), 3)) {
      String cond = eval(s.cond()), a = eval(s.a()), b = eval(s.b()), d = code.reg(r);
      code.op("selp." + r.type + " " + d + ", " + a + ", " + b + ", " + cond);
      return d;
    }
    String cond = eval(s.cond()), d = code.reg(r), otherwise = code.label("select_else"), end = code.label("select_end");
    code.op("@!" + cond + " bra " + otherwise);
    move(r, d, eval(s.a()));
    code.op("bra " + end);
    code.at(otherwise);
    move(r, d, eval(s.b()));
    code.at(end);
    return d;
  }

  /** Whether {@code e} may be computed unconditionally: no memory, no call but bit moves, at most {@code depth} levels. */
  private static boolean cheap(Expr e, int depth) {
    if (depth < 0) return false;
    return switch (e) {
      case Const c -> true;
      case Read r -> true;
      case Unary u -> cheap(u.x(), depth - 1);
      case Binary b -> b.op() != Op.Binary.DIV && b.op() != Op.Binary.REM && cheap(b.a(), depth - 1) && cheap(b.b(), depth - 1);
      case Compare c -> cheap(c.a(), depth - 1) && cheap(c.b(), depth - 1);
      case Convert c -> cheap(c.x(), depth - 1);
      case Select s -> cheap(s.cond(), depth - 1) && cheap(s.a(), depth - 1) && cheap(s.b(), depth - 1);
      case Call c -> switch (c.op()) {
        case FLOAT_BITS, BITS_FLOAT, DOUBLE_BITS, BITS_DOUBLE -> cheap(c.args().get(0), depth - 1);
        default -> false;
      };
      default -> false;
    };
  }

  private String length(Length l) {
    ArrayType t = (ArrayType) l.array().type();
    if (t.space() == ArrayType.Space.GLOBAL)
      throw new IllegalStateException("length of a kernel parameter array must be lowered to a Length argument: " + IrPrinter.expr(l));
    String d = code.reg(Reg.INT);
    code.op("mov.s32 " + d + ", " + t.length());
    return d;
  }

  /** PTX state space of an IR array: work-group arrays are CUDA shared memory, private ones local memory. */
  static String space(ArrayType t) {
    return switch (t.space()) {
      case GLOBAL -> "global";
      case LOCAL -> "shared";
      case PRIVATE -> "local";
    };
  }

  /** The memory type of an element in ld/st; narrow integers extend into 32-bit registers as Java's loads do. */
  static String memoryType(Prim element) {
    return switch (element) {
      case BOOLEAN -> "u8";
      case BYTE -> "s8";
      case CHAR -> "u16";
      case SHORT -> "s16";
      case INT -> "s32";
      case LONG -> "s64";
      case FLOAT -> "f32";
      case DOUBLE -> "f64";
      case HALF -> "b16";
    };
  }

  /** {@code [address]} of {@code array[index]}: base + (64-bit) index * element size. */
  String address(Expr array, Expr index) {
    require(array.type() instanceof ArrayType, "not an array: " + IrPrinter.expr(array));
    int size = ((ArrayType) array.type()).element().bytes();
    String base = eval(array);
    if (index instanceof Const c && Math.abs(c.longValue() * size) < Integer.MAX_VALUE) {
      long offset = c.longValue() * size;
      return "[" + base + (offset == 0 ? "" : "+" + offset) + "]";
    }
    Reg ir = Reg.of(index.type());
    String i = eval(index), offset = code.reg(Reg.LONG), sum = code.reg(Reg.LONG);
    if (ir == Reg.INT) code.op("mul.wide.s32 " + offset + ", " + i + ", " + size);
    else if (ir == Reg.LONG) code.op("mul.lo.s64 " + offset + ", " + i + ", " + size);
    else throw new IllegalStateException("array index of type " + ir.type);
    code.op("add.s64 " + sum + ", " + base + ", " + offset);
    return "[" + sum + "]";
  }

  private String load(Load l) {
    ArrayType t = (ArrayType) l.array().type();
    String at = address(l.array(), l.index());
    if (t.element() == Prim.HALF) {
      String h = code.reg(Reg.HALF), d = code.reg(Reg.FLOAT);
      code.op("ld." + space(t) + ".b16 " + h + ", " + at);
      code.op("cvt.f32.f16 " + d + ", " + h);
      return d;
    }
    String d = code.reg(Reg.of(t.element().stackType()));
    code.op("ld." + space(t) + "." + memoryType(t.element()) + " " + d + ", " + at);
    return d;
  }

  /** {@code array[index] = value}, evaluated in Java's order: array, index, value. */
  void store(Expr array, Expr index, Expr value) {
    ArrayType t = (ArrayType) array.type();
    String at = address(array, index);
    String v = eval(value);
    Reg vr = Reg.of(value.type());
    String stored = switch (t.element()) {
      case BOOLEAN -> {
        // The JVM's bastore keeps only bit 0 of an int stored into a boolean array.
        String b = code.reg(Reg.INT);
        if (vr == Reg.PRED) code.op("selp.s32 " + b + ", 1, 0, " + v);
        else code.op("and.b32 " + b + ", " + v + ", 1");
        yield b;
      }
      case HALF -> {
        require(vr == Reg.FLOAT, "store of " + vr.type + " into a half array");
        String h = code.reg(Reg.HALF);
        code.op("cvt.rn.f16.f32 " + h + ", " + v);
        yield h;
      }
      default -> {
        require(vr == Reg.of(t.element().stackType()), "store of " + vr.type + " into a " + t.element() + " array");
        yield v;
      }
    };
    code.op("st." + space(t) + "." + memoryType(t.element()) + " " + at + ", " + stored);
  }

  static void require(boolean ok, String what) {
    if (!ok) throw new IllegalStateException(what);
  }
}
