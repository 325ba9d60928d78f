// What each PTX instruction PtxEmitter writes does, per the PTX ISA, for PtxSimulator.
package dev.loopjit.backend.cuda;

import dev.loopjit.backend.cuda.PtxSimulator.Address;
import dev.loopjit.backend.cuda.PtxSimulator.Imm;
import dev.loopjit.backend.cuda.PtxSimulator.Insn;
import dev.loopjit.backend.cuda.PtxSimulator.Label;
import dev.loopjit.backend.cuda.PtxSimulator.Memory;
import dev.loopjit.backend.cuda.PtxSimulator.Operand;
import dev.loopjit.backend.cuda.PtxSimulator.Param;
import dev.loopjit.backend.cuda.PtxSimulator.Reg;
import dev.loopjit.backend.cuda.PtxSimulator.Special;
import dev.loopjit.backend.cuda.PtxSimulator.Thread;

/**
 * Registers hold raw bits masked to their declared width (.pred 1, then 16, 32 or 64).
 * Single-precision results that are NaN become 0x7FFFFFFF, as the CUDA Programming Guide says the
 * hardware does; global float atomics flush subnormals, as it also says.
 */
final class PtxInstructionSet {
  void execute(Thread t, Insn in) {
    if (in.guard() != null && (read(t, in.guard()) != 0) == in.negated()) return;
    String[] op = in.op();
    Operand[] a = in.args();
    String type = op[op.length - 1];
    switch (op[0]) {
      case "mov", "cvta" -> {
        if (a[0] instanceof PtxSimulator.Pair p) {   // mov.b64 {lo, hi}, x
          long v = get(t, a[1]);
          set(t, p.lo(), v);
          set(t, p.hi(), v >>> 32);
        } else {
          set(t, a[0], a[1] instanceof PtxSimulator.Pair p ? (read(t, p.lo()) & 0xFFFFFFFFL) | read(t, p.hi()) << 32 : get(t, a[1]));
        }
      }
      case "ld" -> set(t, a[0], load(t, op[1], type, a[1]));
      case "st" -> memory(t, op[1]).write(address(t, a[0]), width(type) / 8, get(t, a[1]));
      case "add", "sub", "mul", "div", "rem", "min", "max" -> set(t, a[0], arithmetic(op, type, get(t, a[1]), get(t, a[2])));
      case "mad" -> set(t, a[0], get(t, a[1]) * get(t, a[2]) + get(t, a[3]));
      case "neg" -> set(t, a[0], switch (type) {
        case "f32" -> get(t, a[1]) ^ 0x8000_0000L;
        case "f64" -> get(t, a[1]) ^ Long.MIN_VALUE;
        default -> -get(t, a[1]);
      });
      case "and" -> set(t, a[0], get(t, a[1]) & get(t, a[2]));
      case "or" -> set(t, a[0], get(t, a[1]) | get(t, a[2]));
      case "xor" -> set(t, a[0], get(t, a[1]) ^ get(t, a[2]));
      case "not" -> set(t, a[0], ~get(t, a[1]));
      case "shl", "shr" -> set(t, a[0], shift(op[0].equals("shl"), type, get(t, a[1]), get(t, a[2]) & 0xFFFFFFFFL));
      case "selp" -> set(t, a[0], get(t, a[3]) != 0 ? get(t, a[1]) : get(t, a[2]));
      case "setp" -> set(t, a[0], compare(op[1], type, get(t, a[1]), get(t, a[2])) ? 1 : 0);
      case "cvt" -> set(t, a[0], convert(op, get(t, a[1])));
      case "sqrt" -> set(t, a[0], type.equals("f32") ? f32((float) Math.sqrt(f32(get(t, a[1])))) : f64(Math.sqrt(f64(get(t, a[1])))));
      case "fma" -> set(t, a[0], type.equals("f32") ? f32(Math.fma(f32(get(t, a[1])), f32(get(t, a[2])), f32(get(t, a[3]))))
          : f64(Math.fma(f64(get(t, a[1])), f64(get(t, a[2])), f64(get(t, a[3])))));
      case "popc" -> set(t, a[0], type.equals("b32") ? Integer.bitCount((int) get(t, a[1])) : Long.bitCount(get(t, a[1])));
      case "clz" -> set(t, a[0], type.equals("b32") ? Integer.numberOfLeadingZeros((int) get(t, a[1])) : Long.numberOfLeadingZeros(get(t, a[1])));
      case "brev" -> set(t, a[0], type.equals("b32") ? Integer.reverse((int) get(t, a[1])) : Long.reverse(get(t, a[1])));
      case "atom" -> set(t, a[0], switch (op[2]) {
        case "add" -> atomicAdd(t, op[1], type, address(t, a[1]), get(t, a[2]));
        case "cas" -> compareAndSwap(t, op[1], type, address(t, a[1]), get(t, a[2]), get(t, a[3]));
        default -> throw new AssertionError("the simulator does not know " + in.text());
      });
      case "ex2" -> set(t, a[0], f32((float) Math.pow(2, f32(get(t, a[1])))));
      case "lg2" -> set(t, a[0], f32((float) (Math.log(f32(get(t, a[1]))) / Math.log(2))));
      case "sin" -> set(t, a[0], f32((float) Math.sin(f32(get(t, a[1])))));
      case "cos" -> set(t, a[0], f32((float) Math.cos(f32(get(t, a[1])))));
      case "tanh" -> set(t, a[0], f32((float) Math.tanh(f32(get(t, a[1])))));
      case "barrier", "bar" -> {
        t.waiting = true;
        t.waitingAt = "bar";
        t.phase++;
      }
      case "shfl" -> shuffle(t, in, a);
      case "call" -> vprintf(t, a);
      case "membar" -> {}
      case "bra" -> t.pc = ((Label) a[0]).pc();
      case "ret", "exit" -> t.done = true;
      default -> throw new AssertionError("the simulator does not know " + in.text());
    }
  }

  /**
   * {@code shfl.sync.idx.b32 d, value, lane, 31, members}: every thread of the block publishes its
   * value and waits (the warp converges; the emitted code calls it from every thread), then reads
   * the value of lane {@code lane} of its warp. The source lane and the caller must be in
   * {@code members}, and the source must exist.
   */
  private static void shuffle(Thread t, Insn in, Operand[] a) {
    if (!in.op()[1].equals("sync") || !in.op()[2].equals("idx") || !in.op()[3].equals("b32") || a.length != 5)
      throw new AssertionError("the simulator does not know " + in.text());
    if (!t.shufflePublished) {
      t.published[t.shuffles & 1] = get(t, a[1]);
      t.shufflePublished = true;
      t.waiting = true;
      t.waitingAt = "shfl";
      t.pc--;   // run it again once the warp has arrived
      return;
    }
    int lane = (int) get(t, a[2]), members = (int) get(t, a[4]), clamp = (int) get(t, a[3]);
    int warp = t.index / 32 * 32, mine = t.index - warp;
    if (clamp != 31) throw new AssertionError("shfl.sync with clamp " + clamp + ": " + in.text());
    if ((members >>> mine & 1) == 0) throw new AssertionError("lane " + mine + " runs " + in.text() + " outside its member mask " + Integer.toHexString(members));
    if (lane < 0 || lane > 31 || (members >>> lane & 1) == 0 || warp + lane >= t.peers.size())
      throw new AssertionError("shfl.sync from lane " + lane + " outside the member mask " + Integer.toHexString(members) + ": " + in.text());
    Thread source = t.peers.get(warp + lane);
    // The source has published this shuffle's value (and may have read it and gone on): else it exited or diverged.
    if (!(source.shuffles == t.shuffles && source.shufflePublished) && source.shuffles != t.shuffles + 1)
      throw new AssertionError("lane " + lane + " did not reach the shfl.sync of lane " + mine + " (exited or diverged): " + in.text());
    set(t, a[0], source.published[t.shuffles & 1]);
    t.shufflePublished = false;
    t.shuffles++;
  }

  /** CUDA's {@code vprintf(format, args)}: C's printf of the module's format with the packed arguments, to System.out. */
  private static void vprintf(Thread t, Operand[] a) {
    long format = t.local.read(((Imm) a[1]).bits(), 8), args = t.local.read(((Imm) a[2]).bits(), 8);
    String f = t.simulator().constantString(format);
    java.util.List<Object> values = new java.util.ArrayList<>();
    long offset = 0;
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("%[-0]*\\d*(?:\\.\\d+)?(l?)([dxXcf%])").matcher(f);
    while (m.find()) {
      char conv = m.group(2).charAt(0);
      if (conv == '%') continue;
      boolean wide = conv == 'f' || !m.group(1).isEmpty();
      if (wide) offset = (offset + 7) / 8 * 8;
      long bits = t.local.read(args + offset, wide ? 8 : 4);
      offset += wide ? 8 : 4;
      values.add(switch (conv) {
        case 'f' -> Double.longBitsToDouble(bits);
        case 'c' -> (char) bits;
        default -> wide ? (Object) bits : (Object) (int) bits;
      });
    }
    dev.loopjit.api.Debug.printf(f, values.toArray());
  }

  // ---- operands ----

  static int width(String type) {
    return type.equals("pred") ? 1 : Integer.parseInt(type.substring(1));
  }

  static long zext(long v, int w) {
    return w >= 64 ? v : v & ((1L << w) - 1);
  }

  static long sext(long v, int w) {
    return w >= 64 ? v : v << (64 - w) >> (64 - w);
  }

  private static long get(Thread t, Operand o) {
    return switch (o) {
      case Reg r -> read(t, r);
      case Imm i -> i.bits();
      case Special s -> t.ids[s.kind()][s.dim()];
      default -> throw new AssertionError("not a value: " + o);
    };
  }

  private static void set(Thread t, Operand o, long v) {
    if (!(o instanceof Reg r)) throw new AssertionError("not a register: " + o);
    t.regs[r.index()] = zext(v, r.width());
    t.written[r.index()] = true;
  }

  /**
   * A register's value. One no instruction of this thread has written is a failure, not a value:
   * on a GPU it holds whatever the hardware left there, which no fill the simulator could choose
   * stands in for (a compare-and-set loop whose "old value" was never assigned ended here only
   * because the register's fill equalled device memory's).
   */
  private static long read(Thread t, Reg r) {
    if (!t.written[r.index()])
      throw new AssertionError("register " + r.name() + " read before any instruction of thread " + t.index + " of block " + t.block
          + " wrote it (on a GPU its value is whatever the hardware left there)");
    return t.regs[r.index()];
  }

  private static long address(Thread t, Operand o) {
    if (!(o instanceof Address a)) throw new AssertionError("not an address: " + o);
    return get(t, a.base()) + a.offset();
  }

  private static Memory memory(Thread t, String space) {
    return switch (space) {
      case "global" -> t.launch.global();
      case "shared" -> t.shared;
      case "local" -> t.local;
      case "param" -> t.local;   // a call's .param slots (vprintf's), kept in the thread's local memory
      default -> throw new AssertionError("state space " + space);
    };
  }

  /** Atomics are ordered among themselves: no race check. */
  private static Memory atomicMemory(Thread t, String space) {
    return switch (space) {
      case "shared" -> t.shared.bytes;
      case "global" -> t.launch.global() instanceof PtxSimulator.GlobalMemory g ? g.memory : t.launch.global();
      default -> memory(t, space);
    };
  }

  private static long load(Thread t, String space, String type, Operand o) {
    int w = width(type);
    long raw = o instanceof Param p ? zext(t.launch.params()[p.index()], w) : memory(t, space).read(address(t, o), w / 8);
    return type.startsWith("s") ? sext(raw, w) : raw;
  }

  // ---- arithmetic ----

  static float f32(long bits) {
    return Float.intBitsToFloat((int) bits);
  }

  static double f64(long bits) {
    return Double.longBitsToDouble(bits);
  }

  static long f32(float f) {
    return Float.isNaN(f) ? 0x7FFFFFFFL : Float.floatToRawIntBits(f) & 0xFFFFFFFFL;
  }

  static long f64(double d) {
    return Double.doubleToRawLongBits(d);
  }

  private static long arithmetic(String[] op, String type, long x, long y) {
    String name = op[0];
    if (type.equals("f32")) {
      float a = f32(x), b = f32(y);
      return f32(switch (name) {
        case "add" -> a + b;
        case "sub" -> a - b;
        case "mul" -> a * b;
        case "div" -> a / b;
        default -> throw new AssertionError(name + ".f32");
      });
    }
    if (type.equals("f64")) {
      double a = f64(x), b = f64(y);
      return f64(switch (name) {
        case "add" -> a + b;
        case "sub" -> a - b;
        case "mul" -> a * b;
        case "div" -> a / b;
        default -> throw new AssertionError(name + ".f64");
      });
    }
    int w = width(type);
    boolean signed = type.startsWith("s");
    long a = signed ? sext(x, w) : zext(x, w), b = signed ? sext(y, w) : zext(y, w);
    long min = signed ? Long.MIN_VALUE >> (64 - w) : 0;
    return switch (name) {
      case "add" -> a + b;
      case "sub" -> a - b;
      case "mul" -> a * b; // operands are extended already, so for .wide this is the full product and for .lo its low bits
      case "div" -> b == 0 || (signed && a == min && b == -1) ? PtxSimulator.POISON
          : signed ? a / b : Long.divideUnsigned(a, b);
      case "rem" -> b == 0 || (signed && a == min && b == -1) ? PtxSimulator.POISON
          : signed ? a % b : Long.remainderUnsigned(a, b);
      case "min" -> signed ? Math.min(a, b) : (Long.compareUnsigned(a, b) < 0 ? a : b);
      case "max" -> signed ? Math.max(a, b) : (Long.compareUnsigned(a, b) > 0 ? a : b);
      default -> throw new AssertionError(name);
    };
  }

  /** shl/shr: "Shift amounts greater than the register width N are clamped to N" (PTX ISA). */
  private static long shift(boolean left, String type, long x, long n) {
    int w = width(type);
    long k = Math.min(n, w);
    if (left) return k >= 64 ? 0 : x << k;
    if (type.startsWith("s")) return sext(x, w) >> Math.min(k, 63);
    return k >= 64 ? 0 : zext(x, w) >>> k;
  }

  private static boolean compare(String cmp, String type, long x, long y) {
    if (type.startsWith("f")) {
      double a = type.equals("f32") ? f32(x) : f64(x), b = type.equals("f32") ? f32(y) : f64(y);
      boolean nan = Double.isNaN(a) || Double.isNaN(b);
      return switch (cmp) {
        case "eq" -> a == b;
        case "ne" -> !nan && a != b;
        case "lt" -> a < b;
        case "le" -> a <= b;
        case "gt" -> a > b;
        case "ge" -> a >= b;
        case "neu" -> a != b;
        case "nan" -> nan;
        default -> throw new AssertionError("setp." + cmp);
      };
    }
    int w = width(type);
    int c = type.startsWith("s") ? Long.compare(sext(x, w), sext(y, w)) : Long.compareUnsigned(zext(x, w), zext(y, w));
    return switch (cmp) {
      case "eq" -> c == 0;
      case "ne" -> c != 0;
      case "lt" -> c < 0;
      case "le" -> c <= 0;
      case "gt" -> c > 0;
      case "ge" -> c >= 0;
      default -> throw new AssertionError("setp." + cmp + "." + type);
    };
  }

  /** cvt{.rnd}.dtype.atype: the cases PtxEmitter writes, with the PTX ISA's clamping and NaN rules. */
  private static long convert(String[] op, long src) {
    String d = op[op.length - 2], s = op[op.length - 1], rnd = op.length == 4 ? op[1] : null;
    boolean dFloat = d.startsWith("f"), sFloat = s.startsWith("f");
    int wd = width(d), ws = width(s);
    if (sFloat && dFloat) {
      if (s.equals("f16")) return f32(Float.float16ToFloat((short) src));
      if (d.equals("f16")) return Float.floatToFloat16(f32(src)) & 0xFFFF;
      double v = s.equals("f32") ? f32(src) : f64(src);
      if (rnd != null && rnd.endsWith("i")) v = integral(rnd, v);
      return d.equals("f32") ? f32((float) v) : f64(v);
    }
    if (sFloat) {
      double v = s.equals("f32") ? f32(src) : f64(src);
      // "NaN input results in ... zero if source is not .f64 and destination is not .s64, .u64.
      // Otherwise 1 << (BitWidth(dst) - 1)" (PTX ISA, cvt Integer Notes).
      if (Double.isNaN(v)) return !s.equals("f64") && wd != 64 ? 0 : 1L << (wd - 1);
      v = integral(rnd, v);
      if (d.startsWith("s")) {
        if (wd == 64) return (long) v; // Java's (long) saturates the same way
        return (long) Math.max(Math.min(v, (double) ((1L << (wd - 1)) - 1)), (double) -(1L << (wd - 1)));
      }
      if (v <= 0) return 0;
      if (wd == 64) return v >= 0x1p64 ? -1L : v >= 0x1p63 ? (long) (v - 0x1p63) | Long.MIN_VALUE : (long) v;
      return (long) Math.min(v, (double) ((1L << wd) - 1));
    }
    long v = s.startsWith("s") ? sext(src, ws) : zext(src, ws);
    if (dFloat) {
      boolean unsignedBig = !s.startsWith("s") && ws == 64 && v < 0;
      if (d.equals("f32")) return f32(unsignedBig ? (float) (v >>> 1 | (v & 1)) * 2f : (float) v);
      return f64(unsignedBig ? (double) (v >>> 1 | (v & 1)) * 2d : (double) v);
    }
    return d.startsWith("s") ? sext(v, wd) : zext(v, wd);
  }

  private static double integral(String rnd, double v) {
    return switch (rnd) {
      case "rzi" -> v < 0 ? Math.ceil(v) : Math.floor(v);
      case "rmi" -> Math.floor(v);
      case "rpi" -> Math.ceil(v);
      case "rni" -> Math.rint(v);
      default -> throw new AssertionError("rounding " + rnd);
    };
  }

  /** atom.cas: stores {@code v} where the old bits equal {@code expected}; returns the old bits. */
  private static long compareAndSwap(Thread t, String space, String type, long at, long expected, long v) {
    Memory m = atomicMemory(t, space);
    int w = width(type);
    long old = m.read(at, w / 8);
    if (old == zext(expected, w)) m.write(at, w / 8, v);
    return old;
  }

  private static long atomicAdd(Thread t, String space, String type, long at, long v) {
    Memory m = atomicMemory(t, space);
    int w = width(type);
    long old = m.read(at, w / 8), sum;
    switch (type) {
      case "f32" -> {
        boolean ftz = space.equals("global");
        float a = flush(f32(old), ftz), b = flush(f32(v), ftz);
        sum = f32(flush(a + b, ftz));
      }
      case "f64" -> sum = f64(f64(old) + f64(v));
      default -> sum = old + v;
    }
    m.write(at, w / 8, sum);
    return old;
  }

  private static float flush(float f, boolean ftz) {
    return ftz && f != 0 && Math.abs(f) < Float.MIN_NORMAL ? Math.copySign(0f, f) : f;
  }
}
