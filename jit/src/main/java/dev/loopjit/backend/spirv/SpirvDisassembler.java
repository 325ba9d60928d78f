// LoopJIT's own SPIR-V disassembler: a module's words as text in spirv-dis's style, ids named, so a dump needs no tools.
package dev.loopjit.backend.spirv;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Prints a module one instruction per line, as {@code spirv-dis} does: {@code %name = OpX operands},
 * ids named after their OpName (made unique), types and constants after what they are
 * ({@code %uint}, {@code %_ptr_CrossWorkgroup_float}, {@code %uint_4}), enumerants by name,
 * OpenCL.std instructions by name. Instructions LoopJIT does not write are printed with their
 * opcode and raw operand words, so no two modules print the same.
 *
 * <pre>{@code
 * System.out.print(SpirvDisassembler.disassemble(SpirvEmitter.emit(kernel, target)));
 * }</pre>
 */
public final class SpirvDisassembler {
  private final int[] w;
  private final Map<Integer, String> names = new HashMap<>();
  private final Map<Integer, Integer> widths = new HashMap<>();      // int/float type id -> bits
  private final Set<Integer> floats = new HashSet<>();
  private final Map<Integer, String> sets = new HashMap<>();          // ext inst import id -> name
  private final StringBuilder out = new StringBuilder();
  private final boolean rawIds;

  private SpirvDisassembler(int[] words, boolean rawIds) {
    this.w = words;
    this.rawIds = rawIds;
  }

  /** The text of a {@code .spv} file's bytes. */
  public static String disassemble(byte[] spv) {
    return disassemble(SpirvModule.words(spv));
  }

  /** The text of a module's words. */
  public static String disassemble(int[] words) {
    return disassemble(words, false);
  }

  /** The text with every id as its number ({@code %12}), as {@code spirv-dis --raw-id} prints it. */
  static String disassemble(int[] words, boolean rawIds) {
    if (words.length < 5 || words[0] != Spv.MAGIC) throw new IllegalArgumentException("not a SPIR-V module: no magic number");
    SpirvDisassembler d = new SpirvDisassembler(words, rawIds);
    d.nameIds();
    return d.print();
  }

  /** The capabilities a module declares. */
  static Set<Integer> capabilities(int[] words) {
    Set<Integer> caps = new TreeSet<>();
    for (int at = 5; at < words.length; at += Math.max(1, words[at] >>> 16))
      if ((words[at] & 0xFFFF) == SpirvOp.Capability.code) caps.add(words[at + 1]);
    return caps;
  }

  // ---- naming -------------------------------------------------------------------------------

  private void nameIds() {
    Map<Integer, String> given = new HashMap<>();
    List<int[]> typesAndConstants = new ArrayList<>();
    for (int at = 5; at < w.length; at += length(at)) {
      SpirvOp op = SpirvOp.of(w[at] & 0xFFFF);
      if (op == null) continue;
      switch (op) {
        case Name -> given.putIfAbsent(w[at + 1], identifier(string(at + 2)));
        case ExtInstImport -> sets.put(w[at + 1], string(at + 2));
        case TypeInt, TypeFloat -> {
          widths.put(w[at + 1], w[at + 2]);
          if (op == SpirvOp.TypeFloat) floats.add(w[at + 1]);
          typesAndConstants.add(new int[] {at});
        }
        default -> {
          if (op.name().startsWith("Type") || op.name().startsWith("Constant")) typesAndConstants.add(new int[] {at});
        }
      }
    }
    Set<String> taken = new HashSet<>();
    // Types and constants first, in module order, so that composite names can use their parts'.
    for (int[] t : typesAndConstants) {
      int at = t[0];
      SpirvOp op = SpirvOp.of(w[at] & 0xFFFF);
      int id = op.name().startsWith("Type") ? w[at + 1] : w[at + 2];
      String n = given.containsKey(id) ? given.get(id) : structural(op, at);
      if (n != null) names.put(id, unique(n, taken));
    }
    for (Map.Entry<Integer, String> e : new java.util.TreeMap<>(given).entrySet())
      if (!names.containsKey(e.getKey())) names.put(e.getKey(), unique(e.getValue(), taken));
  }

  private static String unique(String name, Set<String> taken) {
    String n = name;
    for (int i = 0; !taken.add(n); i++) n = name + "_" + i;
    return n;
  }

  /** What spirv-dis would call a type or constant that has no OpName. */
  private String structural(SpirvOp op, int at) {
    return switch (op) {
      case TypeVoid -> "void";
      case TypeBool -> "bool";
      case TypeInt -> switch (w[at + 2]) {
        case 8 -> "uchar";
        case 16 -> "ushort";
        case 32 -> "uint";
        case 64 -> "ulong";
        default -> "int" + w[at + 2];
      };
      case TypeFloat -> switch (w[at + 2]) {
        case 16 -> "half";
        case 32 -> "float";
        case 64 -> "double";
        default -> "float" + w[at + 2];
      };
      case TypeVector -> "v" + w[at + 3] + ref(w[at + 2]);
      case TypeArray -> "_arr_" + ref(w[at + 2]) + "_" + ref(w[at + 3]);
      case TypePointer -> "_ptr_" + Spv.name(Spv.STORAGE_CLASS, w[at + 2]) + "_" + ref(w[at + 3]);
      case ConstantTrue -> "true";
      case ConstantFalse -> "false";
      case ConstantNull -> "null_" + ref(w[at + 1]);
      case Constant -> ref(w[at + 1]) + "_" + identifier(constant(w[at + 1], at + 3).replace('-', 'n').replace('.', '_'));
      default -> null;
    };
  }

  /** A name without the %: the id's name or its number. */
  private String ref(int id) {
    String n = rawIds ? null : names.get(id);
    return n != null ? n : Integer.toString(id);
  }

  private static String identifier(String s) {
    StringBuilder b = new StringBuilder();
    for (char c : s.toCharArray()) b.append(Character.isLetterOrDigit(c) && c < 128 || c == '_' ? c : '_');
    return b.isEmpty() ? "_" : b.toString();
  }

  // ---- printing -----------------------------------------------------------------------------

  private String print() {
    int version = w[1];
    out.append("; SPIR-V\n; Version: ").append(version >> 16 & 0xFF).append('.').append(version >> 8 & 0xFF).append('\n');
    int vendor = w[2] >>> 16;
    out.append("; Generator: ").append(vendor == 0 ? "Khronos" : "Unknown(" + vendor + ")").append("; ").append(w[2] & 0xFFFF).append('\n');
    out.append("; Bound: ").append(w[3]).append("\n; Schema: ").append(w[4]).append('\n');
    for (int at = 5; at < w.length; at += length(at)) instruction(at);
    return out.toString();
  }

  private int length(int at) {
    int n = w[at] >>> 16;
    if (n == 0 || at + n > w.length) throw new IllegalArgumentException("malformed SPIR-V: instruction at word " + at + " has length " + n);
    return n;
  }

  private void instruction(int at) {
    int n = length(at), code = w[at] & 0xFFFF;
    SpirvOp op = SpirvOp.of(code);
    StringBuilder line = new StringBuilder();
    if (op == null) {
      line.append("Op").append(code);
      for (int i = 1; i < n; i++) line.append(" 0x").append(Integer.toHexString(w[at + i]));
      emit(null, line);
      return;
    }
    String[] tokens = op.layout.isEmpty() ? new String[0] : op.layout.split(" ");
    int i = at + 1, end = at + n;
    String result = null;
    line.append(op.spelling());
    int resultType = 0;
    for (String token : tokens) {
      boolean many = token.endsWith("*"), optional = token.endsWith("?");
      String t = many || optional ? token.substring(0, token.length() - 1) : token;
      if ((many || optional) && i >= end) break;
      do {
        switch (t) {
          case "R" -> result = "%" + ref(w[i++]);
          case "T" -> {
            resultType = w[i];
            line.append(" %").append(ref(w[i++]));
          }
          case "id" -> line.append(" %").append(ref(w[i++]));
          case "n" -> line.append(' ').append(Integer.toUnsignedString(w[i++]));
          case "str" -> {
            String s = string(i);
            line.append(" \"").append(s.replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
            i += SpirvModule.string(s).length;
          }
          case "val" -> {
            line.append(' ').append(constant(resultType, i));
            i += widths.getOrDefault(resultType, 32) > 32 ? 2 : 1;
          }
          case "ext" -> {
            int set = w[i++], number = w[i++];
            line.append(" %").append(ref(set)).append(' ');
            line.append("OpenCL.std".equals(sets.get(set)) ? Spv.name(Spv.OPENCL_STD, number) : Integer.toString(number));
          }
          case "pairs" -> {
            while (i + 1 < end) {
              line.append(op == SpirvOp.Switch ? " " + Integer.toUnsignedString(w[i]) : " %" + ref(w[i]));
              line.append(" %").append(ref(w[i + 1]));
              i += 2;
            }
          }
          case "CAP" -> line.append(' ').append(Spv.name(Spv.CAPABILITY, w[i++]));
          case "SRC" -> line.append(' ').append(Spv.name(Spv.SOURCE_LANGUAGE, w[i++]));
          case "EXM" -> line.append(' ').append(Spv.name(Spv.EXECUTION_MODEL, w[i++]));
          case "ADDR" -> line.append(' ').append(Spv.name(Spv.ADDRESSING, w[i++]));
          case "MEM" -> line.append(' ').append(Spv.name(Spv.MEMORY_MODEL, w[i++]));
          case "MODE" -> line.append(' ').append(Spv.name(Spv.EXECUTION_MODE, w[i++]));
          case "SC" -> line.append(' ').append(Spv.name(Spv.STORAGE_CLASS, w[i++]));
          case "FC" -> line.append(' ').append(Spv.mask(Spv.FUNCTION_CONTROL, w[i++]));
          case "MA" -> {
            int mask = w[i++];
            line.append(' ').append(Spv.mask(Spv.MEMORY_ACCESS, mask));
            if ((mask & Spv.ACCESS_ALIGNED) != 0 && i < end) line.append(' ').append(Integer.toUnsignedString(w[i++]));
          }
          case "DEC" -> {
            int dec = w[i++];
            line.append(' ').append(Spv.name(Spv.DECORATION, dec));
            if (dec == Spv.DEC_BUILTIN && i < end) line.append(' ').append(Spv.name(Spv.BUILTIN, w[i++]));
            else if (dec == Spv.DEC_FP_FAST_MATH_MODE && i < end) line.append(' ').append(Spv.mask(Spv.FAST_MATH, w[i++]));
          }
          default -> throw new IllegalStateException("layout token " + t + " of " + op);
        }
      } while (many && i < end);
    }
    for (; i < end; i++) line.append(" 0x").append(Integer.toHexString(w[i]));   // more than the layout says
    emit(result, line);
  }

  private void emit(String result, StringBuilder line) {
    if (result != null) out.append(String.format(Locale.ROOT, "%12s = ", result));
    else out.append(" ".repeat(15));
    out.append(line).append('\n');
  }

  /** A constant literal of {@code type} at word {@code at}: an unsigned integer, or a float's value (bits for NaN). */
  private String constant(int type, int at) {
    int width = widths.getOrDefault(type, 32);
    long bits = width > 32 ? Integer.toUnsignedLong(w[at]) | (long) w[at + 1] << 32 : Integer.toUnsignedLong(w[at]);
    if (!floats.contains(type)) return width > 32 ? Long.toUnsignedString(bits) : Long.toString(bits);
    if (width == 64) {
      double d = Double.longBitsToDouble(bits);
      return Double.isNaN(d) ? String.format(Locale.ROOT, "NaN(0x%016x)", bits) : Double.toString(d);
    }
    float f = Float.intBitsToFloat((int) bits);
    return Float.isNaN(f) ? String.format(Locale.ROOT, "NaN(0x%08x)", bits) : Float.toString(f);
  }

  private String string(int at) {
    byte[] b = new byte[(w.length - at) * 4];
    int n = 0;
    for (int i = at; i < w.length; i++) {
      for (int k = 0; k < 4; k++) {
        byte c = (byte) (w[i] >>> (8 * k));
        if (c == 0) return new String(b, 0, n, java.nio.charset.StandardCharsets.UTF_8);
        b[n++] = c;
      }
    }
    return new String(b, 0, n, java.nio.charset.StandardCharsets.UTF_8);
  }
}
