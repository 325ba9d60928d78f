// The IR's intrinsics in SPIR-V: work-item built-ins, barriers, atomics, and Math through OpenCL.std with Java's special cases.
package dev.loopjit.backend.spirv;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr.Call;
import dev.loopjit.ir.Expr.Const;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.Prim;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * One case per {@link Intrinsic}. Math functions are OpenCL.std's, within the ULPs the OpenCL
 * environment allows (as OpenCL C's built-ins; exact for sqrt and floor/ceil/rint/fma/fabs/fmod).
 * Where Java and OpenCL disagree on special values the Java answer is chosen explicitly:
 * {@code Math.min/max} (NaN wins, -0.0 below 0.0), {@code Math.pow} (NaN for a NaN exponent and for
 * ±1 to the ±infinity). Float atomic adds are compare-and-swap loops on the bits, as OpenCL 1.2
 * has no float atomics.
 */
final class SpirvIntrinsics {
  private final SpirvExpressions exprs;
  private final SpirvCode code;
  private final SpirvModule m;
  private final Map<Intrinsic, Integer> builtins = new EnumMap<>(Intrinsic.class);

  SpirvIntrinsics(SpirvExpressions exprs) {
    this.exprs = exprs;
    this.code = exprs.code;
    this.m = exprs.m;
  }

  /** The Input variables of the work-item built-ins used, for the entry point's interface. */
  int[] interfaceVariables() {
    return builtins.values().stream().mapToInt(Integer::intValue).toArray();
  }

  /** Emits {@code c}; returns its result id, or null for a call with no value. */
  Integer call(Call c) {
    List<Expr> a = c.args();
    return switch (c.op()) {
      case GLOBAL_ID -> geometry(c, Spv.BUILTIN_GLOBAL_INVOCATION_ID, "global_id");
      case LOCAL_ID -> geometry(c, Spv.BUILTIN_LOCAL_INVOCATION_ID, "local_id");
      case GROUP_ID -> geometry(c, Spv.BUILTIN_WORKGROUP_ID, "group_id");
      case GLOBAL_SIZE -> geometry(c, Spv.BUILTIN_GLOBAL_SIZE, "global_size");
      case LOCAL_SIZE -> geometry(c, Spv.BUILTIN_WORKGROUP_SIZE, "local_size");
      case BARRIER_LOCAL -> barrier(Spv.SEM_WORKGROUP_MEMORY);
      case BARRIER_GLOBAL -> barrier(Spv.SEM_WORKGROUP_MEMORY | Spv.SEM_CROSS_WORKGROUP_MEMORY);
      case ATOMIC_ADD -> atomicAdd(a);
      case ATOMIC_CAS -> atomicCompareAndSet(a);
      case SQRT -> math(Spv.CL_SQRT, c);
      case CBRT -> math(Spv.CL_CBRT, c);
      case EXP -> nanFirst(Spv.CL_EXP, c);
      case EXPM1 -> nanFirst(Spv.CL_EXPM1, c);
      case LOG -> math(Spv.CL_LOG, c);
      case LOG10 -> math(Spv.CL_LOG10, c);
      case LOG1P -> math(Spv.CL_LOG1P, c);
      case SIN -> math(Spv.CL_SIN, c);
      case COS -> math(Spv.CL_COS, c);
      case TAN -> math(Spv.CL_TAN, c);
      case ASIN -> math(Spv.CL_ASIN, c);
      case ACOS -> math(Spv.CL_ACOS, c);
      case ATAN -> math(Spv.CL_ATAN, c);
      case ATAN2 -> math(Spv.CL_ATAN2, c);
      case SINH -> math(Spv.CL_SINH, c);
      case COSH -> math(Spv.CL_COSH, c);
      case TANH -> math(Spv.CL_TANH, c);
      case HYPOT -> math(Spv.CL_HYPOT, c);
      case FLOOR -> rounding(Spv.CL_FLOOR, c);
      case CEIL -> rounding(Spv.CL_CEIL, c);
      case RINT -> rounding(Spv.CL_RINT, c);
      case FMA -> math(Spv.CL_FMA, c);
      case POW -> pow(c);
      case ABS -> abs(a.get(0));
      case MIN, MAX -> minMax(c.op() == Intrinsic.MIN, a);
      case FLOAT_BITS -> code.op(SpirvOp.Bitcast, m.intType(32), exprs.eval(a.get(0)));
      case BITS_FLOAT -> code.op(SpirvOp.Bitcast, m.floatType(32), exprs.eval(a.get(0)));
      case DOUBLE_BITS -> code.op(SpirvOp.Bitcast, m.intType(64), exprs.eval(a.get(0)));
      case BITS_DOUBLE -> code.op(SpirvOp.Bitcast, m.floatType(64), exprs.eval(a.get(0)));
      case POPCOUNT -> countBits(Spv.CL_POPCOUNT, a.get(0));
      case CLZ -> countBits(Spv.CL_CLZ, a.get(0));
      case CTZ -> trailingZeros(a.get(0));
      case DIV_UNCHECKED, REM_UNCHECKED -> exprs.divide(c.type(), exprs.eval(a.get(0)), exprs.eval(a.get(1)), c.op() == Intrinsic.REM_UNCHECKED);
      case ADD_NO_WRAP -> exprs.eval(new dev.loopjit.ir.Expr.Binary(dev.loopjit.ir.Op.Binary.ADD, a.get(0), a.get(1)));   // OpIAdd: the sum never overflows
      case MUL_NO_WRAP -> exprs.eval(new dev.loopjit.ir.Expr.Binary(dev.loopjit.ir.Op.Binary.MUL, a.get(0), a.get(1)));   // OpIMul: nor the product
      case PRINTF -> printf(c);
      case SHAPE, SIMD_SHUFFLE, SIMD_SUM, SIMD_MAX, THROW -> throw new IllegalStateException(c.op() + " is lowered by the compiler before emission");
      case LOAD_TRANSPOSED -> throw new IllegalStateException("a statement, not a value");
    };
  }

  /**
   * Debug.printf: OpenCL.std {@code printf} with the format as a UniformConstant byte array (C's
   * conversions for each value's type), floats promoted to double where the target has doubles (as
   * C passes them to a variadic function), booleans as int 0/1.
   */
  private Integer printf(Call c) {
    List<Expr> values = dev.loopjit.ir.PrintFormat.values(c);
    List<Prim> types = values.stream().map(Expr::prim).toList();
    byte[] bytes = (dev.loopjit.ir.PrintFormat.of(c).c(types) + "\0").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    int i8 = m.intType(8), array = m.arrayType(i8, bytes.length);
    int[] chars = new int[bytes.length];
    for (int i = 0; i < bytes.length; i++) chars[i] = m.constant(i8, bytes[i] & 0xFF);
    int format = m.constantVariable(m.pointerType(Spv.SC_UNIFORM_CONSTANT, array), m.compositeConstant(array, chars));
    int first = code.op(SpirvOp.InBoundsAccessChain, m.pointerType(Spv.SC_UNIFORM_CONSTANT, i8), format, code.intConstant(0));
    int[] args = new int[values.size() + 1];
    args[0] = first;
    for (int i = 0; i < values.size(); i++) {
      Prim p = types.get(i);
      int v = exprs.eval(values.get(i));
      if (p == Prim.FLOAT && exprs.fp64) v = code.op(SpirvOp.FConvert, m.floatType(64), v);
      else if (p == Prim.BOOLEAN) v = code.op(SpirvOp.Select, m.intType(32), v, code.intConstant(1), code.intConstant(0));
      args[i + 1] = v;
    }
    code.ext(m.intType(32), Spv.CL_PRINTF, args);
    return null;
  }

  /** A component of a work-item built-in (a 3-vector of 64-bit size_t), truncated to Java's int. */
  private int geometry(Call c, int builtin, String name) {
    List<Expr> a = c.args();
    if (a.size() != 1 || !(a.get(0) instanceof Const d) || d.longValue() < 0 || d.longValue() > 2)
      throw new IllegalStateException(c.op() + " needs a constant dimension 0..2, not " + a);
    int vector = m.vectorType(m.intType(64), 3);
    int variable = builtins.computeIfAbsent(c.op(), k -> {
      int v = m.globalVariable(m.pointerType(Spv.SC_INPUT, vector), Spv.SC_INPUT);
      m.decorate(v, Spv.DEC_BUILTIN, builtin);
      m.decorate(v, Spv.DEC_CONSTANT);
      m.name(v, name);
      return v;
    });
    int loaded = code.load(vector, variable);
    int component = code.op(SpirvOp.CompositeExtract, m.intType(64), loaded, (int) d.longValue());
    return code.op(SpirvOp.UConvert, m.intType(32), component);
  }

  /**
   * OpControlBarrier at work-group scope, ordering work-group memory ({@code localBarrier}) or
   * work-group and global memory ({@code globalBarrier}) with sequentially consistent semantics,
   * as OpenCL C's {@code barrier(CLK_LOCAL_MEM_FENCE [| CLK_GLOBAL_MEM_FENCE])}.
   */
  private Integer barrier(int memory) {
    int scope = code.intConstant(Spv.SCOPE_WORKGROUP);
    code.effect(SpirvOp.ControlBarrier, scope, scope, code.intConstant(Spv.SEM_SEQUENTIALLY_CONSISTENT | memory));
    return null;
  }

  private int math(int instruction, Call c) {
    int type = code.valueType(c.type());
    int[] args = c.args().stream().mapToInt(exprs::eval).toArray();
    return code.ext(type, instruction, args);
  }

  /**
   * floor, ceil or rint only of a value that may have a fraction ({@code |x| < 2^52}, floats
   * {@code 2^23}); NaN, the infinities and larger values are their own result. Java's answer
   * either way, and PoCL 3.1 never sees such a value reach the built-in, which breaks the whole kernel
   * when its compiler knows the argument (docs/DRIVER-WORKAROUNDS.md; OpenCL C has the same guard).
   * A branch, not an OpSelect: the built-in must not run at all on such a constant (rint still broke
   * the kernel as the unchosen operand of a select).
   */
  private int rounding(int instruction, Call c) {
    Prim p = c.type();
    int type = code.valueType(p);
    int x = exprs.eval(c.args().get(0));
    int limit = p == Prim.DOUBLE ? m.constant(4503599627370496.0) : m.constant(8388608.0f);
    int fraction = code.op(SpirvOp.FOrdLessThan, m.boolType(), code.ext(type, Spv.CL_FABS, x), limit);
    int from = code.current(), round = m.id(), join = m.id();
    code.branchConditional(fraction, round, join);
    code.block(round);
    int r = code.ext(type, instruction, x);
    int fromRound = code.current();
    code.block(join);
    return code.phi(type, r, fromRound, x, from);
  }

  /** exp or expm1 with a NaN argument given back as it is (Java's NaN; the same PoCL workaround as {@link #rounding}). */
  private int nanFirst(int instruction, Call c) {
    int type = code.valueType(c.type());
    int x = exprs.eval(c.args().get(0));
    return code.op(SpirvOp.Select, type, code.op(SpirvOp.IsNan, m.boolType(), x), x, code.ext(type, instruction, x));
  }

  /** Math.pow: OpenCL's pow(x, NaN) and pow(±1, ±Infinity) are 1; Java's are NaN ({@code y - y} is that NaN). */
  private int pow(Call c) {
    Prim p = c.type();
    int type = code.valueType(p), bool = m.boolType();
    int x = exprs.eval(c.args().get(0)), y = exprs.eval(c.args().get(1));
    int r = code.ext(type, Spv.CL_POW, x, y);
    if (exprs.fastMath) return r;
    int one = p == Prim.DOUBLE ? m.constant(1d) : m.constant(1f);
    int unit = code.op(SpirvOp.FOrdEqual, bool, code.ext(type, Spv.CL_FABS, x), one);
    int special = code.op(SpirvOp.LogicalOr, bool, code.op(SpirvOp.IsNan, bool, y),
        code.op(SpirvOp.LogicalAnd, bool, unit, code.op(SpirvOp.IsInf, bool, y)));
    return code.op(SpirvOp.Select, type, special, code.arithmetic(SpirvOp.FSub, type, y, y), r);
  }

  /** Math.abs of a float or double: fabs clears the sign bit. Integers arrive legalised (the legalise pass). */
  private int abs(Expr arg) {
    Prim p = arg.prim();
    if (!p.isFloating()) throw new IllegalStateException("integer abs reaches the emitter only legalised (the legalise pass)");
    return code.ext(code.valueType(p), Spv.CL_FABS, exprs.eval(arg));
  }

  /**
   * Math.min/max. Integers: a compare and a select. Floats only with fast math (fmin/fmax, which
   * promise neither Java's NaN nor its -0.0 below 0.0): with strict semantics the legalise pass has
   * written Java's rule out already.
   */
  private int minMax(boolean min, List<Expr> a) {
    Prim p = a.get(0).prim();
    int x = exprs.eval(a.get(0)), y = exprs.eval(a.get(1));
    int type = code.valueType(p), bool = m.boolType();
    if (p.isIntegral()) {
      int less = code.op(SpirvOp.SLessThan, bool, x, y);
      return min ? code.op(SpirvOp.Select, type, less, x, y) : code.op(SpirvOp.Select, type, less, y, x);
    }
    if (!exprs.fastMath)
      throw new IllegalStateException("floating " + (min ? "min" : "max") + " reaches the emitter only legalised (the legalise pass)");
    return code.ext(type, min ? Spv.CL_FMIN : Spv.CL_FMAX, x, y);
  }

  /** popcount and clz of a long are longs in OpenCL; Java's are ints. */
  private int countBits(int instruction, Expr arg) {
    Prim p = arg.prim();
    int r = code.ext(code.valueType(p), instruction, exprs.eval(arg));
    return p == Prim.LONG ? code.op(SpirvOp.UConvert, m.intType(32), r) : r;
  }

  /** numberOfTrailingZeros as popcount((x & -x) - 1): the bits below the lowest set one; 32 (64) for 0. */
  private int trailingZeros(Expr arg) {
    Prim p = arg.prim();
    int type = code.valueType(p), x = exprs.eval(arg);
    int one = p == Prim.LONG ? code.longConstant(1) : code.intConstant(1);
    int lowest = code.op(SpirvOp.BitwiseAnd, type, x, code.op(SpirvOp.SNegate, type, x));
    int below = code.op(SpirvOp.ISub, type, lowest, one);
    int r = code.ext(type, Spv.CL_POPCOUNT, below);
    return p == Prim.LONG ? code.op(SpirvOp.UConvert, m.intType(32), r) : r;
  }

  // ---- atomics ------------------------------------------------------------------------------

  /** Scope of an atomic on {@code t}: the device for global memory, the work-group for local memory. */
  private int scope(ArrayType t) {
    if (t.space() == ArrayType.Space.PRIVATE) throw new IllegalStateException("atomic on a private array");
    return code.intConstant(t.space() == ArrayType.Space.GLOBAL ? Spv.SCOPE_DEVICE : Spv.SCOPE_WORKGROUP);
  }

  /** Relaxed, as OpenCL 1.2's atomic functions are: they order nothing but themselves. */
  private int relaxed() {
    return code.intConstant(Spv.SEM_RELAXED);
  }

  private int atomicAdd(List<Expr> a) {
    ArrayType t = (ArrayType) a.get(0).type();
    int scope = scope(t);
    int pointer = exprs.address(a.get(0), a.get(1));
    int value = exprs.eval(a.get(2));
    return switch (t.element()) {
      case INT -> code.op(SpirvOp.AtomicIAdd, m.intType(32), pointer, scope, relaxed(), value);
      case LONG -> {
        m.capability(Spv.CAP_INT64_ATOMICS);
        yield code.op(SpirvOp.AtomicIAdd, m.intType(64), pointer, scope, relaxed(), value);
      }
      case FLOAT, DOUBLE -> floatAdd(t, pointer, scope, value);
      default -> throw new IllegalStateException("atomic add on " + t);
    };
  }

  /**
   * An atomic float add as a compare-and-swap loop on the bits. Comparing the integers (not the
   * floats) ends the loop even when the value is NaN.
   */
  private int floatAdd(ArrayType t, int pointer, int scope, int value) {
    boolean d = t.element() == Prim.DOUBLE;
    if (d) m.capability(Spv.CAP_INT64_ATOMICS);
    int bits = m.intType(d ? 64 : 32), type = code.valueType(t.element()), bool = m.boolType();
    int q = code.op(SpirvOp.Bitcast, m.pointerType(SpirvCode.storageClass(t.space()), bits), pointer);
    int first = code.op(SpirvOp.Load, bits, q, Spv.ACCESS_VOLATILE);
    int entry = code.current();
    int loop = m.id(), done = m.id();
    code.block(loop);
    int old = m.id(), seen = m.id();   // the phi names the CAS's result, written below it
    code.phiInto(old, bits, first, entry, seen, loop);
    int sum = code.arithmetic(SpirvOp.FAdd, type, code.op(SpirvOp.Bitcast, type, old), value);
    code.opInto(seen, SpirvOp.AtomicCompareExchange, bits, q, scope, relaxed(), relaxed(), code.op(SpirvOp.Bitcast, bits, sum), old);
    if (code.current() != loop) throw new IllegalStateException("the compare-and-swap loop is not one block");
    code.branchConditional(code.op(SpirvOp.IEqual, bool, seen, old), done, loop);
    code.block(done);
    return code.op(SpirvOp.Bitcast, type, old);
  }

  /** Compare-and-set on the element's bits: floats go through the integer of the same width. */
  private int atomicCompareAndSet(List<Expr> a) {
    ArrayType t = (ArrayType) a.get(0).type();
    int scope = scope(t);
    int pointer = exprs.address(a.get(0), a.get(1));
    int expected = exprs.eval(a.get(2)), value = exprs.eval(a.get(3));
    Prim e = t.element();
    if (e != Prim.INT && e != Prim.LONG && e != Prim.FLOAT && e != Prim.DOUBLE) throw new IllegalStateException("atomic compare-and-set on " + t);
    boolean wide = e == Prim.LONG || e == Prim.DOUBLE;
    if (wide) m.capability(Spv.CAP_INT64_ATOMICS);
    int bits = m.intType(wide ? 64 : 32);
    if (e.isFloating()) {
      pointer = code.op(SpirvOp.Bitcast, m.pointerType(SpirvCode.storageClass(t.space()), bits), pointer);
      expected = code.op(SpirvOp.Bitcast, bits, expected);
      value = code.op(SpirvOp.Bitcast, bits, value);
    }
    int old = code.op(SpirvOp.AtomicCompareExchange, bits, pointer, scope, relaxed(), relaxed(), value, expected);
    return e.isFloating() ? code.op(SpirvOp.Bitcast, code.valueType(e), old) : old;
  }
}
