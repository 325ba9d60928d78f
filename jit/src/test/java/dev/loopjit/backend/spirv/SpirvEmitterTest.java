// Unit tests of the SPIR-V emitter on hand-written IR: valid modules, capabilities only when needed, names, lines, strict and fast math, refusals.
package dev.loopjit.backend.spirv;

import static dev.loopjit.ir.IrBuilder.*;
import static dev.loopjit.ir.Prim.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.loopjit.api.KernelCompilationException;
import dev.loopjit.ir.Target;
import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.SampleKernels;
import dev.loopjit.ir.Src;
import dev.loopjit.ir.Stmt;
import dev.loopjit.ir.Var;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class SpirvEmitterTest {
  static final Target STRICT = Target.of("spirv").withVariant("1.2");
  static final Target FAST = Target.of("spirv").withVariant("1.2").withFastMath(true);
  static final Var I = var("i", INT), N = var("n", INT);

  static Target targetOf(KernelIR k) {
    return k.name().equals("mathFast") ? FAST : STRICT;
  }

  static String text(KernelIR k) {
    return SpirvDisassembler.disassemble(dev.loopjit.testing.Emit.spirv(k, targetOf(k)));
  }

  static Set<Integer> capabilities(KernelIR k) {
    return SpirvDisassembler.capabilities(SpirvEmitter.words(dev.loopjit.compiler.Compiler.legalise(k, targetOf(k)), targetOf(k)));
  }

  static void assertContains(String text, String... fragments) {
    for (String f : fragments) assertTrue(text.contains(f), () -> "missing `" + f + "` in:\n" + text);
  }

  @Test
  void everySampleIsAValidModuleAndTheSameBytesTwice() {
    for (Map.Entry<String, KernelIR> e : SampleKernels.all().entrySet()) {
      KernelIR k = e.getValue();
      byte[] a = dev.loopjit.testing.Emit.spirv(k, targetOf(k)), b = dev.loopjit.testing.Emit.spirv(k, targetOf(k));
      assertArrayEquals(a, b, e.getKey());
      assertContains(SpirvDisassembler.disassemble(a), "OpEntryPoint Kernel %" + e.getKey() + " \"" + e.getKey() + "\"");
      if (SpirvTools.validator() == null) continue;
      SpirvTools.Result r = SpirvTools.validate(a, SpirvTools.targetEnv(a));
      assertTrue(r.ok(), () -> e.getKey() + ": " + r.output() + "\n" + SpirvDisassembler.disassemble(a));
    }
  }

  @Test
  void theModuleIsAnOpenClKernelWithoutLinkage() {
    String t = text(SampleKernels.intOps());
    assertContains(t, "; Version: 1.2\n", "OpCapability Addresses\n", "OpCapability Kernel\n", "OpExtInstImport \"OpenCL.std\"",
        "OpMemoryModel Physical64 OpenCL", "OpExecutionMode %intOps ContractionOff");
    assertFalse(t.contains("Linkage"), t);
    assertTrue(SpirvEmitter.words(dev.loopjit.compiler.Compiler.legalise(SampleKernels.intOps(), STRICT), Target.of("spirv").withVariant("1.0").withLocalMemoryBytes(1).withMaxWorkGroupSize(1))[1] == 0x00010000);
    assertThrows(IllegalArgumentException.class, () -> dev.loopjit.testing.Emit.spirv(SampleKernels.intOps(), Target.of("spirv").withVariant("2.0").withLocalMemoryBytes(1).withMaxWorkGroupSize(1)));
  }

  @Test
  void capabilitiesOnlyWhenTheKernelNeedsThem() {
    Set<Integer> ints = capabilities(SampleKernels.intOps());
    assertEquals(Set.of(Spv.CAP_ADDRESSES, Spv.CAP_KERNEL, Spv.CAP_INT64), ints, "Int64 for the 64-bit work-item ids only");
    Var out = global("out", FLOAT);
    assertEquals(Set.of(Spv.CAP_ADDRESSES, Spv.CAP_KERNEL),
        capabilities(kernel("k", List.of(out), null, store(out, c(0), c(1f)))), "one work-item, floats: nothing more");
    assertTrue(capabilities(SampleKernels.minMax()).contains(Spv.CAP_FLOAT64));
    assertFalse(capabilities(SampleKernels.intOps()).contains(Spv.CAP_FLOAT64));
    assertTrue(capabilities(SampleKernels.narrowArrays()).containsAll(Set.of(Spv.CAP_INT8, Spv.CAP_INT16)));
    assertTrue(capabilities(SampleKernels.halfs()).contains(Spv.CAP_FLOAT16_BUFFER));
    assertFalse(capabilities(SampleKernels.halfs()).contains(Spv.CAP_INT8));
    assertTrue(capabilities(SampleKernels.atomics()).contains(Spv.CAP_INT64_ATOMICS));
    Var acc = global("acc", INT);
    assertFalse(capabilities(kernel("k", List.of(acc), null, eval(call(Intrinsic.ATOMIC_ADD, INT, read(acc), c(0), c(1)))))
        .contains(Spv.CAP_INT64_ATOMICS), "32-bit atomics need no capability");
  }

  @Test
  void namesAndLinesReadBackToTheJavaSource() {
    Var a = global("a", FLOAT), x = var("x", FLOAT);
    Src line12 = new Src("dev.loopjit.Samples$Inner", "k", 12, null), line13 = new Src("dev.loopjit.Samples$Inner", "k", 13, null);
    KernelIR k = kernel("named", List.of(a), null, new Stmt.Assign(x, load(a, c(0)), line12),
        new Stmt.Store(read(a), c(1), mul(read(x), read(x)), line13));
    String t = text(k);
    assertContains(t, "OpString \"dev/loopjit/Samples.java\"", "OpName %named \"named\"", "OpName %a \"a\"", "OpName %x \"x\"",
        "OpLine %", " 12 0\n", " 13 0\n");
    assertTrue(t.indexOf(" 12 0\n") < t.indexOf("OpFMul") && t.indexOf("OpFMul") > t.indexOf(" 13 0\n"), t);
  }

  @Test
  void strictMathKeepsJavaSpecialCasesAndFastMathDropsThem() {
    String strict = text(SampleKernels.math(false)), fast = text(SampleKernels.math(true));
    assertContains(strict, "OpExecutionMode %math ContractionOff", "sqrt", "OpIsNan", "OpIsInf");
    assertFalse(fast.contains("ContractionOff"), fast);
    assertContains(fast, "FPFastMathMode Fast");
    assertFalse(strict.contains("FPFastMathMode"), strict);
    String minMax = text(SampleKernels.minMax());
    assertFalse(minMax.contains(" fmin ") || minMax.contains(" fmax "), "Math.min is not fmin: NaN and -0.0 differ");
    assertContains(fast, " fmin ");
  }

  @Test
  void integerDivisionNeverDividesByZeroOrOverflows() {
    Var a = global("a", INT);
    String byVariable = text(kernel("k", List.of(a, N), null, store(a, c(0), div(load(a, c(1)), read(N)))));
    assertContains(byVariable, "OpSDiv", "OpSelect");
    String byConstant = text(kernel("k", List.of(a), null, store(a, c(0), div(load(a, c(1)), c(7)))));
    assertFalse(byConstant.contains("OpSelect"), "a constant divisor other than 0 and -1 needs no guard:\n" + byConstant);
  }

  @Test
  void workGroupArraysAreWorkgroupVariablesAndBarriersOrderWorkGroupMemory() {
    String t = text(SampleKernels.localReduce());
    assertContains(t, "OpTypePointer Workgroup", "Workgroup\n", "OpControlBarrier %uint_2 %uint_2 %uint_272");   // SequentiallyConsistent|WorkgroupMemory
    Var out = global("out", INT), l = new Var("l", new ArrayType(INT, ArrayType.Space.LOCAL, 4));
    String global = text(kernel("k", List.of(out), null, alloc(l), eval(call(Intrinsic.BARRIER_GLOBAL, null)), store(out, c(0), load(l, c(0)))));
    assertContains(global, "OpControlBarrier %uint_2 %uint_2 %uint_784");   // ... |CrossWorkgroupMemory
  }

  @Test
  void whatCannotBeWrittenIsRefusedAtItsJavaLine() {
    Var a = global("a", INT), x = var("x", LONG);
    Src at = new Src("dev.loopjit.Samples", "k", 42, null);
    KernelIR k = kernel("k", List.of(a), null, new Stmt.Assign(var("y", INT), read(x), at));
    KernelCompilationException e = assertThrows(KernelCompilationException.class, () -> dev.loopjit.testing.Emit.spirv(k, STRICT));
    assertEquals(42, e.line());
    assertEquals("dev.loopjit.Samples", e.className());
    assertEquals("k", e.methodName());
    assertEquals("SPIR-V", e.construct());
    assertTrue(e.getMessage().contains("Samples.k (Samples.java:42)"), e.getMessage());
  }

  @Test
  void theValidatorIsInstalledAndRejectsABrokenModule() {
    Assumptions.assumeTrue(SpirvTools.validator() != null,
        "spirv-val (Debian: spirv-tools) is not installed: kernels are emitted as SPIR-V and disassembled, but not validated");
    byte[] ok = dev.loopjit.testing.Emit.spirv(SampleKernels.intOps(), STRICT);
    assertTrue(SpirvTools.validate(ok, "opencl2.2").ok());
    int[] w = SpirvModule.words(ok);
    for (int at = 5; at < w.length; at += w[at] >>> 16)
      if ((w[at] & 0xFFFF) == SpirvOp.MemoryModel.code) w[at + 1] = 0;   // Logical addressing with pointer arithmetic
    SpirvTools.Result r = SpirvTools.validate(SpirvModule.bytes(w), "opencl2.2");
    assertFalse(r.ok(), "spirv-val should refuse it");
  }
}
