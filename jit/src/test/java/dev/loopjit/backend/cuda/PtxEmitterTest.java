// PtxEmitter's output as text and as ptxas sees it: every test kernel assembles for sm_80 and sm_90, and misuse is refused.
package dev.loopjit.backend.cuda;

import static dev.loopjit.backend.cuda.Ir.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.loopjit.ir.Target;
import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Expr;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.KernelArg;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Label;
import dev.loopjit.ir.Op.Binary;
import dev.loopjit.ir.Op.Compare;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Var;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class PtxEmitterTest {
  static Target target(String sm, boolean fastMath) {
    return Target.of("ptx").withVariant(sm).withFastMath(fastMath);
  }

  static final List<String> SMS = List.of("sm_80", "sm_90");

  @Test
  void everyKernelAssemblesForSm80AndSm90() {
    Assumptions.assumeTrue(Ptxas.present(), "ptxas (CUDA toolkit) is not installed");
    List<KernelIR> kernels = TestKernels.all();
    List<String> failures = Collections.synchronizedList(new ArrayList<>());
    kernels.parallelStream().forEach(k -> {
      for (String sm : SMS) check(k, target(sm, false), failures);
    });
    for (String sm : SMS) check(TestKernels.fastMath(), target(sm, true), failures);
    assertTrue(failures.isEmpty(), () -> failures.size() + " of " + 2 * (kernels.size() + 1) + " failed:\n" + String.join("\n\n", failures));
  }

  /** ptxas must accept the kernel without a single warning. */
  private static void check(KernelIR k, Target t, List<String> failures) {
    String ptx = dev.loopjit.testing.Emit.ptx(k, t);
    Ptxas.Result r = Ptxas.assemble(ptx, t.variant());
    if (!r.ok() || !r.output().isBlank()) failures.add(k.name() + " for " + t.variant() + ": " + r.output() + "\n" + ptx);
  }

  /**
   * a * b + c sixteen times: with Java semantics ptxas must keep a multiply and an add each (no FMA
   * contraction), so the code is at least eight instructions longer than the fast-math build, where
   * ptxas fuses them.
   */
  @Test
  void multiplyAddIsNotContractedUnlessFastMath() {
    Assumptions.assumeTrue(Ptxas.present(), "ptxas (CUDA toolkit) is not installed");
    Var a = global("a", Prim.FLOAT), out = global("out", Prim.FLOAT);
    List<Stmt> body = new ArrayList<>();
    for (int j = 0; j < 16; j++)
      body.add(store(out, c(j), bin(Binary.ADD, bin(Binary.MUL, load(a, c(3 * j)), load(a, c(3 * j + 1))), load(a, c(3 * j + 2)))));
    KernelIR k = kernel("madd", args(a, out), body.toArray(Stmt[]::new));
    String strict = dev.loopjit.testing.Emit.ptx(k, target("sm_90", false)), fast = dev.loopjit.testing.Emit.ptx(k, target("sm_90", true));
    assertTrue(strict.contains("mul.rn.f32") && strict.contains("add.rn.f32"), strict);
    assertFalse(fast.contains(".rn."), fast);
    long strictBytes = textBytes(Ptxas.cubin(strict, "sm_90")), fastBytes = textBytes(Ptxas.cubin(fast, "sm_90"));
    assertTrue(strictBytes >= fastBytes + 8 * 16, "strict " + strictBytes + " bytes of code, fast math " + fastBytes);
  }

  /** The total size of the .text sections of an ELF64 file. */
  static long textBytes(byte[] elf) {
    ByteBuffer b = ByteBuffer.wrap(elf).order(ByteOrder.LITTLE_ENDIAN);
    long shoff = b.getLong(0x28);
    int entry = b.getShort(0x3A) & 0xFFFF, count = b.getShort(0x3C) & 0xFFFF, names = b.getShort(0x3E) & 0xFFFF;
    long nameTable = b.getLong((int) (shoff + (long) names * entry + 0x18));
    long total = 0;
    for (int i = 0; i < count; i++) {
      int h = (int) (shoff + (long) i * entry);
      int start = (int) (nameTable + b.getInt(h)), end = start;
      while (elf[end] != 0) end++;
      if (new String(elf, start, end - start, StandardCharsets.US_ASCII).startsWith(".text")) total += b.getLong(h + 0x20);
    }
    return total;
  }

  @Test
  void moduleHeaderAndParameterAbi() {
    String ptx = dev.loopjit.testing.Emit.ptx(TestKernels.scalars(), target("sm_80", false));
    assertTrue(ptx.contains(".version 7.8\n.target sm_80\n.address_size 64\n"), ptx);
    assertTrue(ptx.contains(".visible .entry scalars(\n"), ptx);
    String[] expected = {"u64", "u64", "u64", "u64", "b32", "b32", "b32", "b32", "s32", "s64", "f32", "f64"};
    for (int i = 0; i < expected.length; i++) assertTrue(ptx.contains("\t.param ." + expected[i] + " p" + i), "parameter " + i + " is ." + expected[i] + "\n" + ptx);
    assertTrue(ptx.contains("cvta.to.global.u64"), ptx);
    String elementwise = dev.loopjit.testing.Emit.ptx(TestKernels.binary(Prim.INT, Binary.ADD), target("sm_90", false));
    assertTrue(elementwise.contains("\t.param .s32 p3 // n\n"), elementwise);
    KernelIR counted = kernel("counted", List.of(new KernelArg.Count(0, var("count0", Prim.INT))), eval(call(Intrinsic.BARRIER_LOCAL, null)));
    assertTrue(dev.loopjit.testing.Emit.ptx(counted, target("sm_90", false)).contains("\t.param .s32 p0 // count0\n"));
  }

  @Test
  void outputIsByteStable() {
    for (KernelIR k : List.of(TestKernels.nestedLoops(), TestKernels.switches(), TestKernels.privateArrays()))
      assertEquals(dev.loopjit.testing.Emit.ptx(k, target("sm_90", false)), dev.loopjit.testing.Emit.ptx(k, target("sm_90", false)));
  }

  @Test
  void nativeIntrinsics() {
    Set<Intrinsic> exact = PtxEmitter.nativeIntrinsics(false), fast = PtxEmitter.nativeIntrinsics(true);
    Set<Intrinsic> missing = EnumSet.of(Intrinsic.CBRT, Intrinsic.EXP, Intrinsic.EXPM1, Intrinsic.LOG, Intrinsic.LOG10, Intrinsic.LOG1P,
        Intrinsic.POW, Intrinsic.SIN, Intrinsic.COS, Intrinsic.TAN, Intrinsic.ASIN, Intrinsic.ACOS, Intrinsic.ATAN, Intrinsic.ATAN2,
        Intrinsic.SINH, Intrinsic.COSH, Intrinsic.TANH, Intrinsic.HYPOT);
    assertEquals(EnumSet.complementOf(EnumSet.copyOf(union(union(missing, LOWERED), CPU_ONLY))), exact);
    assertEquals(union(exact, EnumSet.of(Intrinsic.EXP, Intrinsic.LOG, Intrinsic.LOG10, Intrinsic.SIN, Intrinsic.COS, Intrinsic.TANH)), fast);
    assertTrue(PtxEmitter.isNative(Intrinsic.EXP, Prim.FLOAT, true));
    assertFalse(PtxEmitter.isNative(Intrinsic.EXP, Prim.DOUBLE, true));
    assertFalse(PtxEmitter.isNative(Intrinsic.EXP, Prim.FLOAT, false));
    assertTrue(PtxEmitter.isNative(Intrinsic.SQRT, Prim.DOUBLE, false));
  }

  private static Set<Intrinsic> union(Set<Intrinsic> a, Set<Intrinsic> b) {
    Set<Intrinsic> s = EnumSet.copyOf(a);
    s.addAll(b);
    return s;
  }

  /** Intrinsics the compiler lowers before any emitter sees them (collection shapes, SIMD-group folds, Math.*Exact throws). */
  private static final Set<Intrinsic> LOWERED = EnumSet.of(Intrinsic.SHAPE, Intrinsic.SIMD_SUM, Intrinsic.SIMD_MAX, Intrinsic.THROW);

  /** Intrinsics only CPU targets' passes write (the coarsen pass's rows form), which no GPU kernel has. */
  private static final Set<Intrinsic> CPU_ONLY = EnumSet.of(Intrinsic.LOAD_TRANSPOSED);

  @Test
  void refusesWhatOnlyCpuTargetsHave() {
    for (Intrinsic op : CPU_ONLY) {
      KernelIR k = TestKernels.math(op, Prim.INT, Prim.INT, 1);
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> PtxEmitter.emit(k, target("sm_90", false)), op.name());
      assertTrue(e.getMessage().contains("only the coarsen pass of CPU targets writes"), e.getMessage());
    }
  }

  @Test
  void refusesWhatTheCompilerLowersFirst() {
    for (Intrinsic op : LOWERED) {
      KernelIR k = TestKernels.math(op, Prim.INT, Prim.INT, 1);
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> PtxEmitter.emit(k, target("sm_90", false)), op.name());
      assertTrue(e.getMessage().contains(op + " is lowered by the compiler before emission"), e.getMessage());
    }
  }

  /** Every math function PTX has no exact instruction for is refused, naming it, so the front end inlines Java for it. */
  @Test
  void refusesMathWithoutAnExactInstruction() {
    for (Intrinsic op : EnumSet.complementOf(EnumSet.copyOf(union(union(PtxEmitter.nativeIntrinsics(false), LOWERED), CPU_ONLY)))) {
      int arity = op == Intrinsic.POW || op == Intrinsic.ATAN2 || op == Intrinsic.HYPOT ? 2 : 1;
      KernelIR k = TestKernels.math(op, Prim.DOUBLE, Prim.DOUBLE, arity);
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> dev.loopjit.testing.Emit.ptx(k, target("sm_90", false)), op.name());
      assertTrue(e.getMessage().contains("no exact PTX for " + op), e.getMessage());
    }
    assertThrows(IllegalStateException.class, () -> dev.loopjit.testing.Emit.ptx(TestKernels.math(Intrinsic.EXP, Prim.DOUBLE, Prim.DOUBLE, 1), target("sm_90", true)));
    assertThrows(IllegalStateException.class, () -> dev.loopjit.testing.Emit.ptx(TestKernels.math(Intrinsic.POW, Prim.FLOAT, Prim.FLOAT, 2), target("sm_90", true)));
    assertThrows(IllegalStateException.class, () -> dev.loopjit.testing.Emit.ptx(TestKernels.fastMath(), target("sm_70", true)), "tanh.approx needs sm_75");
    dev.loopjit.testing.Emit.ptx(TestKernels.math(Intrinsic.EXP, Prim.FLOAT, Prim.FLOAT, 1), target("sm_90", true));
  }

  @Test
  void refusesWhatLoweringShouldHaveRemoved() {
    Var a = global("a", Prim.INT), x = var("x", Prim.INT), p = new Var("p", new ArrayType(Prim.INT, ArrayType.Space.PRIVATE, 4));
    Label loop = new Label("loop"), sw = new Label("sw");
    List<KernelIR> bad = List.of(
        kernel("invoke", args(a), set(x, new Expr.Invoke("test/K", "f", "()I", Prim.INT, List.of()))),
        kernel("global_length", args(a), set(x, length(a))),
        kernel("alloc_value", args(a), set(x, new Expr.Load(new Expr.Alloc((ArrayType) p.type()), c(0)))),
        kernel("alloc_global", args(a), set(a, new Expr.Alloc(ArrayType.global(Prim.INT)))),
        kernel("continue_switch", args(a), Ir.sw(sw, c(1), on(block(cont(sw)), 1))),
        kernel("break_outside", args(a), brk(loop)),
        kernel("int_condition", args(a), when(load(a, c(0)), block(ret()))),
        kernel("mixed_types", args(a), set(x, bin(Binary.ADD, c(1), c(2L)))),
        kernel("return_value", args(a), new Stmt.Return(c(1), dev.loopjit.ir.Src.NONE)));
    for (KernelIR k : bad) assertThrows(IllegalStateException.class, () -> PtxEmitter.emit(k, target("sm_90", false)), k.name());
    assertThrows(IllegalArgumentException.class, () -> PtxEmitter.emit(TestKernels.guarded(), target("gfx90a", false)));
  }

  /** The smallest kernel, printed in full, to show what the emitter writes. */
  @Test
  void saxpyReadsAsExpected() {
    Var a = var("a", Prim.FLOAT), x = global("x", Prim.FLOAT), y = global("y", Prim.FLOAT), i = var("i", Prim.INT), n = var("n", Prim.INT);
    KernelIR k = kernel("saxpy", args(a, x, y, n),
        set(i, call(Intrinsic.GLOBAL_ID, Prim.INT, c(0))),
        when(cmp(Compare.LT, read(i), read(n)), block(
            store(y, read(i), bin(Binary.ADD, bin(Binary.MUL, read(a), load(x, read(i))), load(y, read(i)))))));
    String ptx = dev.loopjit.testing.Emit.ptx(k, target("sm_90", false));
    for (String line : List.of("\t.param .f32 p0, // a", "\tld.param.f32 %f0, [p0];", "\tmad.lo.s32 %r1, %r2, %r3, %r4;",
        "\tsetp.lt.s32 %p0, %r5, %r0;", "\tmul.wide.s32 %rd4, %r5, 4;", "\tld.global.f32 %f1, [%rd7];", "\tmul.rn.f32 %f2, %f0, %f1;",
        "\tst.global.f32 [%rd5], %f4;", "\tret;"))
      assertTrue(ptx.contains(line + "\n"), () -> "missing \"" + line + "\" in\n" + ptx);
    float[] xs = {1, 2, 3}, ys = {10, 20, 30};
    new PtxSimulator(ptx).run(new int[] {1, 1, 1}, new int[] {4, 1, 1}, 2f, xs, ys, 3);
    assertArrayEquals(new float[] {12, 24, 36}, ys);
  }
}
