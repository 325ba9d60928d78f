// Unit tests of the SPIR-V binary encoder: words, strings, sections in order, types and constants made once, capabilities.
package dev.loopjit.backend.spirv;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpirvModuleTest {
  /** The opcodes of a module's instructions, in order. */
  static List<Integer> opcodes(int[] w) {
    List<Integer> ops = new ArrayList<>();
    for (int at = 5; at < w.length; at += w[at] >>> 16) ops.add(w[at] & 0xFFFF);
    return ops;
  }

  @Test
  void stringsAreNulTerminatedAndPaddedLittleEndian() {
    assertArrayEquals(new int[] {0}, SpirvModule.string(""));
    assertArrayEquals(new int[] {0x00636261}, SpirvModule.string("abc"));
    assertArrayEquals(new int[] {0x64636261, 0}, SpirvModule.string("abcd"));
    assertArrayEquals(new int[] {0x0000a9c3}, SpirvModule.string("é"));   // UTF-8 C3 A9
    assertThrows(IllegalArgumentException.class, () -> SpirvModule.string("a\0b"));
  }

  @Test
  void anInstructionIsItsWordCountAndOpcodeThenItsOperands() {
    SpirvModule.Words w = new SpirvModule.Words();
    SpirvModule.emit(w, SpirvOp.TypeInt, 7, 32, 0);
    SpirvModule.emit(w, SpirvOp.Name, 7, "ab");
    SpirvModule.emit(w, SpirvOp.Return);
    assertArrayEquals(new int[] {4 << 16 | 21, 7, 32, 0, 3 << 16 | 5, 7, 0x6261, 1 << 16 | 253}, w.toArray());
  }

  @Test
  void typesAndConstantsAreMadeOnceAndBringTheirCapabilities() {
    SpirvModule m = new SpirvModule();
    int i32 = m.intType(32);
    assertEquals(i32, m.intType(32));
    assertEquals(m.pointerType(Spv.SC_CROSS_WORKGROUP, i32), m.pointerType(Spv.SC_CROSS_WORKGROUP, i32));
    assertNotEquals(m.pointerType(Spv.SC_CROSS_WORKGROUP, i32), m.pointerType(Spv.SC_WORKGROUP, i32));
    assertEquals(m.constant(i32, 5), m.constant(i32, 5));
    assertNotEquals(m.constant(i32, 5), m.constant(m.intType(64), 5));
    assertEquals(m.constant(1.5f), m.constant(1.5f));
    assertNotEquals(m.constant(0f), m.constant(-0f), "signed zeros are different constants");
    assertNotEquals(m.nullConstant(i32), m.constant(i32, 0), "OpConstantNull and OpConstant 0 are different instructions");
    assertEquals(java.util.Set.of(Spv.CAP_ADDRESSES, Spv.CAP_KERNEL, Spv.CAP_INT64), SpirvDisassembler.capabilities(m.words(0x10200)));
    m.intType(8);
    m.intType(16);
    m.floatType(16);
    m.floatType(64);
    assertEquals(java.util.Set.of(Spv.CAP_ADDRESSES, Spv.CAP_KERNEL, Spv.CAP_INT64, Spv.CAP_INT8, Spv.CAP_INT16, Spv.CAP_FLOAT16_BUFFER,
        Spv.CAP_FLOAT64), SpirvDisassembler.capabilities(m.words(0x10200)));
    assertThrows(IllegalArgumentException.class, () -> m.intType(24));
  }

  @Test
  void constantsKeepTheirBitsAndWidth() {
    SpirvModule m = new SpirvModule();
    int i64 = m.intType(64), i8 = m.intType(8);
    m.constant(i64, 0x1234_5678_9abc_def0L);
    m.constant(i8, -1);
    m.constant(Double.longBitsToDouble(0x7ff8_0000_0000_0001L));
    int[] w = m.words(0x10200);
    String text = SpirvDisassembler.disassemble(w);
    assertTrue(text.contains("OpConstant %ulong 1311768467463790320"), text);   // 0x123456789abcdef0
    assertTrue(text.contains("OpConstant %uchar 255"), text);                     // -1 in 8 bits
    assertTrue(text.contains("OpConstant %double NaN(0x7ff8000000000001)"), text);
  }

  @Test
  void theHeaderAndTheSectionsComeInTheOrderTheSpecificationRequires() {
    SpirvModule m = new SpirvModule();
    int f = m.id();
    int i32 = m.intType(32);                      // a type before anything else is asked for
    m.decorate(i32, Spv.DEC_ALIGNMENT, 4);        // annotations after names, before types
    m.name(f, "k");
    int file = m.debugString("K.java");
    m.source(Spv.SOURCE_UNKNOWN, 0, file);
    m.executionMode(f, Spv.MODE_CONTRACTION_OFF);
    m.entryPoint(Spv.EXECUTION_KERNEL, f, "k");
    m.memoryModel(Spv.ADDRESSING_PHYSICAL64, Spv.MEMORY_OPENCL);
    m.importSet("OpenCL.std");
    SpirvModule.emit(m.functions(), SpirvOp.FunctionEnd);
    int[] w = m.words(0x00010200);
    assertEquals(Spv.MAGIC, w[0]);
    assertEquals(0x00010200, w[1]);
    assertEquals(0, w[2], "no registered generator");
    assertTrue(w[3] > file && w[3] > i32, "the bound is above every id");
    assertEquals(0, w[4]);
    assertEquals(List.of(17, 17, 11, 14, 15, 16, 7, 3, 5, 71, 21, 56), opcodes(w));
  }

  @Test
  void bytesAreLittleEndianWordsAndBothByteOrdersReadBack() {
    int[] w = new SpirvModule().words(0x00010000);
    byte[] b = SpirvModule.bytes(w);
    assertEquals(0x03, b[0]);
    assertEquals(0x07, b[3]);
    assertArrayEquals(w, SpirvModule.words(b));
    byte[] big = new byte[b.length];
    for (int i = 0; i < b.length; i += 4) for (int k = 0; k < 4; k++) big[i + k] = b[i + 3 - k];
    assertArrayEquals(w, SpirvModule.words(big));
    assertThrows(IllegalArgumentException.class, () -> SpirvModule.words(new byte[] {1, 2, 3}));
    assertThrows(IllegalArgumentException.class, () -> SpirvModule.words(new byte[20]));
  }
}
