// Our disassembler against spirv-dis on every sample kernel, and its own rules: names, enumerants, OpenCL.std, unknown opcodes.
package dev.loopjit.backend.spirv;

import static org.junit.jupiter.api.Assertions.*;

import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.SampleKernels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class SpirvDisassemblerTest {
  @Test
  void readsEverySampleAsSpirvDisDoes() {
    Assumptions.assumeTrue(SpirvTools.disassemblerTool() != null, "spirv-dis (Debian: spirv-tools) is not installed");
    for (Map.Entry<String, KernelIR> e : SampleKernels.all().entrySet()) {
      byte[] spv = dev.loopjit.testing.Emit.spirv(e.getValue(), SpirvEmitterTest.targetOf(e.getValue()));
      SpirvTools.Result theirs = SpirvTools.run(spv, SpirvTools.disassemblerTool().toString(), "--raw-id", "--no-color", "-");
      assertTrue(theirs.ok(), theirs.output());
      List<String> a = lines(SpirvDisassembler.disassemble(SpirvModule.words(spv), true)), b = lines(theirs.output());
      assertEquals(b.size(), a.size(), e.getKey());
      for (int i = 0; i < a.size(); i++) assertTrue(same(a.get(i), b.get(i)), e.getKey() + ": ours `" + a.get(i) + "`, spirv-dis `" + b.get(i) + "`");
    }
  }

  private static List<String> lines(String text) {
    return new ArrayList<>(List.of(text.split("\n")));
  }

  /** Equal lines, or lines that differ only in how a float literal is written (1.7 and 1.70000005 are one float). */
  private static boolean same(String ours, String theirs) {
    if (ours.equals(theirs)) return true;
    String[] a = ours.trim().split(" +"), b = theirs.trim().split(" +");
    if (a.length != b.length) return false;
    for (int i = 0; i < a.length; i++) {
      if (a[i].equals(b[i])) continue;
      // spirv-dis writes NaNs and infinities as hex floats (0x1.8p+128); ours says NaN(bits) and Infinity.
      if (a[i].startsWith("NaN(") || a[i].contains("Infinity")) continue;
      try {
        double x = Double.parseDouble(a[i]), y = Double.parseDouble(b[i]);
        if (x == y || (float) x == (float) y) continue;
      } catch (NumberFormatException notNumbers) {
        // fall through
      }
      return false;
    }
    return true;
  }

  @Test
  void namesIdsAfterOpNameTypesAndConstants() {
    String t = SpirvDisassembler.disassemble(dev.loopjit.testing.Emit.spirv(SampleKernels.flags(), SpirvEmitterTest.STRICT));
    for (String s : List.of("%uint = OpTypeInt 32 0", "%bool = OpTypeBool", "%uchar = OpTypeInt 8 0", "%uint_1 = OpConstant %uint 1",
        "%_ptr_CrossWorkgroup_uchar = OpTypePointer CrossWorkgroup %uchar", "%float4 = OpVariable %_ptr_Function_uint Function",
        "%flags = OpFunction %void None", "OpEntryPoint Kernel %flags \"flags\"", "OpDecorate %global_id BuiltIn GlobalInvocationId",
        "OpLogicalNot %bool"))
      assertTrue(t.contains(s), () -> "missing `" + s + "` in:\n" + t);
    String m = SpirvDisassembler.disassemble(dev.loopjit.testing.Emit.spirv(SampleKernels.math(false), SpirvEmitterTest.STRICT));
    assertTrue(m.contains(" sqrt %") && m.contains(" pow %") && m.contains(" fma %"), m);
  }

  @Test
  void unknownInstructionsPrintTheirOpcodeAndWords() {
    SpirvModule m = new SpirvModule();
    int[] w = m.words(0x10200);
    int[] more = java.util.Arrays.copyOf(w, w.length + 3);
    more[w.length] = 3 << 16 | 4999;
    more[w.length + 1] = 0xdead;
    more[w.length + 2] = 7;
    String t = SpirvDisassembler.disassemble(more);
    assertTrue(t.endsWith("Op4999 0xdead 0x7\n"), t);
    more[w.length] = 9 << 16 | 4999;   // longer than the module
    assertThrows(IllegalArgumentException.class, () -> SpirvDisassembler.disassemble(more));
    assertThrows(IllegalArgumentException.class, () -> SpirvDisassembler.disassemble(new int[] {1, 2, 3, 4, 5}));
  }
}
