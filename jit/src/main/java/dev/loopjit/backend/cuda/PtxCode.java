// The body of one PTX entry being written: typed virtual registers, labels, state-space arrays and instruction lines.
package dev.loopjit.backend.cuda;

import dev.loopjit.ir.ArrayType;
import dev.loopjit.ir.Prim;
import dev.loopjit.ir.Type;
import java.util.ArrayList;
import java.util.List;

/**
 * Registers are virtual and never reused (ptxas allocates the real ones); each has one PTX type,
 * and every instruction written here names a type that matches its registers, because ptxas
 * accepts some mismatches silently (docs/ARCHITECTURE.md §6).
 */
final class PtxCode {
  /** A register class: the PTX register type and the instruction suffixes used with it. */
  enum Reg {
    PRED("%p", "pred", "pred", "pred"),
    HALF("%h", "b16", "b16", "b16"),
    INT("%r", "s32", "b32", "u32"),
    LONG("%rd", "s64", "b64", "u64"),
    FLOAT("%f", "f32", "b32", "f32"),
    DOUBLE("%fd", "f64", "b64", "f64");

    final String prefix;
    /** The declared register type, also the suffix of arithmetic and comparisons on it. */
    final String type;
    /** The untyped suffix of the same width, for bit operations and moves between classes. */
    final String bits;
    /** The unsigned integer suffix of the same width (or the type itself for floats). */
    final String unsigned;

    Reg(String prefix, String type, String bits, String unsigned) {
      this.prefix = prefix;
      this.type = type;
      this.bits = bits;
      this.unsigned = unsigned;
    }

    boolean isFloat() {
      return this == FLOAT || this == DOUBLE;
    }

    boolean isInteger() {
      return this == INT || this == LONG;
    }

    /** The class of a value of type {@code t}: BOOLEAN is a predicate, narrow integers live in 32 bits, arrays are 64-bit addresses. */
    static Reg of(Type t) {
      if (t instanceof ArrayType) return LONG;
      return switch ((Prim) t) {
        case BOOLEAN -> PRED;
        case BYTE, CHAR, SHORT, INT -> INT;
        case LONG -> LONG;
        case FLOAT, HALF -> FLOAT;
        case DOUBLE -> DOUBLE;
      };
    }
  }

  private final int[] counts = new int[Reg.values().length];
  private final StringBuilder lines = new StringBuilder();
  private final List<String> arrays = new ArrayList<>();
  private int labels;

  /** A fresh register of class {@code r}. */
  String reg(Reg r) {
    return r.prefix + counts[r.ordinal()]++;
  }

  /** A fresh label; {@code hint} only makes the text readable. */
  String label(String hint) {
    return "$L" + labels++ + "_" + hint.replaceAll("[^A-Za-z0-9_]", "_");
  }

  /** One instruction; the trailing semicolon is added here. */
  void op(String instruction) {
    lines.append('\t').append(instruction).append(";\n");
  }

  /** Places {@code label} at the current position. */
  void at(String label) {
    lines.append(label).append(":\n");
  }

  void comment(String text) {
    lines.append("\t// ").append(text.replace('\n', ' ')).append('\n');
  }

  /**
   * Declares an array of {@code bytes} bytes in {@code space} (".local" or ".shared") and returns its
   * name, whose address {@code mov.u64} gives in that state space.
   */
  String array(String space, String hint, long bytes) {
    String name = hint + arrays.size();
    arrays.add("\t" + space + " .align 8 .b8 " + name + "[" + padded(bytes) + "];\n");
    return name;
  }

  /** The size an array of {@code bytes} is declared with: a whole number of 8-byte words, at least one. */
  static long padded(long bytes) {
    return Math.max(8, (bytes + 7) / 8 * 8);
  }

  /** The register and array declarations, then the instructions. */
  String body() {
    StringBuilder b = new StringBuilder();
    for (Reg r : Reg.values())
      if (counts[r.ordinal()] > 0) b.append("\t.reg .").append(r.type).append(' ').append(r.prefix).append('<').append(counts[r.ordinal()]).append(">;\n");
    arrays.forEach(b::append);
    return b.append(lines).toString();
  }
}
