// Emits OpenCL C 1.2 from lowered IR with strict Java semantics: OpenCL's names over the C-family CEmitter.
package dev.loopjit.backend.opencl;

import dev.loopjit.backend.c.CEmitter;
import dev.loopjit.backend.c.CNames;
import dev.loopjit.ir.Target;
import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr.Call;
import dev.loopjit.ir.Expr.Const;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.IrPrinter;
import dev.loopjit.ir.KernelArg;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Launch;
import dev.loopjit.ir.Op;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.TransposedLoad;
import dev.loopjit.ir.Uses;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * IR to OpenCL C 1.2. The source is byte-stable (same IR, same text), so driver caches keyed by
 * source keep working. Strict mode (the default) turns FMA contraction off and gives Java's
 * results where OpenCL's differ: {@code Math.min/max} on NaN and signed zeros, {@code Math.pow}'s
 * NaN cases, integer overflow, division by zero (0) and shift distances. Fast math
 * ({@link Target#fastMath()}) allows contraction and uses {@code fmin/fmax/pow} directly.
 *
 * <p>For Java's correctly rounded float {@code /} and {@code Math.sqrt}, the program should be
 * built with {@code -cl-fp32-correctly-rounded-divide-sqrt} where the device supports it.
 *
 * <pre>{@code
 * String source = OpenClEmitter.emit(kernel, Target.offline("opencl", ""));
 * }</pre>
 */
public final class OpenClEmitter extends CEmitter {
  private final Target target;
  private final Set<OpenClFunction> functions = EnumSet.noneOf(OpenClFunction.class);
  private boolean int64Atomics;

  private OpenClEmitter(Target target) {
    this.target = target;
  }

  /** Coarsened kernels (a CPU target with lanes) ask for their lane loops unrolled: the vectoriser then keeps the lanes in registers. */
  @Override
  protected boolean unrollHint() {
    return target.cpu() && target.lanes() > 1;
  }

  /** Coarsened kernels write their lane arrays and loops as {@code floatW} vectors where every use allows (LanesAsVectors). */
  @Override
  protected boolean laneVectors() {
    return unrollHint();
  }

  @Override
  protected String vectorType(Prim p, int width) {
    return type(p, false) + width;
  }

  /**
   * Each row one vector load ({@code vloadB}), the tile written a column at a time from the rows'
   * components ({@code vstoreW}): the device compiler keeps the block in registers and transposes it
   * with shuffles, where loads element by element would leave it scalar (docs/performance-log.md,
   * "Rows read side by side"). Widths OpenCL has no vectors of are read element by element.
   */
  @Override
  protected void transposedLoad(TransposedLoad b, Src at) {
    Prim e = ((ArrayType) b.array().type()).element();
    int w = b.rows(), run = b.run();
    if (!VECTOR_WIDTHS.contains(w) || !VECTOR_WIDTHS.contains(run) || !(e == Prim.INT || e == Prim.LONG || e == Prim.FLOAT || e == Prim.DOUBLE)) {
      super.transposedLoad(b, at);
      return;
    }
    String t = elementType(e, ArrayType.Space.PRIVATE), array = expr(b.array()).at(ADD), tile = expr(b.tile()).at(ADD);
    line("{");
    for (int q = 0; q < w; q++)
      line("  " + t + run + " row" + q + " = vload" + run + "(0, " + array + " + (" + expr(b.starts().get(q)).text() + "));");
    for (int c = 0; c < run; c++) {
      StringBuilder column = new StringBuilder();
      for (int q = 0; q < w; q++) column.append(q == 0 ? "" : ", ").append("row").append(q).append(".s").append(Character.forDigit(c, 16));
      line("  vstore" + w + "((" + t + w + ")(" + column + "), 0, " + tile + " + " + c * w + ");");
    }
    line("}");
  }

  /** The vector widths OpenCL C has (3 aside). */
  private static final Set<Integer> VECTOR_WIDTHS = Set.of(2, 4, 8, 16);

  /** The OpenCL C source of {@code k}: one {@code __kernel} named {@code k.name()}, arguments as {@code k.args()}. */
  public static String emit(KernelIR k, Target target) {
    return new OpenClEmitter(target).source(k);
  }

  private String source(KernelIR k) {
    if (!CNames.isIdentifier(k.name())) throw new IllegalArgumentException("not a kernel name: " + k.name());
    boolean doubles = Uses.of(k).doubles();
    if (doubles && !target.fp64()) throw new IllegalStateException(k.name() + " uses double on a target without fp64");
    String body = body(k);
    String params = k.args().stream().map(this::param).collect(Collectors.joining(", "));
    if (int64Atomics && !target.int64Atomics()) throw new IllegalStateException(k.name() + " needs 64-bit atomics");

    StringBuilder s = new StringBuilder();
    s.append("// ").append(k.source().describe()).append('\n');
    if (k.launch() != null) s.append("// launch: ").append(launch(k.launch())).append('\n');
    s.append("// OpenCL C 1.2 from LoopJIT, ").append(target.fastMath() ? "fast math" : "strict Java semantics").append('\n');
    if (!target.fastMath()) s.append("#pragma OPENCL FP_CONTRACT OFF\n");
    if (doubles) s.append("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    if (int64Atomics) s.append("#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n");
    for (OpenClFunction f : functions) s.append('\n').append(f.text).append('\n');
    s.append("\n__kernel void ").append(k.name()).append('(').append(params).append(") {\n").append(body).append("}\n");
    return s.toString();
  }

  private static String launch(Launch l) {
    return switch (l) {
      case Launch.Single x -> "one work-item";
      case Launch.Explicit x -> "explicit grid (GridScheduler)";
      case Launch.Loops x -> "grid " + x.counts().stream().map(IrPrinter::expr).collect(Collectors.joining(" x "));
    };
  }

  private String param(KernelArg a) {
    String name = names.of(a.var());
    return switch (a) {
      case KernelArg.Array x -> {
        if (!(x.var().type() instanceof ArrayType t) || t.space() != ArrayType.Space.GLOBAL)
          throw new IllegalStateException("array argument " + x.var() + " has type " + x.var().type());
        yield "__global " + elementType(t.element(), t.space()) + "* " + name;
      }
      case KernelArg.Length x -> "int " + name;
      case KernelArg.Count x -> "int " + name;
      case KernelArg.Computed x -> "int " + name;
      // A local array sized at launch: the runtime sets its size with clSetKernelArg(size, NULL).
      case KernelArg.Local x -> "__local " + elementType(((ArrayType) x.var().type()).element(), ArrayType.Space.LOCAL) + "* " + name;
      case KernelArg.Scalar x -> {
        if (!(x.var().type() instanceof Prim p) || p == Prim.HALF)
          throw new IllegalStateException("scalar argument " + x.var() + " has type " + x.var().type());
        // Narrow scalars keep their width so the runtime binds exactly Java's bytes; a boolean is an int 0/1.
        yield (p == Prim.BOOLEAN ? "int" : elementType(p, ArrayType.Space.PRIVATE)) + " " + name;
      }
    };
  }

  // ---- the table -----------------------------------------------------------------------------

  @Override
  protected String type(Prim p, boolean unsigned) {
    return switch (p) {
      case BOOLEAN, BYTE, SHORT, CHAR, INT -> unsigned ? "uint" : "int";
      case LONG -> unsigned ? "ulong" : "long";
      case FLOAT, HALF -> "float";
      case DOUBLE -> "double";
    };
  }

  @Override
  protected String elementType(Prim p, ArrayType.Space space) {
    return switch (p) {
      case BOOLEAN -> "uchar";
      case BYTE -> "char";
      case CHAR -> "ushort";
      case SHORT -> "short";
      case INT -> "int";
      case LONG -> "long";
      case FLOAT -> "float";
      case DOUBLE -> "double";
      // OpenCL 1.2 without cl_khr_fp16 allows half only behind pointers: other arrays store the bits.
      case HALF -> space == ArrayType.Space.GLOBAL ? "half" : "ushort";
    };
  }

  @Override
  protected String space(ArrayType.Space space) {
    return switch (space) {
      case GLOBAL -> "__global ";
      case LOCAL -> "__local ";
      case PRIVATE -> "";
    };
  }

  @Override
  protected C reinterpret(Prim to, C x) {
    return call("as_" + type(to, false), x);
  }

  @Override
  protected C saturate(Prim to, C x) {
    return call("convert_" + type(to, false) + "_sat_rtz", x);
  }

  @Override
  protected C roundToHalf(C x) {
    return call(use(OpenClFunction.HALF_ROUND), x);
  }

  @Override
  protected C loadHalf(C array, C index, ArrayType t) {
    return call("vload_half", index, halfPointer(array, t));
  }

  @Override
  protected String storeHalf(C array, C index, C value, ArrayType t) {
    return call("vstore_half", value, index, halfPointer(array, t)).text() + ";";
  }

  private C halfPointer(C array, ArrayType t) {
    return t.space() == ArrayType.Space.GLOBAL ? array : cast(space(t.space()) + "half*", array);
  }

  // ---- intrinsics ----------------------------------------------------------------------------

  @Override
  protected C intrinsic(Call c) {
    List<Expr> a = c.args();
    return switch (c.op()) {
      case GLOBAL_ID -> workItem("get_global_id", a);
      case LOCAL_ID -> workItem("get_local_id", a);
      case GROUP_ID -> workItem("get_group_id", a);
      case GLOBAL_SIZE -> workItem("get_global_size", a);
      case LOCAL_SIZE -> workItem("get_local_size", a);
      case BARRIER_LOCAL -> C.of("barrier(CLK_LOCAL_MEM_FENCE)");
      case BARRIER_GLOBAL -> C.of("barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE)");
      case ATOMIC_ADD -> atomicAdd(a);
      case ATOMIC_CAS -> atomicCompareAndSet(a);
      case SQRT, CBRT, LOG, LOG10, LOG1P, SIN, COS, TAN, ASIN, ACOS, ATAN, ATAN2, SINH, COSH, TANH, HYPOT, FMA ->
          call(c.op().name().toLowerCase(Locale.ROOT), args(a));
      case FLOOR, CEIL, RINT, EXP, EXPM1 -> call(use(guarded(c.op(), a.get(0).prim())), args(a));
      case POW -> target.fastMath() ? call("pow", args(a))
          : call(use(a.get(0).prim() == Prim.DOUBLE ? OpenClFunction.POW_DOUBLE : OpenClFunction.POW_FLOAT), args(a));
      case ABS -> {
        if (a.get(0).prim().isIntegral()) throw new IllegalStateException("integer abs reaches the emitter only legalised (the legalise pass)");
        yield call("fabs", args(a));
      }
      case MIN, MAX -> minMax(c.op() == dev.loopjit.ir.Intrinsic.MIN, a);
      // The legalise pass gives these only divisors other than 0 and -1, where C's / and % are Java's.
      case DIV_UNCHECKED -> binary(expr(a.get(0)), "/", expr(a.get(1)), MUL);
      case REM_UNCHECKED -> binary(expr(a.get(0)), "%", expr(a.get(1)), MUL);
      // C's signed + and * (no as_int((uint)…) round trip): the coarsen pass and the bounds pass's loop versions show they never overflow
      case ADD_NO_WRAP -> binary(expr(a.get(0)), "+", expr(a.get(1)), ADD);
      case MUL_NO_WRAP -> binary(expr(a.get(0)), "*", expr(a.get(1)), MUL);
      case FLOAT_BITS -> reinterpret(Prim.INT, typed(a.get(0)));
      case BITS_FLOAT -> reinterpret(Prim.FLOAT, typed(a.get(0)));
      case DOUBLE_BITS -> reinterpret(Prim.LONG, typed(a.get(0)));
      case BITS_DOUBLE -> reinterpret(Prim.DOUBLE, typed(a.get(0)));
      case POPCOUNT -> asInt(call("popcount", args(a)), a.get(0));
      case CLZ -> asInt(call("clz", args(a)), a.get(0));
      case CTZ -> call(use(a.get(0).prim() == Prim.LONG ? OpenClFunction.CTZ_LONG : OpenClFunction.CTZ_INT), args(a));
      case PRINTF -> printf(c);
      case SHAPE, SIMD_SHUFFLE, SIMD_SUM, SIMD_MAX, THROW -> throw new IllegalStateException(c.op() + " is lowered by the compiler before emission: " + IrPrinter.expr(c));
      case LOAD_TRANSPOSED -> throw new IllegalStateException("a statement, not a value: " + IrPrinter.expr(c));
    };
  }

  /** The helper that keeps the arguments PoCL's built-in mishandles away from it (see {@link OpenClFunction#RINT_DOUBLE}). */
  private static OpenClFunction guarded(dev.loopjit.ir.Intrinsic op, Prim p) {
    boolean d = p == Prim.DOUBLE;
    return switch (op) {
      case RINT -> d ? OpenClFunction.RINT_DOUBLE : OpenClFunction.RINT_FLOAT;
      case FLOOR -> d ? OpenClFunction.FLOOR_DOUBLE : OpenClFunction.FLOOR_FLOAT;
      case CEIL -> d ? OpenClFunction.CEIL_DOUBLE : OpenClFunction.CEIL_FLOAT;
      case EXP -> d ? OpenClFunction.EXP_DOUBLE : OpenClFunction.EXP_FLOAT;
      case EXPM1 -> d ? OpenClFunction.EXPM1_DOUBLE : OpenClFunction.EXPM1_FLOAT;
      default -> throw new IllegalStateException(op + " needs no guard");
    };
  }

  /** Debug.printf: OpenCL C's printf with the format as a literal (C's conversions for each value's type). */
  private C printf(Call c) {
    List<Expr> values = dev.loopjit.ir.PrintFormat.values(c);
    List<Prim> types = values.stream().map(Expr::prim).toList();
    StringBuilder b = new StringBuilder("printf(\"");
    for (char ch : dev.loopjit.ir.PrintFormat.of(c).c(types).toCharArray()) {
      switch (ch) {
        case '\\' -> b.append("\\\\");
        case '"' -> b.append("\\\"");
        case '\n' -> b.append("\\n");
        case '\t' -> b.append("\\t");
        default -> {
          if (ch >= 32 && ch < 127) b.append(ch);
          else for (byte x : String.valueOf(ch).getBytes(java.nio.charset.StandardCharsets.UTF_8)) b.append(String.format("\\%03o", x & 0xFF));
        }
      }
    }
    b.append('"');
    for (Expr v : values) b.append(", ").append(v.prim() == Prim.BOOLEAN ? cast("int", expr(v)).text() : expr(v).text());
    return C.of(b.append(')').toString());
  }

  private C workItem(String function, List<Expr> a) {
    if (a.size() != 1 || !(a.get(0) instanceof Const d) || d.longValue() < 0 || d.longValue() > 2)
      throw new IllegalStateException(function + " needs a constant dimension 0..2, not " + a);
    return cast("int", C.of(function + "(" + d.longValue() + ")"));
  }

  /** Integers' min and max are C's; floating ones reach here only with fast math (else the legalise pass wrote Java's). */
  private C minMax(boolean min, List<Expr> a) {
    Prim p = a.get(0).prim();
    if (!p.isIntegral() && !target.fastMath())
      throw new IllegalStateException("floating " + (min ? "min" : "max") + " reaches the emitter only legalised (the legalise pass)");
    return call((p.isIntegral() ? "" : "f") + (min ? "min" : "max"), args(a));
  }

  private C atomicAdd(List<Expr> a) {
    ArrayType t = (ArrayType) a.get(0).type();
    C slot = C.of(expr(a.get(0)).at(PRIMARY) + "[" + expr(a.get(1)).text() + "]");
    C pointer = unary("&", slot);
    C value = expr(a.get(2));
    if (t.space() == ArrayType.Space.PRIVATE) throw new IllegalStateException("atomic add on a private array");
    boolean global = t.space() == ArrayType.Space.GLOBAL;
    return switch (t.element()) {
      case INT -> call("atomic_add", pointer, value);
      case LONG -> {
        int64Atomics = true;
        yield call("atom_add", pointer, value);
      }
      case FLOAT -> call(use(global ? OpenClFunction.ATOMIC_ADD_FLOAT_GLOBAL : OpenClFunction.ATOMIC_ADD_FLOAT_LOCAL), pointer, value);
      case DOUBLE -> {
        int64Atomics = true;
        yield call(use(global ? OpenClFunction.ATOMIC_ADD_DOUBLE_GLOBAL : OpenClFunction.ATOMIC_ADD_DOUBLE_LOCAL), pointer, value);
      }
      case BOOLEAN, BYTE, CHAR, SHORT, HALF -> throw new IllegalStateException("atomic add on " + t);
    };
  }

  /** Compare-and-set on the element's bits: floats go through the int (or long) of the same width. */
  private C atomicCompareAndSet(List<Expr> a) {
    ArrayType t = (ArrayType) a.get(0).type();
    if (t.space() == ArrayType.Space.PRIVATE) throw new IllegalStateException("atomic compare-and-set on a private array");
    String space = t.space() == ArrayType.Space.GLOBAL ? "__global" : "__local";
    C pointer = unary("&", C.of(expr(a.get(0)).at(PRIMARY) + "[" + expr(a.get(1)).text() + "]"));
    C expected = expr(a.get(2)), value = expr(a.get(3));
    return switch (t.element()) {
      case INT -> call("atomic_cmpxchg", cast("volatile " + space + " int*", pointer), expected, value);
      case FLOAT -> reinterpret(Prim.FLOAT, call("atomic_cmpxchg", cast("volatile " + space + " int*", pointer),
          reinterpret(Prim.INT, expected), reinterpret(Prim.INT, value)));
      case LONG -> {
        int64Atomics = true;
        yield call("atom_cmpxchg", cast("volatile " + space + " long*", pointer), expected, value);
      }
      case DOUBLE -> {
        int64Atomics = true;
        yield reinterpret(Prim.DOUBLE, call("atom_cmpxchg", cast("volatile " + space + " long*", pointer),
            reinterpret(Prim.LONG, expected), reinterpret(Prim.LONG, value)));
      }
      case BOOLEAN, BYTE, CHAR, SHORT, HALF -> throw new IllegalStateException("atomic compare-and-set on " + t);
    };
  }

  /** popcount and clz of a long are longs in OpenCL; Java's are ints. */
  private C asInt(C x, Expr arg) {
    return arg.prim() == Prim.LONG ? cast("int", x) : x;
  }

  private String use(OpenClFunction f) {
    functions.add(f);
    return f.cName;
  }

  /** Built-ins are overloaded on their arguments' C types, so each argument has exactly its IR type's (see {@link #typed}). */
  private C[] args(List<Expr> a) {
    return a.stream().map(this::typed).toArray(C[]::new);
  }

  private static C call(String function, C... args) {
    StringBuilder b = new StringBuilder(function).append('(');
    for (int i = 0; i < args.length; i++) b.append(i == 0 ? "" : ", ").append(args[i].text());
    return C.of(b.append(')').toString());
  }
}
