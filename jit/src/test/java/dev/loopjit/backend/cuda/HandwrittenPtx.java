// Test kernels: each a Java method (the jvm reference), its PTX written by hand and a hand-made IR standing in for the JIT.
package dev.loopjit.backend.cuda;

import dev.loopjit.api.KernelContext;
import dev.loopjit.api.Parallel;
import dev.loopjit.compiler.Target;
import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.KernelArg;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Launch;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Var;
import dev.loopjit.runtime.TaskSpec;
import dev.loopjit.types.DoubleArray;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Kernels for the CUDA runtime tests, until the JIT writes PTX. The PTX follows the parameter ABI
 * of {@link KernelParams} (arrays {@code .u64}, lengths and counts {@code .u32}, scalars by type,
 * narrow ones as {@code .u32}) and Java's float rules (explicit {@code .rn}, no contraction, no
 * flush to zero). It targets {@code sm_80} with PTX ISA 7.8, which the driver JITs for any newer
 * GPU; {@code HandwrittenPtxTest} assembles every kernel with ptxas. The IR carries what the
 * runtime reads: parameters, launch shape and argument list, and a body that only touches the
 * arrays the kernel reads and writes (so that KernelFacts reports the right access).
 */
final class HandwrittenPtx implements PtxSource {
  private HandwrittenPtx() {}

  static final HandwrittenPtx SOURCE = new HandwrittenPtx();

  private static final String HEADER = """
      .version 7.8
      .target sm_80
      .address_size 64

      """;

  // ---- the Java methods: the reference each device is compared with ----

  static void vadd(FloatArray a, FloatArray b, FloatArray c) {
    for (@Parallel int i = 0; i < c.getSize(); i++) c.set(i, a.get(i) + b.get(i));
  }

  static void vaddHeap(float[] a, float[] b, float[] c) {
    for (@Parallel int i = 0; i < c.length; i++) c[i] = a[i] + b[i];
  }

  static void scale2d(FloatArray in, FloatArray out, int rows, int cols) {
    for (@Parallel int i = 0; i < rows; i++)
      for (@Parallel int j = 0; j < cols; j++) out.set(i * cols + j, 2f * in.get(i * cols + j) + i - j);
  }

  static void scalars(byte b, short s, char c, int i, long l, float f, double d, boolean z, DoubleArray out) {
    out.set(0, b);
    out.set(1, s);
    out.set(2, c);
    out.set(3, i);
    out.set(4, l);
    out.set(5, f);
    out.set(6, d);
    out.set(7, z ? 1 : 0);
  }

  static void flags(boolean[] in, IntArray out) {
    for (@Parallel int i = 0; i < in.length; i++) out.set(i, in[i] ? i : -i);
  }

  /** On the jvm every entry becomes 1; the PTX writes the block size (%ntid.x) instead, to show the launch shape. */
  static void localSizes(IntArray out) {
    for (@Parallel int i = 0; i < out.getSize(); i++) out.set(i, 1);
  }

  static void ids(KernelContext ctx, IntArray out) {
    if (ctx.globalIdx < out.getSize()) out.set(ctx.globalIdx, ctx.localIdx + 1000 * ctx.groupIdx);
  }

  /** Reverses each block of 64 through a shared (local) tile and a barrier: static .shared memory and bar.sync. */
  static void reverseInGroups(KernelContext ctx, IntArray in, IntArray out) {
    int[] tile = ctx.allocateIntLocalArray(64);
    int l = ctx.localIdx, g = ctx.globalIdx;
    tile[l] = g < in.getSize() ? in.get(g) : -1;
    ctx.localBarrier();
    if (g < out.getSize()) out.set(g, tile[ctx.localGroupSizeX - 1 - l]);
  }

  /** Same as vadd; its PTX does not assemble. */
  static void broken(FloatArray a, FloatArray b, FloatArray c) {
    vadd(a, b, c);
  }

  // ---- the kernels the JIT would produce ----

  /** Every kernel's PTX by method name, for the ptxas test. */
  static Map<String, String> allPtx() {
    Map<String, String> m = new LinkedHashMap<>();
    for (String n : List.of("vadd", "vaddHeap", "scale2d", "scalars", "flags", "localSizes", "ids", "reverseInGroups", "broken"))
      m.put(n, HEADER + body(n));
    return m;
  }

  @Override
  public Generated generate(TaskSpec task, Target target) {
    return kernel(task.method().name());
  }

  /** The kernel of the method named {@code n}. */
  static Generated kernel(String n) {
    String ptx = HEADER + body(n);
    return switch (n) {
      case "vadd", "broken" -> {
        Sig k = new Sig(n, array("a", Prim.FLOAT), array("b", Prim.FLOAT), array("c", Prim.FLOAT));
        yield k.generated(k.loops(k.length(2)), k.touches(2, 0, 1), ptx, k.arr(0), k.arr(1), k.arr(2), k.count(0));
      }
      case "vaddHeap" -> {
        Sig k = new Sig(n, array("a", Prim.FLOAT), array("b", Prim.FLOAT), array("c", Prim.FLOAT));
        yield k.generated(k.loops(k.length(2)), k.touches(2, 0, 1), ptx, k.arr(0), k.arr(1), k.arr(2), k.len(2), k.count(0));
      }
      case "scale2d" -> {
        Sig k = new Sig(n, array("in", Prim.FLOAT), array("out", Prim.FLOAT), scalar("rows", Prim.INT), scalar("cols", Prim.INT));
        yield k.generated(k.loops(k.read(3), k.read(2)), k.touches(1, 0), ptx, k.arr(0), k.arr(1), k.scal(2), k.scal(3),
            k.count(0), k.count(1));
      }
      case "scalars" -> {
        Sig k = new Sig(n, scalar("b", Prim.BYTE), scalar("s", Prim.SHORT), scalar("c", Prim.CHAR), scalar("i", Prim.INT),
            scalar("l", Prim.LONG), scalar("f", Prim.FLOAT), scalar("d", Prim.DOUBLE), scalar("z", Prim.BOOLEAN),
            array("out", Prim.DOUBLE));
        yield k.generated(new Launch.Single(), k.touches(8), ptx, k.scal(0), k.scal(1), k.scal(2), k.scal(3), k.scal(4), k.scal(5),
            k.scal(6), k.scal(7), k.arr(8));
      }
      case "flags" -> {
        Sig k = new Sig(n, array("in", Prim.BOOLEAN), array("out", Prim.INT));
        yield k.generated(k.loops(k.length(0)), k.touches(1, 0), ptx, k.arr(0), k.arr(1), k.count(0));
      }
      case "localSizes" -> {
        Sig k = new Sig(n, array("out", Prim.INT));
        yield k.generated(k.loops(k.length(0)), k.touches(0), ptx, k.arr(0), k.count(0));
      }
      case "ids" -> {
        Sig k = new Sig(n, new Var("ctx", Prim.INT), array("out", Prim.INT));
        yield k.generated(new Launch.Explicit(), k.touches(1), ptx, k.arr(1), k.len(1));
      }
      case "reverseInGroups" -> {
        Sig k = new Sig(n, new Var("ctx", Prim.INT), array("in", Prim.INT), array("out", Prim.INT));
        yield k.generated(new Launch.Explicit(), k.touches(2, 1), ptx, k.arr(1), k.len(1), k.arr(2), k.len(2));
      }
      default -> throw new IllegalArgumentException("no handwritten PTX for " + n);
    };
  }

  /** The PTX of one kernel after the module header. */
  private static String body(String name) {
    return switch (name) {
      case "vadd" -> """
          // c[i] = a[i] + b[i] for i < n0
          .visible .entry vadd(
              .param .u64 vadd_a,
              .param .u64 vadd_b,
              .param .u64 vadd_c,
              .param .u32 vadd_n0)
          {
              .reg .pred %p<2>;
              .reg .b32 %r<6>;
              .reg .f32 %f<4>;
              .reg .b64 %rd<11>;

              ld.param.u64 %rd1, [vadd_a];
              ld.param.u64 %rd2, [vadd_b];
              ld.param.u64 %rd3, [vadd_c];
              ld.param.u32 %r1, [vadd_n0];
              mov.u32 %r2, %ctaid.x;
              mov.u32 %r3, %ntid.x;
              mov.u32 %r4, %tid.x;
              mad.lo.s32 %r5, %r2, %r3, %r4;
              setp.ge.s32 %p1, %r5, %r1;
              @%p1 bra DONE;
              cvta.to.global.u64 %rd4, %rd1;
              cvta.to.global.u64 %rd5, %rd2;
              cvta.to.global.u64 %rd6, %rd3;
              mul.wide.s32 %rd7, %r5, 4;
              add.s64 %rd8, %rd4, %rd7;
              add.s64 %rd9, %rd5, %rd7;
              add.s64 %rd10, %rd6, %rd7;
              ld.global.f32 %f1, [%rd8];
              ld.global.f32 %f2, [%rd9];
              add.rn.f32 %f3, %f1, %f2;
              st.global.f32 [%rd10], %f3;
          DONE:
              ret;
          }
          """;
      case "broken" -> """
          // vadd with a register that is never declared: the JIT must refuse it and say so in its log
          .visible .entry broken(
              .param .u64 broken_a,
              .param .u64 broken_b,
              .param .u64 broken_c,
              .param .u32 broken_n0)
          {
              .reg .f32 %f<4>;
              .reg .b64 %rd<4>;

              ld.param.u64 %rd1, [broken_a];
              cvta.to.global.u64 %rd2, %rd1;
              ld.global.f32 %f1, [%rd2];
              add.rn.f32 %f3, %f1, %undeclared_thing;
              st.global.f32 [%rd2], %f3;
              ret;
          }
          """;
      case "vaddHeap" -> """
          // c[i] = a[i] + b[i] for i < n0 and i < c_length
          .visible .entry vaddHeap(
              .param .u64 p_a,
              .param .u64 p_b,
              .param .u64 p_c,
              .param .u32 p_c_length,
              .param .u32 p_n0)
          {
              .reg .pred %p<3>;
              .reg .b32 %r<7>;
              .reg .f32 %f<4>;
              .reg .b64 %rd<8>;

              ld.param.u32 %r1, [p_n0];
              ld.param.u32 %r2, [p_c_length];
              mov.u32 %r3, %ctaid.x;
              mov.u32 %r4, %ntid.x;
              mov.u32 %r5, %tid.x;
              mad.lo.s32 %r6, %r3, %r4, %r5;
              setp.ge.s32 %p1, %r6, %r1;
              setp.ge.s32 %p2, %r6, %r2;
              or.pred %p1, %p1, %p2;
              @%p1 bra DONE;
              ld.param.u64 %rd1, [p_a];
              ld.param.u64 %rd2, [p_b];
              ld.param.u64 %rd3, [p_c];
              mul.wide.s32 %rd4, %r6, 4;
              cvta.to.global.u64 %rd5, %rd1;
              add.s64 %rd5, %rd5, %rd4;
              cvta.to.global.u64 %rd6, %rd2;
              add.s64 %rd6, %rd6, %rd4;
              cvta.to.global.u64 %rd7, %rd3;
              add.s64 %rd7, %rd7, %rd4;
              ld.global.f32 %f1, [%rd5];
              ld.global.f32 %f2, [%rd6];
              add.rn.f32 %f3, %f1, %f2;
              st.global.f32 [%rd7], %f3;
          DONE:
              ret;
          }
          """;
      case "scale2d" -> """
          // j = x (inner loop, n0 = cols), i = y (outer loop, n1 = rows):
          // out[i*cols+j] = ((2f * in[i*cols+j]) + (float) i) - (float) j, each step rounded as Java does
          .visible .entry scale2d(
              .param .u64 p_in,
              .param .u64 p_out,
              .param .u32 p_rows,
              .param .u32 p_cols,
              .param .u32 p_n0,
              .param .u32 p_n1)
          {
              .reg .pred %p<3>;
              .reg .b32 %r<13>;
              .reg .f32 %f<7>;
              .reg .b64 %rd<7>;

              ld.param.u32 %r1, [p_n0];
              ld.param.u32 %r2, [p_n1];
              mov.u32 %r3, %ctaid.x;
              mov.u32 %r4, %ntid.x;
              mov.u32 %r5, %tid.x;
              mad.lo.s32 %r6, %r3, %r4, %r5;
              mov.u32 %r7, %ctaid.y;
              mov.u32 %r8, %ntid.y;
              mov.u32 %r9, %tid.y;
              mad.lo.s32 %r10, %r7, %r8, %r9;
              setp.ge.s32 %p1, %r6, %r1;
              setp.ge.s32 %p2, %r10, %r2;
              or.pred %p1, %p1, %p2;
              @%p1 bra DONE;
              ld.param.u32 %r11, [p_cols];
              mad.lo.s32 %r12, %r10, %r11, %r6;
              mul.wide.s32 %rd1, %r12, 4;
              ld.param.u64 %rd2, [p_in];
              cvta.to.global.u64 %rd3, %rd2;
              add.s64 %rd3, %rd3, %rd1;
              ld.param.u64 %rd4, [p_out];
              cvta.to.global.u64 %rd5, %rd4;
              add.s64 %rd5, %rd5, %rd1;
              ld.global.f32 %f1, [%rd3];
              mul.rn.f32 %f2, 0f40000000, %f1;
              cvt.rn.f32.s32 %f3, %r10;
              add.rn.f32 %f4, %f2, %f3;
              cvt.rn.f32.s32 %f5, %r6;
              sub.rn.f32 %f6, %f4, %f5;
              st.global.f32 [%rd5], %f6;
          DONE:
              ret;
          }
          """;
      case "scalars" -> """
          // one thread: out[k] = (double) each scalar; byte/short/boolean arrive as s32, char zero-extended in a u32
          .visible .entry scalars(
              .param .u32 p_b,
              .param .u32 p_s,
              .param .u32 p_c,
              .param .u32 p_i,
              .param .u64 p_l,
              .param .f32 p_f,
              .param .f64 p_d,
              .param .u32 p_z,
              .param .u64 p_out)
          {
              .reg .b32 %r<6>;
              .reg .f32 %f<2>;
              .reg .b64 %rd<4>;
              .reg .f64 %fd<9>;

              ld.param.u64 %rd1, [p_out];
              cvta.to.global.u64 %rd2, %rd1;
              ld.param.u32 %r1, [p_b];
              cvt.rn.f64.s32 %fd1, %r1;
              st.global.f64 [%rd2], %fd1;
              ld.param.u32 %r2, [p_s];
              cvt.rn.f64.s32 %fd2, %r2;
              st.global.f64 [%rd2+8], %fd2;
              ld.param.u32 %r3, [p_c];
              cvt.rn.f64.u32 %fd3, %r3;
              st.global.f64 [%rd2+16], %fd3;
              ld.param.u32 %r4, [p_i];
              cvt.rn.f64.s32 %fd4, %r4;
              st.global.f64 [%rd2+24], %fd4;
              ld.param.u64 %rd3, [p_l];
              cvt.rn.f64.s64 %fd5, %rd3;
              st.global.f64 [%rd2+32], %fd5;
              ld.param.f32 %f1, [p_f];
              cvt.f64.f32 %fd6, %f1;
              st.global.f64 [%rd2+40], %fd6;
              ld.param.f64 %fd7, [p_d];
              st.global.f64 [%rd2+48], %fd7;
              ld.param.u32 %r5, [p_z];
              cvt.rn.f64.s32 %fd8, %r5;
              st.global.f64 [%rd2+56], %fd8;
              ret;
          }
          """;
      case "flags" -> """
          // boolean[] arrives as bytes 0/1: out[i] = in[i] != 0 ? i : -i
          .visible .entry flags(
              .param .u64 p_in,
              .param .u64 p_out,
              .param .u32 p_n0)
          {
              .reg .pred %p<3>;
              .reg .b32 %r<9>;
              .reg .b64 %rd<7>;

              ld.param.u32 %r1, [p_n0];
              mov.u32 %r2, %ctaid.x;
              mov.u32 %r3, %ntid.x;
              mov.u32 %r4, %tid.x;
              mad.lo.s32 %r5, %r2, %r3, %r4;
              setp.ge.s32 %p1, %r5, %r1;
              @%p1 bra DONE;
              ld.param.u64 %rd1, [p_in];
              cvta.to.global.u64 %rd2, %rd1;
              cvt.s64.s32 %rd3, %r5;
              add.s64 %rd2, %rd2, %rd3;
              ld.global.u8 %r6, [%rd2];
              setp.ne.s32 %p2, %r6, 0;
              neg.s32 %r7, %r5;
              selp.b32 %r8, %r5, %r7, %p2;
              ld.param.u64 %rd4, [p_out];
              cvta.to.global.u64 %rd5, %rd4;
              mul.wide.s32 %rd6, %r5, 4;
              add.s64 %rd5, %rd5, %rd6;
              st.global.u32 [%rd5], %r8;
          DONE:
              ret;
          }
          """;
      case "localSizes" -> """
          // out[i] = the block size in x, for i < n0
          .visible .entry localSizes(
              .param .u64 p_out,
              .param .u32 p_n0)
          {
              .reg .pred %p<2>;
              .reg .b32 %r<6>;
              .reg .b64 %rd<4>;

              ld.param.u32 %r1, [p_n0];
              mov.u32 %r2, %ctaid.x;
              mov.u32 %r3, %ntid.x;
              mov.u32 %r4, %tid.x;
              mad.lo.s32 %r5, %r2, %r3, %r4;
              setp.ge.s32 %p1, %r5, %r1;
              @%p1 bra DONE;
              ld.param.u64 %rd1, [p_out];
              cvta.to.global.u64 %rd2, %rd1;
              mul.wide.s32 %rd3, %r5, 4;
              add.s64 %rd2, %rd2, %rd3;
              st.global.u32 [%rd2], %r3;
          DONE:
              ret;
          }
          """;
      case "ids" -> """
          // KernelContext: out[g] = localIdx + 1000 * groupIdx for g = globalIdx < out_length
          .visible .entry ids(
              .param .u64 p_out,
              .param .u32 p_out_length)
          {
              .reg .pred %p<2>;
              .reg .b32 %r<8>;
              .reg .b64 %rd<4>;

              ld.param.u32 %r1, [p_out_length];
              mov.u32 %r2, %ctaid.x;
              mov.u32 %r3, %ntid.x;
              mov.u32 %r4, %tid.x;
              mad.lo.s32 %r5, %r2, %r3, %r4;
              setp.ge.s32 %p1, %r5, %r1;
              @%p1 bra DONE;
              mad.lo.s32 %r6, %r2, 1000, %r4;
              ld.param.u64 %rd1, [p_out];
              cvta.to.global.u64 %rd2, %rd1;
              mul.wide.s32 %rd3, %r5, 4;
              add.s64 %rd2, %rd2, %rd3;
              st.global.u32 [%rd2], %r6;
          DONE:
              ret;
          }
          """;
      case "reverseInGroups" -> """
          // KernelContext with a 64-int shared tile: tile[l] = g < in_length ? in[g] : -1; barrier;
          // out[g] = tile[localSizeX - 1 - l] for g < out_length
          .visible .entry reverseInGroups(
              .param .u64 p_in,
              .param .u32 p_in_length,
              .param .u64 p_out,
              .param .u32 p_out_length)
          {
              .shared .align 4 .b32 tile[64];
              .reg .pred %p<3>;
              .reg .b32 %r<14>;
              .reg .b64 %rd<7>;

              mov.u32 %r1, %tid.x;
              mov.u32 %r2, %ctaid.x;
              mov.u32 %r3, %ntid.x;
              mad.lo.s32 %r4, %r2, %r3, %r1;
              mul.wide.s32 %rd1, %r4, 4;
              mov.u32 %r5, -1;
              ld.param.u32 %r6, [p_in_length];
              setp.ge.s32 %p1, %r4, %r6;
              @%p1 bra FILL;
              ld.param.u64 %rd2, [p_in];
              cvta.to.global.u64 %rd3, %rd2;
              add.s64 %rd3, %rd3, %rd1;
              ld.global.u32 %r5, [%rd3];
          FILL:
              mov.u32 %r7, tile;
              shl.b32 %r8, %r1, 2;
              add.s32 %r9, %r7, %r8;
              st.shared.u32 [%r9], %r5;
              bar.sync 0;
              ld.param.u32 %r10, [p_out_length];
              setp.ge.s32 %p2, %r4, %r10;
              @%p2 bra DONE;
              sub.s32 %r11, %r3, 1;
              sub.s32 %r11, %r11, %r1;
              shl.b32 %r12, %r11, 2;
              add.s32 %r12, %r7, %r12;
              ld.shared.u32 %r13, [%r12];
              ld.param.u64 %rd4, [p_out];
              cvta.to.global.u64 %rd5, %rd4;
              add.s64 %rd5, %rd5, %rd1;
              st.global.u32 [%rd5], %r13;
          DONE:
              ret;
          }
          """;
      default -> throw new IllegalArgumentException("no handwritten PTX for " + name);
    };
  }

  private static Var array(String name, Prim p) {
    return new Var(name, ArrayType.global(p));
  }

  private static Var scalar(String name, Prim p) {
    return new Var(name, p);
  }

  /** A kernel's signature, and the IR pieces made from it. A parameter named {@code ctx} is the KernelContext. */
  private record Sig(String name, List<KernelIR.Param> params) {
    Sig(String name, Var... vars) {
      this(name, paramsOf(vars));
    }

    private static List<KernelIR.Param> paramsOf(Var[] vars) {
      List<KernelIR.Param> l = new ArrayList<>();
      for (int i = 0; i < vars.length; i++)
        l.add(new KernelIR.Param(i, vars[i], vars[i].name().equals("ctx") ? KernelIR.Param.Kind.CONTEXT
            : vars[i].type() instanceof ArrayType ? KernelIR.Param.Kind.ARRAY : KernelIR.Param.Kind.SCALAR));
      return l;
    }

    Var var(int p) { return params.get(p).var(); }
    KernelArg arr(int p) { return new KernelArg.Array(p, var(p)); }
    KernelArg len(int p) { return new KernelArg.Length(p, new Var(var(p).name() + "_length", Prim.INT)); }
    KernelArg scal(int p) { return new KernelArg.Scalar(p, var(p)); }
    KernelArg count(int d) { return new KernelArg.Count(d, new Var("n" + d, Prim.INT)); }
    Expr length(int p) { return new Expr.Length(new Expr.Read(var(p))); }
    Expr read(int p) { return new Expr.Read(var(p)); }
    Launch loops(Expr... counts) { return new Launch.Loops(List.of(counts)); }

    /** A body that stores into param {@code written} and loads from {@code read}: what KernelFacts.access looks at. */
    Stmt.Block touches(int written, int... read) {
      Var i = new Var("i", Prim.INT);
      Prim element = ((ArrayType) var(written).type()).element();
      Expr value = new Expr.Const(Prim.INT, 0);
      for (int r : read) value = new Expr.Load(new Expr.Read(var(r)), new Expr.Read(i));
      if (read.length == 0) value = new Expr.Const(element.stackType(), element == Prim.DOUBLE ? (Object) 0.0 : (Object) 0);
      return new Stmt.Block(List.of(new Stmt.Store(new Expr.Read(var(written)), new Expr.Read(i), value, Src.NONE)), Src.NONE);
    }

    Generated generated(Launch launch, Stmt.Block body, String ptx, KernelArg... args) {
      return new Generated(new KernelIR(name, Src.NONE, params, body, launch, List.of(args)), ptx);
    }
  }
}
