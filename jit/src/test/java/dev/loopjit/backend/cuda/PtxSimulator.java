// Runs the PTX subset LoopJIT writes (and the handwritten test kernels) on the CPU, so kernels can be compared with Java without a GPU.
package dev.loopjit.backend.cuda;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A reference interpreter, not a GPU model: a module of one {@code .entry}, decoded once (every
 * register must be declared, every label and parameter must exist: {@link Invalid} otherwise, as
 * the driver's JIT would refuse it); threads of a block run one at a time until a barrier or their
 * end; memory is little-endian, as on NVIDIA GPUs, and any access outside what was allocated fails,
 * as does any race a GPU's timing could decide ({@link SharedMemory}, {@link GlobalMemory}).
 * Where PTX leaves a result unspecified (integer division by zero, MIN / -1) it yields
 * {@link #POISON}, so that emitted guards are tested rather than assumed; a register read before any
 * write of the thread fails the launch, as memory outside an allocation does; where
 * the PTX ISA specifies an odd result (shift clamping, the NaN of a float-to-integer cvt) it gives
 * that result. Semantics of single instructions are in {@link PtxInstructionSet}.
 */
final class PtxSimulator {
  /** What an unspecified result reads as. */
  static final long POISON = 0x5A5A5A5A5A5A5A5AL;
  static final long LOCAL_BASE = 0x1000, SHARED_BASE = 0x2000_0000L, GLOBAL_BASE = 0x10_0000_0000L;

  /** PTX the simulator (like a driver's JIT) refuses, with the line of the kernel at fault. */
  static final class Invalid extends RuntimeException {
    Invalid(String message) {
      super(message);
    }
  }

  /** A decoded operand. */
  sealed interface Operand permits Reg, Imm, Special, Address, Param, Label, Pair {}

  /** A vector operand {@code {lo, hi}} of two 32-bit registers, as {@code mov.b64} packs and unpacks a 64-bit value. */
  record Pair(Reg lo, Reg hi) implements Operand {}

  record Reg(int index, int width, String name) implements Operand {}

  record Imm(long bits) implements Operand {}

  /** %tid, %ntid, %ctaid or %nctaid (kind 0..3) in dimension 0..2. */
  record Special(int kind, int dim) implements Operand {}

  record Address(Operand base, long offset) implements Operand {}

  record Param(int index) implements Operand {}

  record Label(int pc) implements Operand {}

  /** One instruction: guard predicate (or null), opcode parts ("add", "rn", "f32"), operands. */
  record Insn(Reg guard, boolean negated, String[] op, Operand[] args, String text) {}

  /** Memory of one state space. */
  interface Memory {
    long read(long address, int size);

    void write(long address, int size, long value);
  }

  final String entry;
  final List<Insn> code = new ArrayList<>();
  final List<String> paramNames = new ArrayList<>(), paramTypes = new ArrayList<>();
  private final Map<String, Integer> labels = new HashMap<>();
  private final Map<String, long[]> registerSets = new HashMap<>();   // prefix -> {first index, count, width}
  private final Map<String, Long> symbols = new HashMap<>();          // .local / .shared array -> address
  private final List<Integer> widths = new ArrayList<>();
  private int localBytes, sharedBytes;
  /** The launch's dynamic shared memory ({@code .extern .shared … name[]}): its name and alignment, or null. */
  private String dynamicShared;
  private int dynamicAlign = 1;
  /** Module-scope {@code .global} byte arrays with initialisers (printf formats): address -> bytes. */
  final Map<Long, byte[]> constants = new HashMap<>();
  static final long CONSTANT_BASE = 0x8_0000_0000L;
  private long[] initialRegisters;

  private static final Pattern ENTRY = Pattern.compile("\\.entry\\s+([$\\w]+)\\s*\\(([^)]*)\\)\\s*\\{");
  private static final Pattern REG = Pattern.compile("^\\.reg\\s+\\.(\\w+)\\s+%([$\\w]+?)(?:<(\\d+)>)?$");
  private static final Pattern ARRAY = Pattern.compile("^\\.(local|shared)\\s+(?:\\.align\\s+(\\d+)\\s+)?\\.[a-z](\\d+)\\s+([$\\w]+)\\[(\\d+)\\]$");
  private static final Pattern DYNAMIC_SHARED = Pattern.compile("\\.extern\\s+\\.shared\\s+(?:\\.align\\s+(\\d+)\\s+)?\\.b8\\s+([$\\w]+)\\s*\\[\\s*\\]\\s*;");
  private static final Pattern CONSTANT = Pattern.compile("\\.global\\s+(?:\\.align\\s+\\d+\\s+)?\\.b8\\s+([$\\w]+)\\s*\\[(\\d+)\\]\\s*=\\s*\\{([^}]*)\\}\\s*;");
  private static final Pattern EXTERN_FUNC = Pattern.compile("\\.extern\\s+\\.func\\s*\\([^)]*\\)\\s*([$\\w]+)");
  private static final Pattern CALL_PARAM = Pattern.compile("^\\.param\\s+\\.b(\\d+)\\s+([$\\w]+)$");
  private static final Pattern LABEL = Pattern.compile("^([$\\w]+):\\s*");
  private static final Pattern NUMBERED = Pattern.compile("^%(.*?)(\\d+)$");

  PtxSimulator(String ptx) {
    this(ptx, false);
  }

  /**
   * Decodes {@code ptx}; with {@code strictFloats}, float add, sub, mul, fma and sqrt must name
   * their rounding (.rn…): without one ptxas may fuse a mul and an add into an fma, which Java never
   * does, and which this simulator (computing each rounding) would not show.
   */
  PtxSimulator(String ptx, boolean strictFloats) {
    String text = ptx.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\\n]*", "");
    Matcher m = ENTRY.matcher(text);
    if (!m.find()) throw new Invalid("no .entry in the module");
    entry = m.group(1);
    for (String p : m.group(2).split(",")) {
      String[] words = p.trim().split("\\s+");
      if (words.length < 3 || !words[0].equals(".param")) {
        if (!p.isBlank()) throw new Invalid("parameter '" + p.trim() + "' of " + entry);
        continue;
      }
      paramTypes.add(words[1].substring(1));
      paramNames.add(words[words.length - 1]);
    }
    String module = text.substring(0, m.start());
    Matcher d = DYNAMIC_SHARED.matcher(module);
    if (d.find()) {
      dynamicShared = d.group(2);
      dynamicAlign = d.group(1) == null ? 1 : Integer.parseInt(d.group(1));
    }
    Matcher c = CONSTANT.matcher(module);
    while (c.find()) {
      String[] values = c.group(3).split(",");
      byte[] bytes = new byte[Integer.parseInt(c.group(2))];
      if (values.length != bytes.length) throw new Invalid(".global " + c.group(1) + " has " + values.length + " initialisers for " + bytes.length + " bytes");
      for (int i = 0; i < bytes.length; i++) bytes[i] = (byte) Integer.parseInt(values[i].strip());
      long address = CONSTANT_BASE + 0x1_0000L * constants.size();
      constants.put(address, bytes);
      symbols.put(c.group(1), address);
    }
    Matcher f = EXTERN_FUNC.matcher(module);
    while (f.find()) if (!f.group(1).equals("vprintf")) throw new Invalid("the simulator knows no function " + f.group(1));
    int end = closingBrace(text, m.end());
    if (ENTRY.matcher(text).region(end, text.length()).find()) throw new Invalid("the simulator runs modules of one .entry");
    List<String[]> raw = new ArrayList<>();   // {guard text, instruction text}
    // Vector operands {%r1, %r2} become <%r1|%r2> before scope braces are dropped.
    String body = text.substring(m.end(), end).replaceAll("\\{\\s*(%[$\\w]+)\\s*,\\s*(%[$\\w]+)\\s*\\}", "<$1|$2>");
    for (String statement : body.split(";")) {
      String s = statement.replace('{', ' ').replace('}', ' ').strip();
      Matcher l;
      while ((l = LABEL.matcher(s)).find()) {
        labels.put(l.group(1), raw.size());
        s = s.substring(l.end());
      }
      if (s.isEmpty()) continue;
      s = s.replaceAll("\\s+", " ");
      if (s.startsWith(".")) {
        declare(s);
        continue;
      }
      raw.add(new String[] {s});
    }
    if (dynamicShared != null) {
      sharedBytes = (sharedBytes + dynamicAlign - 1) / dynamicAlign * dynamicAlign;
      symbols.put(dynamicShared, SHARED_BASE + sharedBytes);   // after the static arrays, sized at launch
    }
    initialRegisters = new long[widths.size()];
    for (int i = 0; i < widths.size(); i++) initialRegisters[i] = PtxInstructionSet.zext(POISON, widths.get(i));
    for (String[] r : raw) code.add(decode(r[0]));
    if (strictFloats) for (Insn in : code) requireRounding(in);
  }

  private static void requireRounding(Insn in) {
    String[] op = in.op();
    if (!List.of("add", "sub", "mul", "fma", "mad", "sqrt").contains(op[0]) || !op[op.length - 1].startsWith("f")) return;
    for (String part : op) if (List.of("rn", "rz", "rm", "rp", "approx").contains(part)) return;
    throw new Invalid("'" + in.text() + "' names no rounding: ptxas may contract it into an fma, which Java semantics forbid");
  }

  private static int closingBrace(String text, int from) {
    int depth = 1;
    for (int i = from; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '{') depth++;
      else if (c == '}' && --depth == 0) return i;
    }
    throw new Invalid("the body of the entry is not closed");
  }

  private void declare(String s) {
    Matcher m;
    if ((m = REG.matcher(s)).find()) {
      int width = m.group(1).equals("pred") ? 1 : Integer.parseInt(m.group(1).substring(1));
      int count = m.group(3) == null ? 1 : Integer.parseInt(m.group(3));
      registerSets.put(m.group(3) == null ? "=" + m.group(2) : m.group(2), new long[] {widths.size(), count, width});
      for (int i = 0; i < count; i++) widths.add(width);
    } else if ((m = ARRAY.matcher(s)).find()) {
      int align = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
      int size = Integer.parseInt(m.group(3)) / 8 * Integer.parseInt(m.group(5));   // .b32 tile[64] is 256 bytes
      if (m.group(1).equals("local")) {
        localBytes = (localBytes + align - 1) / align * align;
        symbols.put(m.group(4), LOCAL_BASE + localBytes);
        localBytes += size;
      } else {
        sharedBytes = (sharedBytes + align - 1) / align * align;
        symbols.put(m.group(4), SHARED_BASE + sharedBytes);
        sharedBytes += size;
      }
    } else if ((m = CALL_PARAM.matcher(s)).find()) {
      int size = Integer.parseInt(m.group(1)) / 8;
      localBytes = (localBytes + 7) / 8 * 8;
      symbols.put(m.group(2), LOCAL_BASE + localBytes);
      localBytes += Math.max(8, size);
    } else if (!s.startsWith(".pragma") && !s.startsWith(".loc") && !s.startsWith(".maxntid") && !s.startsWith(".reqntid")) {
      throw new Invalid("the simulator does not know the directive '" + s + "'");
    }
  }

  private Insn decode(String text) {
    String rest = text;
    Reg guard = null;
    boolean negated = false;
    if (rest.startsWith("@")) {
      int sp = rest.indexOf(' ');
      String g = rest.substring(1, sp);
      negated = g.startsWith("!");
      guard = register(negated ? g.substring(1) : g, text);
      rest = rest.substring(sp + 1);
    }
    int sp = rest.indexOf(' ');
    String opcode = sp < 0 ? rest : rest.substring(0, sp);
    String[] words = sp < 0 ? new String[0] : rest.substring(sp + 1).split(",\\s*");
    String[] op = opcode.split("\\.");
    if (op[0].equals("call")) return call(guard, negated, op, rest.substring(sp + 1), text);
    Operand[] args = new Operand[words.length];
    for (int i = 0; i < words.length; i++) args[i] = operand(words[i].strip(), op, text);
    return new Insn(guard, negated, op, args, text);
  }

  /** {@code call.uni (result), vprintf, (format, args)}: the operands are the three .param slots' addresses. */
  private Insn call(Reg guard, boolean negated, String[] op, String rest, String text) {
    Matcher m = Pattern.compile("^\\(\\s*([$\\w]+)\\s*\\)\\s*,\\s*([$\\w]+)\\s*,\\s*\\(\\s*([$\\w]+)\\s*,\\s*([$\\w]+)\\s*\\)$").matcher(rest.strip());
    if (!m.find() || !m.group(2).equals("vprintf")) throw new Invalid("the simulator calls only vprintf(format, args): '" + text + "'");
    Operand[] args = new Operand[3];
    for (int i = 0; i < 3; i++) {
      Long address = symbols.get(m.group(i == 0 ? 1 : i + 2));
      if (address == null) throw new Invalid("undeclared .param " + m.group(i == 0 ? 1 : i + 2) + " in '" + text + "'");
      args[i] = new Imm(address);
    }
    return new Insn(guard, negated, op, args, text);
  }

  /** The bytes of the module's constant at {@code address} (a printf format) up to its NUL. */
  String constantString(long address) {
    byte[] b = constants.get(address);
    if (b == null) throw new AssertionError(String.format("vprintf's format at 0x%X is not a module constant", address));
    int n = 0;
    while (n < b.length && b[n] != 0) n++;
    if (n == b.length) throw new AssertionError("vprintf's format is not NUL-terminated");
    return new String(b, 0, n, java.nio.charset.StandardCharsets.UTF_8);
  }

  private Operand operand(String s, String[] op, String text) {
    if (op[0].equals("bra")) {
      Integer pc = labels.get(s);
      if (pc == null) throw new Invalid("no label " + s + " for '" + text + "'");
      return new Label(pc);
    }
    if (s.startsWith("[")) {
      String in = s.substring(1, s.length() - 1).strip();
      if (op[0].equals("ld") && op[1].equals("param")) {
        int i = paramNames.indexOf(in);
        if (i < 0) throw new Invalid("no parameter " + in + " in '" + text + "'");
        return new Param(i);
      }
      int plus = in.indexOf('+');
      Operand base = operand(plus < 0 ? in : in.substring(0, plus).strip(), op, text);
      return new Address(base, plus < 0 ? 0 : Long.parseLong(in.substring(plus + 1).strip()));
    }
    if (s.startsWith("<") && s.endsWith(">") && s.contains("|")) {
      String[] halves = s.substring(1, s.length() - 1).split("\\|");
      Reg lo = register(halves[0], text), hi = register(halves[1], text);
      if (lo.width() != 32 || hi.width() != 32 || !op[0].equals("mov") || !op[op.length - 1].equals("b64"))
        throw new Invalid("the simulator packs only two 32-bit registers with mov.b64: '" + text + "'");
      return new Pair(lo, hi);
    }
    if (s.startsWith("%")) {
      int dot = s.indexOf('.');
      if (dot < 0) return register(s, text);
      int kind = List.of("%tid", "%ntid", "%ctaid", "%nctaid").indexOf(s.substring(0, dot)), dim = "xyz".indexOf(s.substring(dot + 1));
      if (kind < 0 || dim < 0 || s.length() != dot + 2) throw new Invalid("unknown special register " + s + " in '" + text + "'");
      return new Special(kind, dim);
    }
    if (s.startsWith("0f") && s.length() == 10) return new Imm(Long.parseLong(s.substring(2), 16));
    if ((s.startsWith("0d") && s.length() == 18) || s.startsWith("0x") || s.startsWith("0X"))
      return new Imm(Long.parseUnsignedLong(s.substring(2), 16));
    if (s.matches("-?\\d+")) return new Imm(Long.parseLong(s));
    Long address = symbols.get(s);
    if (address == null) throw new Invalid("unknown operand " + s + " in '" + text + "'");
    return new Imm(address);
  }

  private Reg register(String s, String text) {
    long[] set = registerSets.get("=" + s.substring(1));
    int number = 0;
    if (set == null) {
      Matcher m = NUMBERED.matcher(s);
      if (m.find()) {
        set = registerSets.get(m.group(1));
        number = Integer.parseInt(m.group(2));
      }
    }
    if (set == null || number >= set[1]) throw new Invalid("undeclared register " + s + " in '" + text + "'");
    return new Reg((int) set[0] + number, (int) set[2], s);
  }

  /** Regions at fixed bases, each a little-endian buffer; any access outside them fails the test. */
  static final class Regions implements Memory {
    private final List<long[]> bounds = new ArrayList<>();
    private final List<ByteBuffer> data = new ArrayList<>();

    long add(long base, ByteBuffer b) {
      bounds.add(new long[] {base, b.capacity()});
      data.add(b.order(ByteOrder.LITTLE_ENDIAN));
      return base;
    }

    private int region(long address, int size) {
      for (int i = 0; i < bounds.size(); i++) {
        long[] r = bounds.get(i);
        if (address >= r[0] && address + size <= r[0] + r[1]) return i;
      }
      throw new AssertionError(String.format("access of %d bytes at 0x%X outside every array", size, address));
    }

    @Override
    public long read(long address, int size) {
      int i = region(address, size), off = (int) (address - bounds.get(i)[0]);
      ByteBuffer b = data.get(i);
      return switch (size) {
        case 1 -> b.get(off) & 0xFFL;
        case 2 -> b.getShort(off) & 0xFFFFL;
        case 4 -> b.getInt(off) & 0xFFFFFFFFL;
        default -> b.getLong(off);
      };
    }

    @Override
    public void write(long address, int size, long value) {
      int i = region(address, size), off = (int) (address - bounds.get(i)[0]);
      ByteBuffer b = data.get(i);
      switch (size) {
        case 1 -> b.put(off, (byte) value);
        case 2 -> b.putShort(off, (short) value);
        case 4 -> b.putInt(off, (int) value);
        default -> b.putLong(off, value);
      }
    }
  }

  /**
   * A block's shared memory, checked for races as the block runs: between two barriers, a byte one
   * thread writes must not be read or written by another, nor written after another read it —
   * on a GPU the outcome would depend on timing (a missing barrier). Atomics are exempt.
   */
  static final class SharedMemory implements Memory {
    private static final int NONE = -1, MANY = -2;
    final Regions bytes = new Regions();
    private final int[] writer, writePhase, reader, readPhase;
    Thread running;

    SharedMemory(int size) {
      if (size > 0) bytes.add(SHARED_BASE, ByteBuffer.allocate(size));
      writer = new int[size];
      writePhase = new int[size];
      reader = new int[size];
      readPhase = new int[size];
      java.util.Arrays.fill(writer, NONE);
      java.util.Arrays.fill(reader, NONE);
    }

    @Override
    public long read(long address, int size) {
      long v = bytes.read(address, size);
      int t = running.index, phase = running.phase;
      for (int b = (int) (address - SHARED_BASE), end = b + size; b < end; b++) {
        if (writer[b] != NONE && writer[b] != t && writePhase[b] == phase)
          throw race(address, "thread " + t + " reads what thread " + writer[b] + " wrote");
        reader[b] = readPhase[b] == phase && reader[b] != NONE && reader[b] != t ? MANY : t;
        readPhase[b] = phase;
      }
      return v;
    }

    @Override
    public void write(long address, int size, long value) {
      int t = running.index, phase = running.phase;
      for (int b = (int) (address - SHARED_BASE), end = b + size; b < end; b++) {
        if (writer[b] != NONE && writer[b] != t && writePhase[b] == phase)
          throw race(address, "threads " + writer[b] + " and " + t + " both write it");
        if (reader[b] != NONE && reader[b] != t && readPhase[b] == phase)
          throw race(address, "thread " + t + " writes what " + (reader[b] == MANY ? "other threads" : "thread " + reader[b]) + " read");
        writer[b] = t;
        writePhase[b] = phase;
      }
      bytes.write(address, size, value);
    }

    private AssertionError race(long address, String what) {
      return new AssertionError(String.format("shared-memory race at offset %d since the last barrier: %s (a missing barrier?)",
          address - SHARED_BASE, what));
    }
  }

  /**
   * Global memory seen by one launch, checked for races: a thread must not read, nor overwrite with
   * another value, what a thread of another block wrote in this launch, nor what a thread of its
   * own block wrote since the last barrier (only atomics are exempt; blocks have no barrier between
   * them). Reads of the same thread's writes and of memory nobody wrote are free.
   */
  static final class GlobalMemory implements Memory {
    final Memory memory;
    private final Map<Long, long[]> writes = new HashMap<>();   // address -> {thread, block, phase}
    Thread running;

    GlobalMemory(Memory memory) {
      this.memory = memory;
    }

    private boolean conflicts(long[] w) {
      return w != null && w[0] != running.globalIndex && (w[1] != running.block || w[2] == running.phase);
    }

    @Override
    public long read(long address, int size) {
      long[] w = writes.get(address);
      if (conflicts(w))
        throw race(address, "thread " + running.globalIndex + " reads what thread " + w[0] + (w[1] != running.block
            ? " of block " + w[1] + " wrote in the same launch" : " wrote since the last barrier"));
      return memory.read(address, size);
    }

    @Override
    public void write(long address, int size, long value) {
      long[] w = writes.get(address);
      if (conflicts(w) && memory.read(address, size) != PtxInstructionSet.zext(value, 8 * size))
        throw race(address, "threads " + w[0] + " and " + running.globalIndex + " write different values");
      writes.put(address, new long[] {running.globalIndex, running.block, running.phase});
      memory.write(address, size, value);
    }

    private static AssertionError race(long address, String what) {
      return new AssertionError(String.format("global-memory race at 0x%X: %s (the result would depend on timing)", address, what));
    }
  }

  /** One launch: its parameters' bits, in declaration order, and global memory. */
  record Launch(long[] params, Memory global) {}

  /** One thread's state. */
  final class Thread {
    final long[] regs = initialRegisters.clone();
    /** Which registers an instruction of this thread has written: reading any other fails ({@link PtxInstructionSet}). */
    final boolean[] written = new boolean[initialRegisters.length];
    final int[][] ids;   // tid, ntid, ctaid, nctaid
    final Memory local;
    final SharedMemory shared;
    final Launch launch;
    final int index;   // in the block
    final long block, globalIndex;
    int pc, phase;     // phase: barriers passed
    boolean done, waiting;
    /** What the thread waits at ("bar" or "shfl"): every thread of a block must wait at the same kind. */
    String waitingAt;
    /** The threads of the block, in linear order (a warp is 32 consecutive ones). */
    List<Thread> peers;
    /** shfl.sync: values published for the exchange (by parity of the shuffles done), shuffles done, whether published. */
    final long[] published = new long[2];
    int shuffles;
    boolean shufflePublished;

    /** The simulator running this thread. */
    PtxSimulator simulator() {
      return PtxSimulator.this;
    }

    Thread(int index, int[] tid, int[] ntid, int[] ctaid, int[] nctaid, SharedMemory shared, Launch launch) {
      this.index = index;
      this.block = ctaid[0] + (long) nctaid[0] * (ctaid[1] + (long) nctaid[1] * ctaid[2]);
      this.globalIndex = block * ntid[0] * ntid[1] * ntid[2] + index;
      this.ids = new int[][] {tid, ntid, ctaid, nctaid};
      this.shared = shared;
      this.launch = launch;
      Regions l = new Regions();
      if (localBytes > 0) l.add(LOCAL_BASE, ByteBuffer.allocate(localBytes));
      this.local = l;
    }
  }

  /**
   * Runs a grid of {@code blocks} work-groups of {@code threads} work-items (x, y, z each) with the
   * kernel arguments in parameter order: Java arrays (written back in place; half arrays as
   * short[] of binary16 bits) or boxed scalars (Boolean, Byte, Short, Character, Integer, Long,
   * Float, Double).
   */
  void run(int[] blocks, int[] threads, Object... args) {
    if (args.length != paramNames.size()) throw new AssertionError("kernel has " + paramNames.size() + " parameters, given " + args.length);
    List<Runnable> copyBack = new ArrayList<>();
    Regions global = new Regions();
    long[] bits = new long[args.length];
    for (int i = 0; i < args.length; i++) {
      Object a = args[i];
      if (a.getClass().isArray()) {
        bits[i] = GLOBAL_BASE * (i + 1);
        copyBack.add(bind(a, global, bits[i]));
      } else {
        bits[i] = switch (a) {
          case Boolean b -> b ? 1 : 0;
          case Character c -> c;
          case Float f -> Float.floatToRawIntBits(f) & 0xFFFFFFFFL;
          case Double d -> Double.doubleToRawLongBits(d);
          case Number n -> n.longValue();
          default -> throw new AssertionError("argument " + a);
        };
      }
    }
    launch(blocks, threads, new Launch(bits, global));
    copyBack.forEach(Runnable::run);
  }

  /** Runs the grid over {@code launch}'s parameters and memory. */
  void launch(int[] blocks, int[] threads, Launch launch) {
    launch(blocks, threads, launch, 0);
  }

  /** Static shared memory in bytes (the dynamic area starts after it, aligned). */
  int staticSharedBytes() {
    return sharedBytes;
  }

  /** Runs the grid with {@code dynamicShared} bytes of dynamic shared memory after the static arrays. */
  void launch(int[] blocks, int[] threads, Launch launch, int dynamicSharedBytes) {
    if (dynamicSharedBytes > 0 && dynamicShared == null) throw new AssertionError("dynamic shared memory given to a kernel that declares none");
    if (launch.params().length != paramNames.size())
      throw new AssertionError("kernel " + entry + " has " + paramNames.size() + " parameters, given " + launch.params().length);
    PtxInstructionSet isa = new PtxInstructionSet();
    long[] steps = {0};
    GlobalMemory global = new GlobalMemory(launch.global());
    Launch checked = new Launch(launch.params(), global);
    for (int bz = 0; bz < blocks[2]; bz++)
      for (int by = 0; by < blocks[1]; by++)
        for (int bx = 0; bx < blocks[0]; bx++) {
          SharedMemory shared = new SharedMemory(sharedBytes + dynamicSharedBytes);
          List<Thread> group = new ArrayList<>();
          for (int tz = 0; tz < threads[2]; tz++)
            for (int ty = 0; ty < threads[1]; ty++)
              for (int tx = 0; tx < threads[0]; tx++)
                group.add(new Thread(group.size(), new int[] {tx, ty, tz}, threads, new int[] {bx, by, bz}, blocks, shared, checked));
          for (Thread t : group) t.peers = group;
          runGroup(group, shared, global, isa, steps);
        }
  }

  /** Copies a Java array into {@code m} at {@code base}; the Runnable copies it back. */
  private static Runnable bind(Object a, Regions m, long base) {
    int n = java.lang.reflect.Array.getLength(a);
    int size = switch (a) {
      case boolean[] x -> 1;
      case byte[] x -> 1;
      case char[] x -> 2;
      case short[] x -> 2;
      case int[] x -> 4;
      case float[] x -> 4;
      case long[] x -> 8;
      case double[] x -> 8;
      default -> throw new AssertionError("array argument " + a);
    };
    m.add(base, ByteBuffer.allocate(Math.max(1, n * size)));
    for (int i = 0; i < n; i++) {
      long bits = switch (a) {
        case boolean[] x -> x[i] ? 1 : 0;
        case byte[] x -> x[i];
        case char[] x -> x[i];
        case short[] x -> x[i];
        case int[] x -> x[i];
        case float[] x -> Float.floatToRawIntBits(x[i]);
        case long[] x -> x[i];
        case double[] x -> Double.doubleToRawLongBits(x[i]);
        default -> throw new AssertionError();
      };
      m.write(base + (long) i * size, size, bits);
    }
    return () -> {
      for (int i = 0; i < n; i++) {
        long bits = m.read(base + (long) i * size, size);
        switch (a) {
          case boolean[] x -> x[i] = bits != 0;
          case byte[] x -> x[i] = (byte) bits;
          case char[] x -> x[i] = (char) bits;
          case short[] x -> x[i] = (short) bits;
          case int[] x -> x[i] = (int) bits;
          case float[] x -> x[i] = Float.intBitsToFloat((int) bits);
          case long[] x -> x[i] = bits;
          case double[] x -> x[i] = Double.longBitsToDouble(bits);
          default -> throw new AssertionError();
        }
      }
    };
  }

  private void runGroup(List<Thread> group, SharedMemory shared, GlobalMemory global, PtxInstructionSet isa, long[] steps) {
    while (true) {
      boolean anyLive = false;
      for (Thread t : group) {
        shared.running = t;
        global.running = t;
        while (!t.done && !t.waiting) {
          if (++steps[0] > 1_000_000_000L) throw new AssertionError("a launch ran past a billion instructions (an endless loop?)");
          // A caller that gave up on the launch (the fuzzer's time limit) interrupts it.
          if ((steps[0] & 0xFFFFF) == 0 && java.lang.Thread.currentThread().isInterrupted())
            throw new AssertionError("the launch was interrupted after " + steps[0] + " instructions");
          if (t.pc >= code.size()) throw new AssertionError("ran past the end of the kernel");
          isa.execute(t, code.get(t.pc++));
        }
        anyLive |= !t.done;
      }
      if (!anyLive) return;
      String at = null;
      for (Thread t : group) {
        if (t.done) continue;
        if (at != null && !at.equals(t.waitingAt))
          throw new AssertionError("threads of a block wait at different synchronisations: " + at + " and " + t.waitingAt + " (divergent shfl.sync or barrier)");
        at = t.waitingAt;
      }
      for (Thread t : group) t.waiting = false;   // threads that have ended count as arrived
    }
  }
}
