// Runs the PTX subset PtxEmitter writes on the CPU, thread by thread, so tests can compare kernels with Java without a GPU.
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
 * A reference interpreter, not a GPU model: one entry, threads run one at a time until a barrier
 * or their end, global memory is the argument arrays (little-endian, as on NVIDIA GPUs). Where
 * PTX leaves a result unspecified (integer division by zero, MIN / -1) it yields {@link #POISON}, so
 * that emitted guards are tested rather than assumed; where the PTX ISA specifies an odd result
 * (shift clamping, the NaN of a float-to-integer cvt) it gives that result. Semantics of single
 * instructions are in {@link PtxInstructionSet}.
 */
final class PtxSimulator {
  /** What an unspecified result reads as. */
  static final long POISON = 0x5A5A5A5A5A5A5A5AL;
  private static final Pattern PARAM = Pattern.compile("^\\t\\.param \\.(\\w+) (p\\d+)");
  private static final Pattern ARRAY = Pattern.compile("^\\t(\\.local|\\.shared) \\.align 8 \\.b8 (\\w+)\\[(\\d+)\\];");

  /** One instruction, pre-split: guard predicate (or null), opcode parts ("add", "rn", "f32"), operands. */
  record Insn(String guard, boolean negated, String[] op, String[] args, String text) {}

  final List<Insn> code = new ArrayList<>();
  final Map<String, Integer> labels = new HashMap<>();
  private final List<String> params = new ArrayList<>();
  private final Map<String, Integer> localArrays = new HashMap<>(), sharedArrays = new HashMap<>();
  private int localBytes, sharedBytes;
  long steps;

  PtxSimulator(String ptx) {
    boolean body = false;
    for (String line : ptx.split("\n")) {
      Matcher m;
      if ((m = PARAM.matcher(line)).find()) params.add(m.group(2));
      else if ((m = ARRAY.matcher(line)).find()) {
        int size = Integer.parseInt(m.group(3));
        if (m.group(1).equals(".local")) {
          localArrays.put(m.group(2), localBytes);
          localBytes += size;
        } else {
          sharedArrays.put(m.group(2), sharedBytes);
          sharedBytes += size;
        }
      } else if (line.equals("{")) body = true;
      else if (line.equals("}")) body = false;
      else if (body && line.endsWith(":")) labels.put(line.substring(0, line.length() - 1), code.size());
      else if (body && line.startsWith("\t") && !line.startsWith("\t.reg") && !line.trim().startsWith("//")) code.add(parse(line.trim()));
    }
  }

  private static Insn parse(String line) {
    String text = line.substring(0, line.length() - 1);
    String rest = text, guard = null;
    boolean negated = false;
    if (rest.startsWith("@")) {
      int sp = rest.indexOf(' ');
      guard = rest.substring(1, sp);
      if (guard.startsWith("!")) {
        negated = true;
        guard = guard.substring(1);
      }
      rest = rest.substring(sp + 1);
    }
    int sp = rest.indexOf(' ');
    String opcode = sp < 0 ? rest : rest.substring(0, sp);
    String[] args = sp < 0 ? new String[0] : rest.substring(sp + 1).split(",\\s*");
    return new Insn(guard, negated, opcode.split("\\."), args, text);
  }

  /** Memory of one state space: regions at fixed bases; any access outside them fails the test. */
  static final class Memory {
    private final List<long[]> bounds = new ArrayList<>();
    private final List<ByteBuffer> data = new ArrayList<>();

    long add(long base, ByteBuffer b) {
      bounds.add(new long[] {base, b.capacity()});
      data.add(b.order(ByteOrder.LITTLE_ENDIAN));
      return base;
    }

    ByteBuffer at(long address, int size, int[] offset) {
      for (int i = 0; i < bounds.size(); i++) {
        long[] r = bounds.get(i);
        if (address >= r[0] && address + size <= r[0] + r[1]) {
          offset[0] = (int) (address - r[0]);
          return data.get(i);
        }
      }
      throw new AssertionError(String.format("access of %d bytes at 0x%X outside every array", size, address));
    }

    long read(long address, int size) {
      int[] off = new int[1];
      ByteBuffer b = at(address, size, off);
      long v = 0;
      for (int i = size - 1; i >= 0; i--) v = v << 8 | (b.get(off[0] + i) & 0xFF);
      return v;
    }

    void write(long address, int size, long value) {
      int[] off = new int[1];
      ByteBuffer b = at(address, size, off);
      for (int i = 0; i < size; i++) b.put(off[0] + i, (byte) (value >>> (8 * i)));
    }
  }

  /** One thread's state. */
  final class Thread {
    final Map<String, Long> regs = new HashMap<>();
    final int[] tid, ntid, ctaid, nctaid;
    final Memory local = new Memory();
    final Memory shared;
    int pc;
    boolean done, waiting;

    Thread(int[] tid, int[] ntid, int[] ctaid, int[] nctaid, Memory shared) {
      this.tid = tid;
      this.ntid = ntid;
      this.ctaid = ctaid;
      this.nctaid = nctaid;
      this.shared = shared;
      local.add(LOCAL_BASE, ByteBuffer.allocate(Math.max(8, localBytes)));
    }

    /** The address of a declared .local or .shared array. */
    Long symbol(String name) {
      if (localArrays.containsKey(name)) return LOCAL_BASE + localArrays.get(name);
      if (sharedArrays.containsKey(name)) return SHARED_BASE + sharedArrays.get(name);
      return null;
    }

    long special(String name) {
      String[] p = name.substring(1).split("\\.");
      int d = "xyz".indexOf(p[1]);
      return switch (p[0]) {
        case "tid" -> tid[d];
        case "ntid" -> ntid[d];
        case "ctaid" -> ctaid[d];
        case "nctaid" -> nctaid[d];
        default -> throw new AssertionError("special register " + name);
      };
    }
  }

  static final long LOCAL_BASE = 0x1000, SHARED_BASE = 0x2000_0000L, GLOBAL_BASE = 0x10_0000_0000L;
  final Memory global = new Memory();
  final Map<String, Long> paramBits = new HashMap<>();

  /**
   * Runs a grid of {@code blocks} work-groups of {@code threads} work-items (x, y, z each) with the
   * kernel arguments in {@code k.args()} order: Java arrays (written back in place; half arrays as
   * short[] of binary16 bits) or boxed scalars (Boolean, Byte, Short, Character, Integer, Long,
   * Float, Double).
   */
  void run(int[] blocks, int[] threads, Object... args) {
    if (args.length != params.size()) throw new AssertionError("kernel has " + params.size() + " parameters, given " + args.length);
    List<Runnable> copyBack = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      Object a = args[i];
      long bits;
      if (a.getClass().isArray()) {
        bits = GLOBAL_BASE * (i + 1);
        copyBack.add(bind(a, global, bits));
      } else {
        bits = switch (a) {
          case Boolean b -> b ? 1 : 0;
          case Character c -> c;
          case Float f -> Float.floatToRawIntBits(f) & 0xFFFFFFFFL;
          case Double d -> Double.doubleToRawLongBits(d);
          case Number n -> n.longValue();
          default -> throw new AssertionError("argument " + a);
        };
      }
      paramBits.put(params.get(i), bits);
    }
    PtxInstructionSet isa = new PtxInstructionSet(this);
    for (int bz = 0; bz < blocks[2]; bz++)
      for (int by = 0; by < blocks[1]; by++)
        for (int bx = 0; bx < blocks[0]; bx++) {
          Memory shared = new Memory();
          shared.add(SHARED_BASE, ByteBuffer.allocate(Math.max(8, sharedBytes)));
          List<Thread> group = new ArrayList<>();
          for (int tz = 0; tz < threads[2]; tz++)
            for (int ty = 0; ty < threads[1]; ty++)
              for (int tx = 0; tx < threads[0]; tx++)
                group.add(new Thread(new int[] {tx, ty, tz}, threads, new int[] {bx, by, bz}, blocks, shared));
          runGroup(group, isa);
        }
    copyBack.forEach(Runnable::run);
  }

  /** Copies a Java array into {@code m} at {@code base}; the Runnable copies it back. */
  private static Runnable bind(Object a, Memory m, long base) {
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

  private void runGroup(List<Thread> group, PtxInstructionSet isa) {
    while (true) {
      boolean anyLive = false;
      for (Thread t : group) {
        while (!t.done && !t.waiting) {
          if (++steps > 200_000_000L) throw new AssertionError("simulation ran too long (an endless loop?)");
          if (t.pc >= code.size()) throw new AssertionError("ran past the end of the kernel");
          isa.execute(t, code.get(t.pc++));
        }
        anyLive |= !t.done;
      }
      if (!anyLive) return;
      for (Thread t : group) t.waiting = false;
    }
  }
}
