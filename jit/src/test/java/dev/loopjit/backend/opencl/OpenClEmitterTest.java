// Unit tests of the OpenCL C emitter: declarations, names, Java arithmetic, literals, intrinsics and refusals.
package dev.loopjit.backend.opencl;

import static dev.loopjit.ir.IrBuilder.*;
import static dev.loopjit.ir.Prim.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.loopjit.ir.Target;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.KernelArg;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.SampleKernels;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Var;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OpenClEmitterTest {
  static final Target STRICT = Target.of("opencl");
  static final Target FAST = Target.of("opencl").withFastMath(true);
  static final Var I = var("i", INT), N = var("n", INT), OUT = global("out", INT);

  static String emit(KernelIR k) {
    return dev.loopjit.testing.Emit.opencl(k, STRICT);
  }

  /** A one-work-item kernel that stores {@code value} into out[0]. */
  static String emitValue(Expr value) {
    Var out = global("out", value.prim() == BOOLEAN ? INT : value.prim());
    return emit(kernel("k", List.of(out), null, store(out, c(0), value)));
  }

  static void assertContains(String source, String... fragments) {
    for (String f : fragments) assertTrue(source.contains(f), () -> "missing `" + f + "` in:\n" + source);
  }

  @Test
  void everySampleEmitsTheSameTextTwice() {
    for (Map.Entry<String, KernelIR> e : SampleKernels.all().entrySet()) {
      String a = emit(e.getValue()), b = emit(e.getValue());
      assertEquals(a, b, e.getKey());
      assertTrue(a.contains("__kernel void " + e.getKey() + "("), e.getKey());
      assertEquals(a.chars().filter(ch -> ch == '{').count(), a.chars().filter(ch -> ch == '}').count(), e.getKey());
    }
  }

  @Test
  void headerNamesTheSourceAndTheLaunch() {
    String s = emit(SampleKernels.intOps());
    assertTrue(s.startsWith("// Samples.intOps (Samples.java:7)\n// launch: grid n\n"), s);
    assertContains(s, "#pragma OPENCL FP_CONTRACT OFF\n");
    assertFalse(s.contains("cl_khr_fp64"), "no doubles, no fp64 pragma");
    assertFalse(s.contains("cl_khr_int64_base_atomics"));
    assertContains(emit(SampleKernels.localReduce()), "// launch: explicit grid (GridScheduler)");
    assertContains(emit(SampleKernels.minMax()), "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    assertFalse(dev.loopjit.testing.Emit.opencl(SampleKernels.intOps(), FAST).contains("FP_CONTRACT"));
  }

  @Test
  void argumentsKeepTheirOrderAndTypes() {
    assertContains(emit(SampleKernels.intOps()), "__kernel void intOps(__global int* a_, __global int* b_, __global int* out_, int n_) {");
    assertContains(emit(SampleKernels.scalars()),
        "(int z_, char b_, short s_, ushort ch_, long l_, float f_, double d_, __global int* out_)");
    assertContains(emit(SampleKernels.narrowArrays()), "(__global char* b_, __global short* s_, __global ushort* ch_, __global int* out_, int n_)");
    assertContains(emit(SampleKernels.flags()), "__global uchar* bs_");
    Var a = global("a", FLOAT), len = var("len", INT), count = var("count", INT);
    KernelIR k = withArgs(kernel("k", List.of(a), null, store(a, read(len), c(1f)), store(a, read(count), c(2f))),
        new KernelArg.Array(0, a), new KernelArg.Length(0, len), new KernelArg.Count(0, count));
    assertContains(emit(k), "(__global float* a_, int len_, int count_)");
  }

  @Test
  void localsAreDeclaredFirstAndZeroed() {
    String s = emit(SampleKernels.minMax());
    assertContains(s, "  int i_ = 0;\n  int base_ = 0;\n  float op_ = 0.0f;\n", "  double op_8_ = 0.0;\n\n  i_ = (int)get_global_id(0);");
    Var f = var("f", FLOAT), d = var("d", DOUBLE), l = var("l", LONG), z = var("z", BOOLEAN), out = global("out", DOUBLE);
    String t = emit(kernel("k", List.of(out), null, set(f, c(1f)), set(d, c(2.0)), set(l, c(3L)), set(z, c(true)),
        store(out, c(0), conv(DOUBLE, read(f)))));
    assertContains(t, "  float f_ = 0.0f;\n  double d_ = 0.0;\n  long l_ = 0L;\n  int z_ = 0;\n");
    // Java's `float[] p = cond ? x : y;` over global arrays is a pointer.
    Var x = global("x", FLOAT), y = global("y", FLOAT), p = global("p", FLOAT);
    String u = emit(kernel("k", List.of(x, y), null, set(p, select(lt(load(x, c(0)), c(0f)), read(x), read(y))), store(p, c(1), c(2f))));
    assertContains(u, "  __global float* p_ = 0;\n", "p_ = x_[0] < 0.0f ? x_ : y_;", "p_[1] = 2.0f;");
  }

  @Test
  void javaNamesThatAreNotCNamesAreRenamed() {
    assertContains(emit(SampleKernels.intOps()), "int half_ = 0;", "int length_ = 0;", "int kernel_ = 0;");
    assertContains(emit(SampleKernels.flags()), "int float4_ = 0;");
    Var a = var("a$b", INT), b = var("a_b", INT), u = var("_x", INT), w = var("é", INT);
    String s = emit(kernel("k", List.of(OUT), null, set(a, c(1)), set(b, c(2)), set(u, c(3)), set(w, c(4)),
        store(OUT, c(0), read(a))));
    assertContains(s, "int a_b_ = 0;", "int a_b_2_ = 0;", "int v_x_ = 0;", "int v__ = 0;");
    assertThrows(IllegalArgumentException.class, () -> emit(kernel("not a name", List.of(OUT), null)));
  }

  @Test
  void intArithmeticWrapsOnUnsignedBits() {
    String s = emit(SampleKernels.intOps());
    assertContains(s, "out_[kernel_] = as_int((uint)half_ + (uint)length_);",
        "= as_int((uint)half_ * (uint)length_);",
        // Java's / and % (the legalise pass): C's own by a divisor that is never 0 or -1, then those two cases chosen.
        "op_ = length_ == 0 || length_ == -1 ? 1 : length_;", "op_2_ = half_ / op_;",
        "= length_ == -1 ? as_int(-(uint)half_) : length_ == 0 ? 0 : op_2_;", "op_4_ = half_ % op_3_;",
        "= as_int((uint)half_ << (length_ & 31));", "= half_ >> (length_ & 31);", "= as_int((uint)half_ >> (length_ & 31));",
        "= as_int(-(uint)half_);", "= half_ < 0 ? as_int(-(uint)half_) : half_;", "= min(half_, length_);",
        "= half_ / 7;", "= half_ % -3;", "= (half_ & length_) ^ (half_ | 3);",
        "= as_int(((uint)half_ << 3) + (uint)length_);");
    assertFalse(s.contains("static inline"), "no helper functions for integer arithmetic");
    String l = emit(SampleKernels.longOps());
    assertContains(l, "= as_long((ulong)x_ + (ulong)y_);", "op_ = y_ == 0L || y_ == -1L ? 1L : y_;", "op_2_ = x_ / op_;",
        "= y_ == -1L ? as_long(-(ulong)x_) : y_ == 0L ? 0L : op_2_;", "= as_long((ulong)x_ << (d_ & 63));",
        "= x_ >> (d_ & 63);", "= as_long((ulong)x_ >> (d_ & 63));", "= x_ < 0L ? as_long(-(ulong)x_) : x_;", "= x_ / -7L;",
        "= (long)(int)x_;", "= as_long((ulong)x_ << 1);", "(int)popcount(x_)", "(int)clz(x_)", "jctz_l(x_)");
  }

  @Test
  void aConstantDivisorNeedsNoTest() {
    Var x = var("x", INT);
    assertContains(emitValue(div(read(x), c(0))), "= 0;");       // the IR's x / 0
    assertContains(emitValue(rem(read(x), c(-1))), "= 0;");      // Java's x % -1
    assertContains(emitValue(div(read(x), c(-1))), "= as_int(-(uint)x_);");
    assertContains(emitValue(div(read(x), c(Integer.MIN_VALUE))), "x_ / (-2147483647-1)");
  }

  @Test
  void constantsReadBackExactly() {
    assertContains(emitValue(c(Integer.MIN_VALUE)), "out_[0] = (-2147483647-1);");
    assertContains(emitValue(c(Long.MIN_VALUE)), "out_[0] = (-9223372036854775807L-1L);");
    assertContains(emitValue(c(Long.MAX_VALUE)), "out_[0] = 9223372036854775807L;");
    assertContains(emitValue(c(0.1f)), "out_[0] = 0.1f;");
    assertContains(emitValue(c(-0.0f)), "out_[0] = -0.0f;");
    assertContains(emitValue(c(Float.MIN_VALUE)), "out_[0] = 1.4E-45f;");
    assertContains(emitValue(c(Float.NaN)), "out_[0] = as_float(0x7fc00000);");
    assertContains(emitValue(c(Float.NEGATIVE_INFINITY)), "out_[0] = -INFINITY;");
    assertContains(emitValue(c(0.1)), "out_[0] = 0.1;");
    assertContains(emitValue(c(Double.NaN)), "out_[0] = as_double(0x7ff8000000000000L);");
    assertContains(emitValue(c(Double.POSITIVE_INFINITY)), "out_[0] = (double)INFINITY;");
    assertContains(emitValue(c(true)), "out_[0] = 1;");
    Var x = var("x", INT);
    assertContains(emitValue(add(read(x), c(-1))), "as_int((uint)x_ + (uint)-1)");
    assertContains(emitValue(sub(c(Integer.MIN_VALUE), read(x))), "as_int((uint)(-2147483647-1) - (uint)x_)");
  }

  @Test
  void conversionsFollowJava() {
    String s = emit(SampleKernels.conversions());
    assertContains(s, "= convert_int_sat_rtz(f_[i_]);", "= (int)(char)convert_int_sat_rtz(f_[i_]);",
        "= (int)(short)convert_int_sat_rtz(f_[i_]);", "= (int)(ushort)convert_int_sat_rtz(f_[i_]);",
        "= convert_int_sat_rtz(d_[i_]);", "= (int)(ushort)a_[i_];", "= (int)(char)a_[i_];",
        "= convert_long_sat_rtz(f_[i_]);", "= (long)(int)l_[i_];", "= (float)l_[i_];", "= (float)d_[i_];", "= (double)l_[i_];");
    Var z = var("z", BOOLEAN);
    assertContains(emitValue(conv(INT, read(z))), "out_[0] = z_;");
    assertContains(emitValue(conv(HALF, c(1f))), "jhalf_f(1.0f)", "vstore_half(x, 0, (__private half*)&h);");
  }

  @Test
  void stores() {
    String s = emit(SampleKernels.narrowArrays());
    assertContains(s, "b_[i_] = (char)as_int((uint)b_[i_] + 200u);", "s_[i_] = (short)as_int((uint)s_[i_] + 40000u);",
        "ch_[i_] = (ushort)as_int((uint)ch_[i_] - 1u);");
    assertContains(emit(SampleKernels.flags()), "bs_[i_] = (uchar)(b_ & 1);");
  }

  @Test
  void halfsAreLoadedAndStoredThroughVloadHalf() {
    String s = emit(SampleKernels.halfs());
    assertContains(s, "__global half* h_", "vstore_half(in_[i_], i_, h_);", "= vload_half(i_, h_);",
        "  ushort p_[2];\n", "for (int z = 0; z < 2; z++) p_[z] = 0;", "vstore_half(in_[i_], 1, (half*)p_);",
        "vload_half(0, (half*)p_) + vload_half(1, (half*)p_)");
    assertFalse(s.contains("cl_khr_fp16"));
    Var h = local("h", HALF, 8);
    assertContains(emitValue(load(h, c(3))), "__local ushort h_[8];", "vload_half(3, (__local half*)h_)");
  }

  @Test
  void floatsFollowJava() {
    String s = emit(SampleKernels.minMax());
    // Math.min/max (the legalise pass): NaN wins, equal values combine their sign bits (-0.0 below 0.0).
    assertContains(s, "= op_ != op_ ? op_ : op_2_ != op_2_ ? op_2_ : op_ == op_2_ ? as_float(as_int(op_) | as_int(op_2_)) : op_ < op_2_ ? op_ : op_2_;",
        "as_float(as_int(op_3_) & as_int(op_4_)) : op_3_ > op_4_ ? op_3_ : op_4_;", "fabs(a_[i_])", "jrint_f(a_[i_])",
        "as_double(as_long(op_5_) | as_long(op_6_))", "jpow_d(x_[i_], y_[i_])");
    assertFalse(s.contains("fmin") || s.contains("fmax"), "fmin and fmax promise neither NaN nor -0.0 as Java");
    String m = emit(SampleKernels.math(false));
    for (String f : List.of("sqrt", "cbrt", "log", "log10", "log1p", "sin", "cos", "tan", "asin", "acos", "atan", "sinh",
        "cosh", "tanh")) assertContains(m, " = " + f + "(x_[i_]);");
    // PoCL's own exp, expm1, floor and ceil break on a NaN (or huge) argument they know: guarded helpers.
    for (String f : List.of("exp", "expm1", "floor", "ceil")) assertContains(m, " = j" + f + "_d(x_[i_]);");
    assertContains(m, "return isnan(x) ? x : exp(x);", "return fabs(x) < 4503599627370496.0 ? floor(x) : x;");
    assertContains(m, "atan2(x_[i_], y_[i_])", "hypot(x_[i_], y_[i_])", "fma(x_[i_], y_[i_], x_[i_])", "jpow_f(fx_[i_], 2.0f)",
        "fmod(fx_[i_], 0.75f)", "fx_[i_] * fx_[i_] + 1.0f", "fx_[i_] / 3.0f");
    String fast = dev.loopjit.testing.Emit.opencl(SampleKernels.math(true), FAST);
    assertContains(fast, "fmin(fx_[i_], 0.0f)", "pow(fx_[i_], 2.0f)");
    assertFalse(fast.contains("jmin_f") || fast.contains("jpow"), fast);
  }

  @Test
  void bitsAndCounts() {
    String s = emit(SampleKernels.bits());
    assertContains(s, "popcount(x_)", "clz(x_)", "jctz_i(x_)", "as_int(f_[i_])", "as_int(as_float(x_))",
        "as_long(d_[i_])", "as_long(as_double((long)x_))", "popcount((u & (0u - u)) - 1u)");
  }

  @Test
  void workItemsBarriersAndAtomics() {
    String r = emit(SampleKernels.localReduce());
    assertContains(r, "  __local float tmp_[64];\n  __local float acc_[1];\n", "lid_ = (int)get_local_id(0);", "gid_ = (int)get_global_id(0);",
        "s_ = (int)get_local_size(0) / 2;", "out_[(int)get_group_id(0)] = tmp_[0];", "barrier(CLK_LOCAL_MEM_FENCE);",
        "barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);", "jatomic_add_f_local(&acc_[0], in_[gid_]);",
        "static inline float jatomic_add_f_local(volatile __local float* p, float v) {", "for (; s_ > 0; s_ = s_ >> 1) {");
    assertFalse(r.contains("tmp_[z]"), "local arrays are not zeroed by their Alloc");
    String a = emit(SampleKernels.atomics());
    assertContains(a, "jatomic_add_f_global(&acc_[i_ & 3], in_[i_]);", "old_ = atomic_add(&accI_[i_ & 3], 1);",
        "atom_add(&accL_[0], (long)i_);", "jatomic_add_d_global(&accD_[0], (double)in_[i_]);",
        "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n", "atomic_cmpxchg(q, old, as_int(as_float(old) + v))");
    assertContains(emit(SampleKernels.privateArrays()), "(int)get_global_size(0)", "for (int z = 0; z < 4; z++) p_[z] = 0;", "(float)4");
    assertContains(emit(SampleKernels.scalars()), "out_[7] = 5;", "  int p_[5];\n");
  }

  @Test
  void refusesWhatLoweringShouldHaveRemoved() {
    Var a = global("a", INT), x = var("x", INT);
    Expr invoke = new Expr.Invoke("K", "f", "()I", INT, List.of());
    assertThrows(IllegalStateException.class, () -> emit(kernel("k", List.of(a), null, set(x, invoke))));
    assertThrows(IllegalStateException.class, () -> emit(kernel("k", List.of(a), null, set(x, length(a)))));
    assertThrows(IllegalStateException.class, () -> emit(kernel("k", List.of(a), null, brk(label("nowhere")))));
    assertThrows(IllegalStateException.class, () -> emit(kernel("k", List.of(a), null, new Stmt.Return(c(1), SRC))));
    assertThrows(IllegalStateException.class, () -> emit(kernel("k", List.of(a), null, set(x, gid(3)))));
    Var p = priv("p", INT, 4), q = priv("q", INT, 4);
    assertThrows(IllegalStateException.class, () -> emit(kernel("k", List.of(a), null, alloc(p), set(q, read(p)))));
    Target noDoubles = Target.of("opencl").withFp64(false).withFp16(false).withInt64Atomics(false);
    assertThrows(IllegalStateException.class, () -> dev.loopjit.testing.Emit.opencl(SampleKernels.minMax(), noDoubles));
    Target noInt64Atomics = Target.of("opencl").withFp16(false).withInt64Atomics(false);
    assertThrows(IllegalStateException.class, () -> dev.loopjit.testing.Emit.opencl(SampleKernels.atomics(), noInt64Atomics));
    Expr.Call privateAtomic = call(Intrinsic.ATOMIC_ADD, INT, read(p), c(0), c(1));
    assertThrows(IllegalStateException.class, () -> emit(kernel("k", List.of(a), null, alloc(p), eval(privateAtomic))));
  }
}
