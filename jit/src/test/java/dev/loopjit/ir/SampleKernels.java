// Lowered kernels written by hand, covering every IR node and intrinsic, for emitter tests.
package dev.loopjit.ir;

import static dev.loopjit.ir.IrBuilder.*;
import static dev.loopjit.ir.Prim.*;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Kernels as the lowering passes would hand them to an emitter. Each comment gives the Java
 * the IR stands for, which is what a device must compute. Local names such as {@code half},
 * {@code length}, {@code kernel} and {@code float4} are legal in Java and must survive emission.
 */
public final class SampleKernels {
  private SampleKernels() {}

  static final Var I = var("i", INT), N = var("n", INT);

  /** Every sample by name, in a stable order. */
  public static Map<String, KernelIR> all() {
    Map<String, KernelIR> m = new TreeMap<>();
    for (KernelIR k : List.of(intOps(), longOps(), bits(), conversions(), minMax(), halfs(), atomics(), control(),
        localReduce(), privateArrays(), flags(), narrowArrays(), scalars(), math(false), math(true)))
      m.put(k.name(), k);
    return m;
  }

  /** out[16i+k] = op_k(a[i], b[i]) for int +, -, *, /, %, <<, >>, >>>, neg, abs (as the legalise pass leaves it), min, max, /7, %-3, bitwise, (x<<35)+y. */
  public static KernelIR intOps() {
    Var a = global("a", INT), b = global("b", INT), out = global("out", INT);
    Var x = var("half", INT), y = var("length", INT), base = var("kernel", INT);
    Expr X = read(x), Y = read(y);
    List<Expr> ops = List.of(add(X, Y), sub(X, Y), mul(X, Y), div(X, Y), rem(X, Y), shl(X, Y), shr(X, Y), ushr(X, Y),
        neg(X), select(lt(X, c(0)), neg(X), X), call(Intrinsic.MIN, INT, X, Y), call(Intrinsic.MAX, INT, X, Y),
        div(X, c(7)), rem(X, c(-3)), xor(and(X, Y), or(X, c(3))), add(shl(X, c(35)), Y));
    return kernel("intOps", List.of(a, b, out, N), N, perItem(I, N, stores(out, base, 16, ops,
        set(x, load(a, read(I))), set(y, load(b, read(I))))));
  }

  /** out[16i+k] = op_k(a[i], b[i]) for long, shift distances s[i]; also (long)(int)x, x<<65, popcount, clz, ctz. */
  public static KernelIR longOps() {
    Var a = global("a", LONG), b = global("b", LONG), s = global("s", INT), out = global("out", LONG);
    Var x = var("x", LONG), y = var("y", LONG), d = var("d", INT), base = var("base", INT);
    Expr X = read(x), Y = read(y), D = read(d);
    List<Expr> ops = List.of(add(X, Y), sub(X, Y), mul(X, Y), div(X, Y), rem(X, Y), shl(X, D), shr(X, D), ushr(X, D),
        neg(X), select(lt(X, c(0L)), neg(X), X), call(Intrinsic.MIN, LONG, X, Y), call(Intrinsic.MAX, LONG, X, Y),
        div(X, c(-7L)), conv(LONG, conv(INT, X)), shl(X, c(65)),
        conv(LONG, add(add(call(Intrinsic.POPCOUNT, INT, X), mul(call(Intrinsic.CLZ, INT, X), c(100))), mul(call(Intrinsic.CTZ, INT, X), c(10000)))));
    return kernel("longOps", List.of(a, b, s, out, N), N, perItem(I, N, stores(out, base, 16, ops,
        set(x, load(a, read(I))), set(y, load(b, read(I))), set(d, load(s, read(I))))));
  }

  /** out[5i+k]: popcount, clz, ctz of a[i]; floatToRawIntBits(f[i]); floatToRawIntBits(intBitsToFloat(a[i])); outL[2i+k]: doubleToRawLongBits(d[i]) and back. */
  public static KernelIR bits() {
    Var a = global("a", INT), f = global("f", FLOAT), d = global("d", DOUBLE), out = global("out", INT), outL = global("outL", LONG);
    Var base = var("base", INT), x = var("x", INT);
    Expr X = read(x);
    List<Expr> ops = List.of(call(Intrinsic.POPCOUNT, INT, X), call(Intrinsic.CLZ, INT, X), call(Intrinsic.CTZ, INT, X),
        call(Intrinsic.FLOAT_BITS, INT, load(f, read(I))), call(Intrinsic.FLOAT_BITS, INT, call(Intrinsic.BITS_FLOAT, FLOAT, X)));
    List<Expr> wide = List.of(call(Intrinsic.DOUBLE_BITS, LONG, load(d, read(I))),
        call(Intrinsic.DOUBLE_BITS, LONG, call(Intrinsic.BITS_DOUBLE, DOUBLE, conv(LONG, X))));
    return kernel("bits", List.of(a, f, d, out, outL, N), N, perItem(I, N, block(stores(out, base, 5, ops, set(x, load(a, read(I))))),
        block(stores(outL, base, 2, wide))));
  }

  /** outI[8i+k] = (int)f, (byte)f, (short)f, (char)f, (int)d, (byte)d, (char)(a), (byte)(a); outL[3i+k] = (long)f, (long)d, (int)l; outF[2i+k] = (float)l, (float)d; outD[i] = (double)l. */
  public static KernelIR conversions() {
    Var f = global("f", FLOAT), d = global("d", DOUBLE), a = global("a", INT), l = global("l", LONG);
    Var outI = global("outI", INT), outL = global("outL", LONG), outF = global("outF", FLOAT), outD = global("outD", DOUBLE);
    Var base = var("base", INT);
    Expr F = load(f, read(I)), D = load(d, read(I)), A = load(a, read(I)), L = load(l, read(I));
    return kernel("conversions", List.of(f, d, a, l, outI, outL, outF, outD, N), N, perItem(I, N,
        block(stores(outI, base, 8, List.of(conv(INT, F), conv(BYTE, F), conv(SHORT, F), conv(CHAR, F), conv(INT, D), conv(BYTE, D),
            conv(CHAR, A), conv(BYTE, A)))),
        block(stores(outL, base, 3, List.of(conv(LONG, F), conv(LONG, D), conv(LONG, conv(INT, L))))),
        block(stores(outF, base, 2, List.of(conv(FLOAT, L), conv(FLOAT, D)))),
        store(outD, read(I), conv(DOUBLE, L))));
  }

  /** outF[4i+k] = Math.min, max(a, b), abs(a), rint(a); outD[4i+k] = Math.min, max(x, y), pow(x, y), rint(x). */
  public static KernelIR minMax() {
    Var a = global("a", FLOAT), b = global("b", FLOAT), x = global("x", DOUBLE), y = global("y", DOUBLE);
    Var outF = global("outF", FLOAT), outD = global("outD", DOUBLE), base = var("base", INT);
    Expr A = load(a, read(I)), B = load(b, read(I)), X = load(x, read(I)), Y = load(y, read(I));
    return kernel("minMax", List.of(a, b, x, y, outF, outD, N), N, perItem(I, N,
        block(stores(outF, base, 4, List.of(call(Intrinsic.MIN, FLOAT, A, B), call(Intrinsic.MAX, FLOAT, A, B),
            call(Intrinsic.ABS, FLOAT, A), call(Intrinsic.RINT, FLOAT, A)))),
        block(stores(outD, base, 4, List.of(call(Intrinsic.MIN, DOUBLE, X, Y), call(Intrinsic.MAX, DOUBLE, X, Y),
            call(Intrinsic.POW, DOUBLE, X, Y), call(Intrinsic.RINT, DOUBLE, X))))));
  }

  /** h[i] = in[i]; out[3i] = h[i]; out[3i+1] = (float) of half rounding of in[i]; out[3i+2] via a private half[2] array. */
  public static KernelIR halfs() {
    Var in = global("in", FLOAT), h = global("h", HALF), out = global("out", FLOAT), p = priv("p", HALF, 2);
    Expr base = mul(read(I), c(3));
    return kernel("halfs", List.of(in, h, out, N), N, perItem(I, N,
        store(h, read(I), load(in, read(I))),
        store(out, base, load(h, read(I))),
        store(out, add(base, c(1)), conv(HALF, load(in, read(I)))),
        alloc(p), store(p, c(1), load(in, read(I))),
        store(out, add(base, c(2)), add(load(p, c(0)), load(p, c(1))))));
  }

  /** acc[i & 3] += in[i], accI[i & 3] += 1, accL[0] += i, accD[0] += in[i], all atomically. */
  public static KernelIR atomics() {
    Var acc = global("acc", FLOAT), accI = global("accI", INT), accL = global("accL", LONG), accD = global("accD", DOUBLE), in = global("in", FLOAT);
    Var old = var("old", INT);
    Expr slot = and(read(I), c(3));
    return kernel("atomics", List.of(acc, accI, accL, accD, in, N), N, perItem(I, N,
        eval(call(Intrinsic.ATOMIC_ADD, FLOAT, read(acc), slot, load(in, read(I)))),
        set(old, call(Intrinsic.ATOMIC_ADD, INT, read(accI), slot, c(1))),
        eval(call(Intrinsic.ATOMIC_ADD, LONG, read(accL), c(0), conv(LONG, read(I)))),
        eval(call(Intrinsic.ATOMIC_ADD, DOUBLE, read(accD), c(0), conv(DOUBLE, load(in, read(I)))))));
  }

  /** Kernels that stand for Java control flow, see {@link SampleControl}. */
  public static KernelIR control() {
    return SampleControl.control();
  }

  public static KernelIR localReduce() {
    return SampleControl.localReduce();
  }

  public static KernelIR privateArrays() {
    return SampleControl.privateArrays();
  }

  /** b = a > 0 && a < 100 || a == -5; bs[i] = b; out[2i] = b ? 1 : 2 + (b ^ !b ? 10 : 0); out[2i+1] = bs[i] + (b & (a != 3)). */
  public static KernelIR flags() {
    Var a = global("a", INT), bs = global("bs", BOOLEAN), out = global("out", INT), b = var("b", BOOLEAN), v = var("float4", INT);
    Expr V = read(v), B = read(b);
    return kernel("flags", List.of(a, bs, out, N), N, perItem(I, N,
        set(v, load(a, read(I))),
        set(b, orOr(andAnd(gt(V, c(0)), lt(V, c(100))), eq(V, c(-5)))),
        store(bs, read(I), conv(INT, B)),
        store(out, mul(read(I), c(2)), select(B, c(1), add(c(2), select(xor(B, not(B)), c(10), c(0))))),
        store(out, add(mul(read(I), c(2)), c(1)), add(load(bs, read(I)), conv(INT, and(B, ne(V, c(3))))))));
  }

  /** out[3i..] = b[i], s[i], ch[i] (sign-, sign-, zero-extended); then b[i] += 200, s[i] += 40000, ch[i] -= 1 stored back narrowed. */
  public static KernelIR narrowArrays() {
    Var b = global("b", BYTE), s = global("s", SHORT), ch = global("ch", CHAR), out = global("out", INT), base = var("base", INT);
    Expr at = read(I);
    return kernel("narrowArrays", List.of(b, s, ch, out, N), N, perItem(I, N,
        block(stores(out, base, 3, List.of(load(b, at), load(s, at), load(ch, at)))),
        store(b, at, add(load(b, at), c(200))), store(s, at, add(load(s, at), c(40000))), store(ch, at, sub(load(ch, at), c(1)))));
  }

  /** One work-item: out[0..7] = every scalar kind, widened: z, b, s, c, (int) l, (int) f, (int) d, length of a private array. */
  public static KernelIR scalars() {
    Var z = var("z", BOOLEAN), b = var("b", BYTE), s = var("s", SHORT), ch = var("ch", CHAR), l = var("l", LONG);
    Var f = var("f", FLOAT), d = var("d", DOUBLE), out = global("out", INT), p = priv("p", INT, 5);
    return kernel("scalars", List.of(z, b, s, ch, l, f, d, out), null,
        store(out, c(0), select(read(z), c(1), c(0))), store(out, c(1), read(b)), store(out, c(2), read(s)), store(out, c(3), read(ch)),
        store(out, c(4), conv(INT, read(l))), store(out, c(5), conv(INT, read(f))), store(out, c(6), conv(INT, read(d))),
        alloc(p), store(out, c(7), length(p)));
  }

  /** out[22i+k] = each Math function of x[i] (and y[i]); outF: the float overloads; in fast math when {@code fast} (name mathFast). */
  public static KernelIR math(boolean fast) {
    Var x = global("x", DOUBLE), y = global("y", DOUBLE), fx = global("fx", FLOAT), out = global("out", DOUBLE), outF = global("outF", FLOAT);
    Var base = var("base", INT);
    Expr X = load(x, read(I)), Y = load(y, read(I)), F = load(fx, read(I));
    List<Expr> d = List.of(u(Intrinsic.SQRT, X), u(Intrinsic.CBRT, X), u(Intrinsic.EXP, X), u(Intrinsic.EXPM1, X), u(Intrinsic.LOG, X),
        u(Intrinsic.LOG10, X), u(Intrinsic.LOG1P, X), call(Intrinsic.POW, DOUBLE, X, Y), u(Intrinsic.SIN, X), u(Intrinsic.COS, X),
        u(Intrinsic.TAN, X), u(Intrinsic.ASIN, X), u(Intrinsic.ACOS, X), u(Intrinsic.ATAN, X), call(Intrinsic.ATAN2, DOUBLE, X, Y),
        u(Intrinsic.SINH, X), u(Intrinsic.COSH, X), u(Intrinsic.TANH, X), call(Intrinsic.HYPOT, DOUBLE, X, Y), u(Intrinsic.FLOOR, X),
        u(Intrinsic.CEIL, X), call(Intrinsic.FMA, DOUBLE, X, Y, X));
    List<Expr> f = List.of(u(Intrinsic.SQRT, F), call(Intrinsic.FMA, FLOAT, F, F, F), call(Intrinsic.MIN, FLOAT, F, c(0f)),
        call(Intrinsic.POW, FLOAT, F, c(2f)), add(mul(F, F), c(1f)), div(F, c(3f)), rem(F, c(0.75f)), u(Intrinsic.ABS, F));
    return kernel(fast ? "mathFast" : "math", List.of(x, y, fx, out, outF, N), N, perItem(I, N,
        block(stores(out, base, d.size(), d)), block(stores(outF, base, f.size(), f))));
  }

  private static Expr u(Intrinsic op, Expr x) {
    return call(op, x.prim(), x);
  }

  /** {@code first...; base = i * stride; out[base + k] = values[k]} for every k. */
  static Stmt[] stores(Var out, Var base, int stride, List<Expr> values, Stmt... first) {
    Stmt[] s = new Stmt[first.length + 1 + values.size()];
    System.arraycopy(first, 0, s, 0, first.length);
    s[first.length] = set(base, mul(read(I), c(stride)));
    for (int k = 0; k < values.size(); k++) s[first.length + 1 + k] = store(out, k == 0 ? read(base) : add(read(base), c(k)), values.get(k));
    return s;
  }
}
