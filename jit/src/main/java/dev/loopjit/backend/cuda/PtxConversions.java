// Java's primitive conversions (i2f, f2i, l2i, i2b, ...) as PTX cvt instructions plus the guards Java needs.
package dev.loopjit.backend.cuda;

import dev.loopjit.backend.cuda.PtxCode.Reg;
import dev.loopjit.ir.Prim;

/**
 * One method per target type of {@code Expr.Convert}. Sources are register classes: BOOLEAN values
 * are predicates, the narrow integer types are already extended ints, HALF values are floats.
 */
final class PtxConversions {
  private final PtxCode code;

  PtxConversions(PtxCode code) {
    this.code = code;
  }

  /** {@code (to) x} where {@code x} has class {@code from}; the result has class {@code Reg.of(to.stackType())}. */
  String convert(Prim to, Reg from, String x) {
    return switch (to) {
      case INT -> toInt(from, x);
      case LONG -> toLong(from, x);
      case FLOAT -> toFloat(from, x);
      case DOUBLE -> toDouble(from, x);
      // i2b, i2s, i2c: keep the low bits of the int and extend them again. cvt uses "the lower n
      // bits" of a wider source and sign- or zero-extends into a wider destination (PTX ISA, cvt
      // Notes), so one cvt is Java's narrowing followed by its widening back to int.
      case BYTE -> narrow("cvt.s32.s8", from, x);
      case SHORT -> narrow("cvt.s32.s16", from, x);
      case CHAR -> narrow("cvt.u32.u16", from, x);
      case BOOLEAN -> {
        // No Java conversion gives a boolean; this is the JVM's boolean narrowing (bit 0), or 0/1 of a predicate.
        String d = code.reg(Reg.INT);
        if (from == Reg.PRED) code.op("selp.s32 " + d + ", 1, 0, " + x);
        else code.op("and.b32 " + d + ", " + toInt(from, x) + ", 1");
        yield d;
      }
      case HALF -> {
        // Rounds to binary16 and back, as Float.float16ToFloat(Float.floatToFloat16((float) x)) would;
        // doubles go through float like that Java expression does.
        String h = code.reg(Reg.HALF), d = code.reg(Reg.FLOAT);
        code.op("cvt.rn.f16.f32 " + h + ", " + toFloat(from, x));
        code.op("cvt.f32.f16 " + d + ", " + h);
        yield d;
      }
    };
  }

  private String narrow(String cvt, Reg from, String x) {
    String d = code.reg(Reg.INT);
    code.op(cvt + " " + d + ", " + toInt(from, x));
    return d;
  }

  private String toInt(Reg from, String x) {
    return switch (from) {
      case INT -> x;
      case PRED -> select01(Reg.INT, x);
      case LONG -> {
        // l2i keeps the low 32 bits: an int-to-int cvt without .sat truncates.
        String d = code.reg(Reg.INT);
        code.op("cvt.u32.u64 " + d + ", " + x);
        yield d;
      }
      case FLOAT, DOUBLE -> floatToInteger(Reg.INT, from, x);
      case HALF -> throw new IllegalStateException("conversion of a raw half register");
    };
  }

  private String toLong(Reg from, String x) {
    return switch (from) {
      case LONG -> x;
      case PRED -> select01(Reg.LONG, x);
      case INT -> {
        String d = code.reg(Reg.LONG);
        code.op("cvt.s64.s32 " + d + ", " + x);
        yield d;
      }
      case FLOAT, DOUBLE -> floatToInteger(Reg.LONG, from, x);
      case HALF -> throw new IllegalStateException("conversion of a raw half register");
    };
  }

  /**
   * f2i, f2l, d2i, d2l: toward zero, saturating, NaN to 0. cvt.rzi clamps to the destination range
   * by default ("For float-to-integer conversions, the result is clamped to the destination range
   * by default", PTX ISA, cvt), but a NaN gives 0 only when the source is not .f64 and the
   * destination not 64 bits, MININT otherwise (PTX ISA, cvt "Integer Notes"); so NaN is tested
   * explicitly on every path.
   */
  private String floatToInteger(Reg to, Reg from, String x) {
    String t = code.reg(to), nan = code.reg(Reg.PRED), d = code.reg(to);
    code.op("cvt.rzi." + to.type + "." + from.type + " " + t + ", " + x);
    code.op("setp.nan." + from.type + " " + nan + ", " + x + ", " + x);
    code.op("selp." + to.type + " " + d + ", 0, " + t + ", " + nan);
    return d;
  }

  String toFloat(Reg from, String x) {
    return switch (from) {
      case FLOAT -> x;
      case PRED -> toFloat(Reg.INT, select01(Reg.INT, x));
      // i2f, l2f: one IEEE round-to-nearest-even, as Java's (PTX requires a rounding modifier here).
      case INT, LONG, DOUBLE -> {
        String d = code.reg(Reg.FLOAT);
        code.op("cvt.rn.f32." + from.type + " " + d + ", " + x);
        yield d;
      }
      case HALF -> throw new IllegalStateException("conversion of a raw half register");
    };
  }

  private String toDouble(Reg from, String x) {
    return switch (from) {
      case DOUBLE -> x;
      case PRED -> toDouble(Reg.INT, select01(Reg.INT, x));
      case INT, LONG -> {
        String d = code.reg(Reg.DOUBLE);
        code.op("cvt.rn.f64." + from.type + " " + d + ", " + x);
        yield d;
      }
      case FLOAT -> {
        // Exact; PTX forbids a rounding modifier on a widening float conversion.
        String d = code.reg(Reg.DOUBLE);
        code.op("cvt.f64.f32 " + d + ", " + x);
        yield d;
      }
      case HALF -> throw new IllegalStateException("conversion of a raw half register");
    };
  }

  private String select01(Reg to, String p) {
    String d = code.reg(to);
    code.op("selp." + to.type + " " + d + ", 1, 0, " + p);
    return d;
  }
}
