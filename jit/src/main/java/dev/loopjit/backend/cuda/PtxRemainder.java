// Java's float and double % (C's fmod) in PTX, exact: PTX has no remainder instruction for floats.
package dev.loopjit.backend.cuda;

import dev.loopjit.backend.cuda.PtxCode.Reg;

/**
 * {@code x % y} for finite {@code |x| >= |y| > 0} is exact and has the sign of x. With
 * {@code x = mx * 2^ex'} and {@code y = my * 2^ey'} (integer significands, ex' >= ey'),
 * {@code |x| % |y| = ((mx * 2^(ex'-ey')) mod my) * 2^ey'}. The integer remainder is taken a few
 * bits at a time, {@code r = (r << s) mod my}, with s small enough that {@code r << s} fits in 64
 * bits; the unsigned rem.u64 is exact (the PTX caveat on rem is about negative operands). The
 * remainder is below {@code my}, so it converts to float exactly, and multiplying by the power of
 * two {@code 2^ey'} (a normal or subnormal float, since y's exponent is) is exact.
 * The special cases follow Java: NaN if either operand is NaN, if y is zero or x infinite; x itself
 * if |x| < |y| (so also for infinite y and for zero x).
 */
final class PtxRemainder {
  private PtxRemainder() {}

  /** Per-width constants: float and double differ only in these. */
  private record Format(Reg bits, String magnitude, String sign, String infinity, int mantissaBits, String mantissa,
      String implicit, int step, String nan) {}

  private static final Format FLOAT = new Format(Reg.INT, "0x7FFFFFFF", "0x80000000", "0x7F800000", 23, "0x7FFFFF",
      "0x800000", 40, "0f7FC00000"); // r < 2^24, so r << 40 < 2^64
  private static final Format DOUBLE = new Format(Reg.LONG, "0x7FFFFFFFFFFFFFFF", "0x8000000000000000", "0x7FF0000000000000", 52,
      "0xFFFFFFFFFFFFF", "0x10000000000000", 11, "0d7FF8000000000000"); // r < 2^53, so r << 11 < 2^64

  /** Emits {@code x % y} for FLOAT or DOUBLE registers and returns the result register. */
  static String emit(PtxCode code, Reg r, String x, String y) {
    Format f = r == Reg.FLOAT ? FLOAT : DOUBLE;
    Reg b = f.bits;
    String end = code.label("fmod_end");
    String ux = code.reg(b), uy = code.reg(b), ax = code.reg(b), ay = code.reg(b), sx = code.reg(b), d = code.reg(r);
    code.op("mov." + b.bits + " " + ux + ", " + x);
    code.op("mov." + b.bits + " " + uy + ", " + y);
    code.op("and." + b.bits + " " + ax + ", " + ux + ", " + f.magnitude);
    code.op("and." + b.bits + " " + ay + ", " + uy + ", " + f.magnitude);
    code.op("and." + b.bits + " " + sx + ", " + ux + ", " + f.sign);
    code.op("mov." + r.type + " " + d + ", " + x);

    String nanX = code.reg(Reg.PRED), nanY = code.reg(Reg.PRED), nan = code.reg(Reg.PRED);
    code.op("setp.gt." + b.unsigned + " " + nanX + ", " + ax + ", " + f.infinity);
    code.op("setp.gt." + b.unsigned + " " + nanY + ", " + ay + ", " + f.infinity);
    code.op("or.pred " + nan + ", " + nanX + ", " + nanY);
    code.op("@" + nan + " add.rn." + r.type + " " + d + ", " + x + ", " + y);
    code.op("@" + nan + " bra " + end);

    String zeroY = code.reg(Reg.PRED), infX = code.reg(Reg.PRED), invalid = code.reg(Reg.PRED);
    code.op("setp.eq." + b.unsigned + " " + zeroY + ", " + ay + ", 0");
    code.op("setp.eq." + b.unsigned + " " + infX + ", " + ax + ", " + f.infinity);
    code.op("or.pred " + invalid + ", " + zeroY + ", " + infX);
    code.op("@" + invalid + " mov." + r.type + " " + d + ", " + f.nan);
    code.op("@" + invalid + " bra " + end);

    String smaller = code.reg(Reg.PRED);
    code.op("setp.lt." + b.unsigned + " " + smaller + ", " + ax + ", " + ay);
    code.op("@" + smaller + " bra " + end);

    String[] sx0 = significand(code, f, ax), sy0 = significand(code, f, ay);
    String mx = sx0[0], ex = sx0[1], my = sy0[0], ey = sy0[1];
    String rem = code.reg(Reg.LONG), k = code.reg(Reg.INT), s = code.reg(Reg.INT);
    code.op("rem.u64 " + rem + ", " + mx + ", " + my);
    code.op("sub.s32 " + k + ", " + ex + ", " + ey);
    String loop = code.label("fmod_loop"), done = code.label("fmod_done");
    String finished = code.reg(Reg.PRED);
    code.at(loop);
    code.op("setp.le.s32 " + finished + ", " + k + ", 0");
    code.op("@" + finished + " bra " + done);
    code.op("min.s32 " + s + ", " + k + ", " + f.step);
    code.op("shl.b64 " + rem + ", " + rem + ", " + s);
    code.op("rem.u64 " + rem + ", " + rem + ", " + my);
    code.op("sub.s32 " + k + ", " + k + ", " + s);
    code.op("bra " + loop);
    code.at(done);

    // 2^(ey - bias - mantissaBits): biased exponent ey - mantissaBits when that is >= 1, else the
    // subnormal with only bit ey - 1 set.
    String q = code.reg(r), subnormal = code.reg(Reg.PRED);
    code.op("cvt.rn." + r.type + ".u64 " + q + ", " + rem);
    code.op("setp.lt.s32 " + subnormal + ", " + ey + ", " + (f.mantissaBits + 1));
    String field = code.reg(Reg.INT), normalBits = code.reg(b), low = code.reg(Reg.INT), one = code.reg(b),
        subnormalBits = code.reg(b), scaleBits = code.reg(b), scale = code.reg(r);
    code.op("sub.s32 " + field + ", " + ey + ", " + f.mantissaBits);
    code.op("shl." + b.bits + " " + normalBits + ", " + widen(code, b, field) + ", " + f.mantissaBits);
    code.op("sub.s32 " + low + ", " + ey + ", 1");
    code.op("mov." + b.bits + " " + one + ", 1");
    code.op("shl." + b.bits + " " + subnormalBits + ", " + one + ", " + low);
    code.op("selp." + b.bits + " " + scaleBits + ", " + subnormalBits + ", " + normalBits + ", " + subnormal);
    code.op("mov." + b.bits + " " + scale + ", " + scaleBits);
    String scaled = code.reg(r), magnitude = code.reg(b), signed = code.reg(b);
    code.op("mul.rn." + r.type + " " + scaled + ", " + q + ", " + scale);
    code.op("mov." + b.bits + " " + magnitude + ", " + scaled);
    code.op("or." + b.bits + " " + signed + ", " + magnitude + ", " + sx);
    code.op("mov." + b.bits + " " + d + ", " + signed);
    code.at(end);
    return d;
  }

  /** {64-bit integer significand, s32 exponent} of a magnitude; subnormals get exponent 1 and no implicit bit. */
  private static String[] significand(PtxCode code, Format f, String a) {
    Reg b = f.bits;
    String e = code.reg(b), m = code.reg(b), withImplicit = code.reg(b), sig = code.reg(b);
    String tiny = code.reg(Reg.PRED), exponent = code.reg(Reg.INT);
    code.op("shr." + b.unsigned + " " + e + ", " + a + ", " + f.mantissaBits);
    String e32 = e;
    if (b == Reg.LONG) {
      e32 = code.reg(Reg.INT);
      code.op("cvt.u32.u64 " + e32 + ", " + e);
    }
    code.op("and." + b.bits + " " + m + ", " + a + ", " + f.mantissa);
    code.op("or." + b.bits + " " + withImplicit + ", " + m + ", " + f.implicit);
    code.op("setp.eq.s32 " + tiny + ", " + e32 + ", 0");
    code.op("selp." + b.bits + " " + sig + ", " + m + ", " + withImplicit + ", " + tiny);
    code.op("selp.s32 " + exponent + ", 1, " + e32 + ", " + tiny);
    if (b == Reg.INT) {
      String wide = code.reg(Reg.LONG);
      code.op("cvt.u64.u32 " + wide + ", " + sig);
      sig = wide;
    }
    return new String[] {sig, exponent};
  }

  private static String widen(PtxCode code, Reg b, String int32) {
    if (b == Reg.INT) return int32;
    String w = code.reg(Reg.LONG);
    code.op("cvt.s64.s32 " + w + ", " + int32);
    return w;
  }
}
