// The SPIR-V binary encoder: ids, the module's sections in the order the specification requires, types and constants made once.
package dev.loopjit.backend.spirv;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A module being written. Instructions go into the section the logical layout (SPIR-V 1.2, 2.4)
 * puts them in; {@link #words} joins the sections after the header. Types and constants are
 * deduplicated (the specification forbids two identical non-aggregate types), and each type
 * adds the capability it needs ({@code Int8}, {@code Int16}, {@code Int64}, {@code Float64},
 * {@code Float16Buffer}), so a module declares exactly what it uses.
 *
 * <pre>{@code
 * SpirvModule m = new SpirvModule();
 * int i32 = m.intType(32);
 * int one = m.constant(i32, 1);
 * int[] words = m.words(0x00010200);
 * }</pre>
 */
final class SpirvModule {
  /** A growable list of words: one section, or a function's body. */
  static final class Words {
    private int[] a = new int[64];
    private int n;

    void add(int w) {
      if (n == a.length) a = java.util.Arrays.copyOf(a, n * 2);
      a[n++] = w;
    }

    void addAll(Words w) {
      for (int i = 0; i < w.n; i++) add(w.a[i]);
    }

    int size() {
      return n;
    }

    int[] toArray() {
      return java.util.Arrays.copyOf(a, n);
    }
  }

  private int bound = 1;
  private final TreeSet<Integer> capabilities = new TreeSet<>();
  private final Words extInstImports = new Words(), memoryModel = new Words(), entryPoints = new Words(),
      executionModes = new Words(), strings = new Words(), names = new Words(), annotations = new Words(),
      globals = new Words(), functions = new Words();
  private final Map<String, Integer> unique = new HashMap<>();
  private final Map<String, Integer> stringIds = new HashMap<>();
  private final Map<Integer, Integer> widths = new HashMap<>();

  SpirvModule() {
    capabilities.add(Spv.CAP_ADDRESSES);
    capabilities.add(Spv.CAP_KERNEL);
  }

  /** A fresh result id. */
  int id() {
    return bound++;
  }

  /** Declares {@code capability} (once). */
  void capability(int capability) {
    capabilities.add(capability);
  }

  // ---- encoding -----------------------------------------------------------------------------

  /**
   * Appends one instruction to {@code section}. Operands are words ({@code Integer}), word
   * arrays ({@code int[]}), or literal strings ({@code String}: UTF-8, NUL-terminated, padded to
   * a whole word, little-endian within each word).
   */
  static void emit(Words section, SpirvOp op, Object... operands) {
    Words body = new Words();
    for (Object o : operands) {
      switch (o) {
        case Integer w -> body.add(w);
        case int[] ws -> { for (int w : ws) body.add(w); }
        case String s -> { for (int w : string(s)) body.add(w); }
        default -> throw new IllegalArgumentException("operand " + o + " of " + op);
      }
    }
    int count = body.size() + 1;
    if (count > 0xFFFF) throw new IllegalArgumentException(op.spelling() + " has " + count + " words, more than an instruction may");
    section.add(count << 16 | op.code);
    section.addAll(body);
  }

  /** A literal string's words. */
  static int[] string(String s) {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    for (byte b : utf8) if (b == 0) throw new IllegalArgumentException("a SPIR-V string cannot hold NUL: " + s);
    int[] w = new int[utf8.length / 4 + 1];
    for (int i = 0; i < utf8.length; i++) w[i / 4] |= (utf8[i] & 0xFF) << (8 * (i % 4));
    return w;
  }

  // ---- the sections ---------------------------------------------------------------------------

  /** Imports an extended instruction set, e.g. {@code "OpenCL.std"}; returns its id. */
  int importSet(String name) {
    return unique.computeIfAbsent("import " + name, k -> {
      int id = id();
      emit(extInstImports, SpirvOp.ExtInstImport, id, name);
      return id;
    });
  }

  void memoryModel(int addressing, int memory) {
    emit(memoryModel, SpirvOp.MemoryModel, addressing, memory);
  }

  void entryPoint(int model, int function, String name, int... interfaceIds) {
    emit(entryPoints, SpirvOp.EntryPoint, model, function, name, interfaceIds);
  }

  void executionMode(int function, int mode, int... literals) {
    emit(executionModes, SpirvOp.ExecutionMode, function, mode, literals);
  }

  /** An OpString (made once per text); returns its id. */
  int debugString(String text) {
    return stringIds.computeIfAbsent(text, t -> {
      int id = id();
      emit(strings, SpirvOp.String, id, t);
      return id;
    });
  }

  /** OpSource naming the file the module came from. */
  void source(int language, int version, int file) {
    emit(strings, SpirvOp.Source, language, version, file);
  }

  void name(int id, String name) {
    emit(names, SpirvOp.Name, id, name);
  }

  void decorate(int id, int decoration, int... literals) {
    emit(annotations, SpirvOp.Decorate, id, decoration, literals);
  }

  /** The function definitions section, which the emitter writes whole functions into. */
  Words functions() {
    return functions;
  }

  // ---- types (each made once) -----------------------------------------------------------------

  private int type(SpirvOp op, int... operands) {
    String key = op.name() + java.util.Arrays.toString(operands);
    Integer found = unique.get(key);
    if (found != null) return found;
    int id = id();
    emit(globals, op, id, operands);
    unique.put(key, id);
    return id;
  }

  /** A constant (made once): OpConstant* {@code type} result {@code literals}. */
  private int constantOf(SpirvOp op, int type, int... literals) {
    String key = op.name() + " " + type + java.util.Arrays.toString(literals);
    Integer found = unique.get(key);
    if (found != null) return found;
    int id = id();
    emit(globals, op, type, id, literals);
    unique.put(key, id);
    return id;
  }

  int voidType() {
    return type(SpirvOp.TypeVoid);
  }

  int boolType() {
    return type(SpirvOp.TypeBool);
  }

  /** An integer type of {@code width} bits; OpenCL's are signless (signedness 0). */
  int intType(int width) {
    switch (width) {
      case 8 -> capability(Spv.CAP_INT8);
      case 16 -> capability(Spv.CAP_INT16);
      case 32 -> {}
      case 64 -> capability(Spv.CAP_INT64);
      default -> throw new IllegalArgumentException("no " + width + "-bit integers in OpenCL");
    }
    int id = type(SpirvOp.TypeInt, width, 0);
    widths.put(id, width);
    return id;
  }

  /** A float type; 16 bits is for pointers to half only (Float16Buffer: no half arithmetic). */
  int floatType(int width) {
    switch (width) {
      case 16 -> capability(Spv.CAP_FLOAT16_BUFFER);
      case 32 -> {}
      case 64 -> capability(Spv.CAP_FLOAT64);
      default -> throw new IllegalArgumentException("no " + width + "-bit floats");
    }
    int id = type(SpirvOp.TypeFloat, width);
    widths.put(id, width);
    return id;
  }

  int vectorType(int component, int count) {
    return type(SpirvOp.TypeVector, component, count);
  }

  int arrayType(int element, int length) {
    return type(SpirvOp.TypeArray, element, constant(intType(32), length));
  }

  int pointerType(int storageClass, int pointee) {
    return type(SpirvOp.TypePointer, storageClass, pointee);
  }

  int functionType(int result, int... params) {
    int[] ops = new int[params.length + 1];
    ops[0] = result;
    System.arraycopy(params, 0, ops, 1, params.length);
    return type(SpirvOp.TypeFunction, ops);
  }

  /** The width in bits of an integer or float type made here, or 0 for other types. */
  int widthOf(int type) {
    return widths.getOrDefault(type, 0);
  }

  // ---- constants (each made once) -------------------------------------------------------------

  /** An integer constant of {@code type} ({@link #intType}); the value is truncated to the type's width. */
  int constant(int type, long value) {
    int width = widthOf(type);
    if (width == 0) throw new IllegalArgumentException("%" + type + " is not an integer or float type made here");
    return width == 64 ? constantOf(SpirvOp.Constant, type, (int) value, (int) (value >>> 32))
        : constantOf(SpirvOp.Constant, type, width == 32 ? (int) value : (int) (value & ((1L << width) - 1)));
  }

  /** A float constant with exactly {@code value}'s bits (NaN payloads and signed zeros kept). */
  int constant(float value) {
    return constantOf(SpirvOp.Constant, floatType(32), Float.floatToRawIntBits(value));
  }

  /** A double constant with exactly {@code value}'s bits. */
  int constant(double value) {
    long bits = Double.doubleToRawLongBits(value);
    return constantOf(SpirvOp.Constant, floatType(64), (int) bits, (int) (bits >>> 32));
  }

  int constant(boolean value) {
    return constantOf(value ? SpirvOp.ConstantTrue : SpirvOp.ConstantFalse, boolType());
  }

  /** The zero (or null pointer) of {@code type}. */
  int nullConstant(int type) {
    return constantOf(SpirvOp.ConstantNull, type);
  }

  /** A module-scope variable (an input built-in, a work-group array). */
  int globalVariable(int pointerType, int storageClass) {
    int id = id();
    emit(globals, SpirvOp.Variable, pointerType, id, storageClass);
    return id;
  }

  // ---- the whole module -----------------------------------------------------------------------

  /** The module: the header (with {@code version}, e.g. {@code 0x00010200} for 1.2), then every section in order. */
  int[] words(int version) {
    Words out = new Words();
    out.add(Spv.MAGIC);
    out.add(version);
    out.add(0);            // generator: none registered
    out.add(bound);
    out.add(0);            // schema
    for (int c : new ArrayList<>(capabilities)) emit(out, SpirvOp.Capability, c);
    for (Words w : List.of(extInstImports, memoryModel, entryPoints, executionModes, strings, names, annotations, globals, functions))
      out.addAll(w);
    return out.toArray();
  }

  /** Words as the little-endian bytes of a {@code .spv} file. */
  static byte[] bytes(int[] words) {
    ByteBuffer b = ByteBuffer.allocate(words.length * 4).order(ByteOrder.LITTLE_ENDIAN);
    for (int w : words) b.putInt(w);
    return b.array();
  }

  /** The words of a {@code .spv} file (either byte order, as the magic number tells). */
  static int[] words(byte[] bytes) {
    if (bytes.length % 4 != 0 || bytes.length < 20) throw new IllegalArgumentException("not a SPIR-V module: " + bytes.length + " bytes");
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    if (b.getInt(0) != Spv.MAGIC) {
      b.order(ByteOrder.BIG_ENDIAN);
      if (b.getInt(0) != Spv.MAGIC) throw new IllegalArgumentException("not a SPIR-V module: no magic number");
    }
    int[] w = new int[bytes.length / 4];
    for (int i = 0; i < w.length; i++) w[i] = b.getInt(i * 4);
    return w;
  }
}
