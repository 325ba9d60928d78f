// Test kernels: each a Java method (the jvm reference), its OpenCL C written by hand and a hand-made IR standing in for the JIT.
package dev.loopjit.backend.opencl;

import dev.loopjit.api.Device;
import dev.loopjit.api.KernelContext;
import dev.loopjit.api.Parallel;
import dev.loopjit.ir.Target;
import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.KernelArg;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Launch;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Var;
import dev.loopjit.spi.DeviceCode;
import dev.loopjit.spi.Options;
import dev.loopjit.spi.Recipe;
import dev.loopjit.spi.TaskSpec;
import dev.loopjit.types.DoubleArray;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.util.ArrayList;
import java.util.List;

/**
 * Kernels for the OpenCL runtime tests, until the JIT writes them. The IR carries what the runtime
 * reads: parameters, launch shape and argument list, and a body that only touches the arrays the
 * kernel reads and writes (so that KernelFacts reports the right access).
 */
final class HandwrittenKernels implements Recipe {
  private HandwrittenKernels() {}

  static final HandwrittenKernels SOURCE = new HandwrittenKernels();

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

  /** On the jvm every entry becomes 1; the OpenCL C writes get_local_size(0) instead, to show the launch shape. */
  static void localSizes(IntArray out) {
    for (@Parallel int i = 0; i < out.getSize(); i++) out.set(i, 1);
  }

  static void ids(KernelContext ctx, IntArray out) {
    if (ctx.globalIdx < out.getSize()) out.set(ctx.globalIdx, ctx.localIdx + 1000 * ctx.groupIdx);
  }

  /** Same as vadd; the OpenCL C does not compile. */
  static void broken(FloatArray a, FloatArray b, FloatArray c) {
    vadd(a, b, c);
  }

  // ---- the kernels the JIT would produce ----

  @Override
  public String language() {
    return "opencl";
  }

  @Override
  public String displayName() {
    return "OpenCL C";
  }

  @Override
  public Target target(Device device, String variant, Options options) {
    return OpenClRecipe.INSTANCE.target(device, variant, options);
  }

  @Override
  public DeviceCode emit(KernelIR ir, Target target) {
    throw new UnsupportedOperationException("handwritten kernels are chosen by method name");
  }

  @Override
  public DeviceCode generate(TaskSpec task, Target target, Options options) {
    String n = task.method().name();
    return switch (n) {
      case "vadd" -> {
        Sig k = new Sig(n, array("a", Prim.FLOAT), array("b", Prim.FLOAT), array("c", Prim.FLOAT));
        yield k.generated(k.loops(k.length(2)), k.touches(2, 0, 1), """
            __kernel void vadd(__global const float* a, __global const float* b, __global float* c, int n0) {
              int i = get_global_id(0);
              if (i < n0) c[i] = a[i] + b[i];
            }
            """, k.arr(0), k.arr(1), k.arr(2), k.count(0));
      }
      case "vaddHeap" -> {
        Sig k = new Sig(n, array("a", Prim.FLOAT), array("b", Prim.FLOAT), array("c", Prim.FLOAT));
        yield k.generated(k.loops(k.length(2)), k.touches(2, 0, 1), """
            __kernel void vaddHeap(__global const float* a, __global const float* b, __global float* c, int c_length, int n0) {
              int i = get_global_id(0);
              if (i < n0 && i < c_length) c[i] = a[i] + b[i];
            }
            """, k.arr(0), k.arr(1), k.arr(2), k.len(2), k.count(0));
      }
      case "scale2d" -> {
        Sig k = new Sig(n, array("in", Prim.FLOAT), array("out", Prim.FLOAT), scalar("rows", Prim.INT), scalar("cols", Prim.INT));
        yield k.generated(k.loops(k.read(3), k.read(2)), k.touches(1, 0), """
            #pragma OPENCL FP_CONTRACT OFF
            __kernel void scale2d(__global const float* in, __global float* out, int rows, int cols, int n0, int n1) {
              int j = get_global_id(0), i = get_global_id(1);
              if (j < n0 && i < n1) out[i * cols + j] = 2.0f * in[i * cols + j] + (float) i - (float) j;
            }
            """, k.arr(0), k.arr(1), k.scal(2), k.scal(3), k.count(0), k.count(1));
      }
      case "scalars" -> {
        Sig k = new Sig(n, scalar("b", Prim.BYTE), scalar("s", Prim.SHORT), scalar("c", Prim.CHAR), scalar("i", Prim.INT),
            scalar("l", Prim.LONG), scalar("f", Prim.FLOAT), scalar("d", Prim.DOUBLE), scalar("z", Prim.BOOLEAN),
            array("out", Prim.DOUBLE));
        yield k.generated(new Launch.Single(), k.touches(8), """
            #pragma OPENCL EXTENSION cl_khr_fp64 : enable
            __kernel void scalars(char b, short s, ushort c, int i, long l, float f, double d, int z, __global double* out) {
              out[0] = b; out[1] = s; out[2] = c; out[3] = i; out[4] = l; out[5] = f; out[6] = d; out[7] = z;
            }
            """, k.scal(0), k.scal(1), k.scal(2), k.scal(3), k.scal(4), k.scal(5), k.scal(6), k.scal(7), k.arr(8));
      }
      case "flags" -> {
        Sig k = new Sig(n, array("in", Prim.BOOLEAN), array("out", Prim.INT));
        yield k.generated(k.loops(k.length(0)), k.touches(1, 0), """
            __kernel void flags(__global const uchar* in, __global int* out, int n0) {
              int i = get_global_id(0);
              if (i < n0) out[i] = in[i] ? i : -i;
            }
            """, k.arr(0), k.arr(1), k.count(0));
      }
      case "localSizes" -> {
        Sig k = new Sig(n, array("out", Prim.INT));
        yield k.generated(k.loops(k.length(0)), k.touches(0), """
            __kernel void localSizes(__global int* out, int n0) {
              int i = get_global_id(0);
              if (i < n0) out[i] = (int) get_local_size(0);
            }
            """, k.arr(0), k.count(0));
      }
      case "ids" -> {
        Sig k = new Sig(n, new Var("ctx", Prim.INT), array("out", Prim.INT));
        yield k.generated(new Launch.Explicit(), k.touches(1), """
            __kernel void ids(__global int* out, int out_length) {
              int g = get_global_id(0);
              if (g < out_length) out[g] = (int) get_local_id(0) + 1000 * (int) get_group_id(0);
            }
            """, k.arr(1), k.len(1));
      }
      case "broken" -> {
        Sig k = new Sig(n, array("a", Prim.FLOAT), array("b", Prim.FLOAT), array("c", Prim.FLOAT));
        yield k.generated(k.loops(k.length(2)), k.touches(2, 0, 1), """
            __kernel void broken(__global const float* a, __global const float* b, __global float* c, int n0) {
              int i = get_global_id(0);
              if (i < n0) c[i] = a[i] + undeclared_thing;
            }
            """, k.arr(0), k.arr(1), k.arr(2), k.count(0));
      }
      default -> throw new IllegalArgumentException("no handwritten kernel for " + n);
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

    DeviceCode generated(Launch launch, Stmt.Block body, String source, KernelArg... args) {
      return DeviceCode.text(new KernelIR(name, Src.NONE, params, body, launch, List.of(args)), "opencl", source);
    }
  }
}
