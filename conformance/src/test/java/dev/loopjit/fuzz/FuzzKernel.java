// One generated kernel: its shape, parameters, code and arguments; renders itself as a Java class and as a reproducer.
package dev.loopjit.fuzz;

import dev.loopjit.api.KernelContext;
import dev.loopjit.fuzz.Code.St;
import dev.loopjit.types.ByteArray;
import dev.loopjit.types.DoubleArray;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.HalfFloatArray;
import dev.loopjit.types.IntArray;
import dev.loopjit.types.LongArray;
import dev.loopjit.types.ShortArray;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

/**
 * A kernel as the {@link KernelGenerator} made it. Work-item {@code i} reads its inputs anywhere
 * and writes only slots {@code i * SLOTS ... i * SLOTS + SLOTS - 1} of each output, so every device
 * must give the jvm's outputs exactly (sink outputs, which take the OpenCL built-ins' inexact math,
 * within {@link Differential#SINK_TOLERANCE}).
 *
 * @param className the generated class's simple name (package {@code fuzz})
 * @param seed      what made it (arguments are derived from it too)
 * @param shape     how work-items are laid out
 * @param params    the kernel's parameters, in order
 * @param members   static members of the class before the kernel: tables and helper methods
 * @param prefix    statements before the parallel nest (run by every work-item)
 * @param body      one work-item's statements
 * @param suffix    statements after the parallel nest (run once, after every iteration)
 * @param variant   for {@link Shape#CONTEXT_GROUP}, which of its parts the kernel has ({@link #GROUP_RETURN} ...)
 * @param n         work-items (and input array length)
 * @param dims      for 2-D and 3-D nests, the extent of each dimension (x first)
 * @param localSize for KernelContext kernels, the work-group size (also the local array's)
 */
record FuzzKernel(String className, long seed, Shape shape, List<Param> params, List<St> members, List<St> prefix,
    List<St> body, List<St> suffix, int variant, int n, int[] dims, int localSize) {

  /** Output slots per work-item in every output array. */
  static final int SLOTS = 16;

  /** CONTEXT_GROUP parts: a whole work-group returns early; the group sums its values in a tree of barriers; it returns inside that loop; a barrier under an if the group shares. */
  static final int GROUP_RETURN = 1, GROUP_TREE = 2, GROUP_RETURN_IN_TREE = 4, GROUP_IF = 8;

  /** How the work-items are laid out. */
  enum Shape {
    /** {@code for (@Parallel int i = 0; i < n; i++)}. */
    PARALLEL,
    /** The same loop counting down. */
    REVERSED,
    /** {@code for (@Parallel int i = lo; i < n; i += 2)}: odd (or skipped) items write nothing. */
    STRIDED,
    /** A 2-D nest over {@code h x w}. */
    NEST_2D,
    /** A 3-D nest over {@code d x h x w}. */
    NEST_3D,
    /** The parallel loop in a method the kernel calls. */
    FORWARDED,
    /** No {@code @Parallel}: the loop runs sequentially in one work-item. */
    SEQUENTIAL,
    /** A parallel loop that also reduces into {@code @Reduce} arrays. */
    REDUCTION,
    /** A KernelContext kernel, one work-item per index. */
    CONTEXT,
    /** A KernelContext kernel sharing a value through local memory across a barrier. */
    CONTEXT_LOCAL,
    /**
     * A KernelContext kernel whose work-groups work together: early returns the whole group takes,
     * barriers in a loop and under a group-wide if, a tree sum in local memory, and a store by
     * work-item 0 behind a nested if (the shape of TornadoVM's matrix-vector that PoCL got wrong).
     */
    CONTEXT_GROUP,
    /**
     * A parallel loop with values around it: a private array and a variable set before the loop,
     * read (or written) in it, and statements after the loop that read them. Where the iterations
     * would pass a value on, the kernel is refused, by the jvm too.
     */
    ACROSS
  }

  /** What a parameter is for. */
  enum Role { INPUT, OUTPUT, SINK, REDUCE, ATOMIC, SCALAR, COUNT, DIM, LOW, CONTEXT }

  /**
   * A parameter.
   *
   * @param reduce for REDUCE: "+", "*", "min" or "max"
   */
  record Param(String name, Role role, JType type, boolean offHeap, boolean half, String reduce) {
    /** Its Java type in the kernel's signature. */
    String javaType() {
      return switch (role) {
        case CONTEXT -> "KernelContext";
        case SCALAR, COUNT, DIM, LOW -> type.java;
        default -> half ? "HalfFloatArray" : offHeap ? offHeapClass(type) : type.java + "[]";
      };
    }

    String boxedType() {
      return switch (role) {
        case SCALAR, COUNT, DIM, LOW -> type.box;
        default -> javaType();
      };
    }

    boolean isArray() {
      return role == Role.INPUT || role == Role.OUTPUT || role == Role.SINK || role == Role.REDUCE || role == Role.ATOMIC;
    }

    /** {@code name[idx]}, {@code name.get(idx)}, or a half array's float {@code name.getFloat(idx)}. */
    String load(String idx) {
      return half ? name + ".getFloat(" + idx + ")" : offHeap ? name + ".get(" + idx + ")" : name + "[" + idx + "]";
    }

    /** The statement storing {@code value} at {@code idx}. */
    String store(String idx, String value) {
      return offHeap || half ? name + ".set(" + idx + ", " + value + ");" : name + "[" + idx + "] = " + value + ";";
    }

    /** The element type as Java reads it ({@code float} for a half array). */
    JType element() {
      return half ? JType.FLOAT : type;
    }
  }

  static String offHeapClass(JType t) {
    return switch (t) {
      case INT -> "IntArray"; case LONG -> "LongArray"; case FLOAT -> "FloatArray"; case DOUBLE -> "DoubleArray";
      case SHORT -> "ShortArray"; case BYTE -> "ByteArray";
      default -> throw new IllegalArgumentException("no off-heap array of " + t);
    };
  }

  FuzzKernel withCode(List<St> members, List<St> prefix, List<St> body, List<St> suffix) {
    return new FuzzKernel(className, seed, shape, params, members, prefix, body, suffix, variant, n, dims, localSize);
  }

  FuzzKernel withSize(int n, int[] dims) {
    return new FuzzKernel(className, seed, shape, params, members, prefix, body, suffix, variant, n, dims, localSize);
  }

  FuzzKernel withName(String name) {
    return new FuzzKernel(name, seed, shape, params, members, prefix, body, suffix, variant, n, dims, localSize);
  }

  /** The global work size of a KernelContext kernel: n rounded up to the work-group size. */
  int globalSize() {
    return (n + localSize - 1) / localSize * localSize;
  }

  /** Nodes in the code, for the minimiser's progress. */
  int size() {
    int s = 0;
    for (List<St> l : List.of(members, prefix, body, suffix)) for (St st : l) s += st.size();
    return s;
  }

  // ---------------------------------------------------------------- source

  /** The compilation unit: package {@code fuzz}, the kernel, and a {@code TASK} field holding a method reference to it. */
  String source() {
    StringBuilder s = new StringBuilder();
    s.append("// Generated by the LoopJIT differential fuzzer (seed ").append(seed).append(", shape ").append(shape).append(").\n");
    s.append("package fuzz;\n\n");
    s.append("import dev.loopjit.api.*;\nimport dev.loopjit.types.*;\n\n");
    s.append("public final class ").append(className).append(" {\n");
    for (St m : members) s.append(m.render("  ")).append("\n\n");
    String sig = params.stream().map(p -> (p.role() == Role.REDUCE ? "@Reduce " : "") + p.javaType() + " " + p.name())
        .collect(Collectors.joining(", "));
    String names = params.stream().map(Param::name).collect(Collectors.joining(", "));
    if (shape == Shape.FORWARDED) {
      s.append("  public static void kernel(").append(sig).append(") {\n    nest(").append(names).append(");\n  }\n\n");
      s.append("  static void nest(").append(sig).append(") {\n");
    } else {
      s.append("  public static void kernel(").append(sig).append(") {\n");
    }
    for (St p : prefix) s.append(p.render("    ")).append('\n');
    s.append(nest("    "));
    for (St p : suffix) s.append(p.render("    ")).append('\n');
    s.append("  }\n\n");
    s.append("  public static final java.io.Serializable TASK = (Task").append(params.size()).append('<')
        .append(params.stream().map(Param::boxedType).collect(Collectors.joining(", "))).append(">) ")
        .append(className).append("::kernel;\n");
    s.append("}\n");
    return s.toString();
  }

  private String nest(String in) {
    return switch (shape) {
      case PARALLEL, FORWARDED, REDUCTION -> in + "for (@Parallel int i = 0; i < n; i++) " + block(in, null) + "\n";
      case REVERSED -> in + "for (@Parallel int i = n - 1; i >= 0; i--) " + block(in, null) + "\n";
      case STRIDED -> in + "for (@Parallel int i = lo; i < n; i += 2) " + block(in, null) + "\n";
      case SEQUENTIAL -> in + "for (int i = 0; i < n; i++) " + block(in, null) + "\n";
      case NEST_2D -> in + "for (@Parallel int y = 0; y < h; y++) {\n" + in + "  for (@Parallel int x = 0; x < w; x++) "
          + block(in + "  ", "int i = y * w + x;") + "\n" + in + "}\n";
      case NEST_3D -> in + "for (@Parallel int z = 0; z < d; z++) {\n" + in + "  for (@Parallel int y = 0; y < h; y++) {\n"
          + in + "    for (@Parallel int x = 0; x < w; x++) " + block(in + "    ", "int i = (z * h + y) * w + x;") + "\n"
          + in + "  }\n" + in + "}\n";
      case CONTEXT -> in + "int i = ctx.globalIdx;\n" + in + "if (i < n) " + block(in, null) + "\n";
      case ACROSS -> in + "for (@Parallel int i = 0; i < n; i++) " + block(in, null) + "\n";
      case CONTEXT_GROUP -> group(in);
      case CONTEXT_LOCAL -> in + "int i = ctx.globalIdx;\n" + in + "int[] shared = ctx.allocateIntLocalArray(" + localSize + ");\n"
          + in + "int j = Math.min(i, n - 1);\n" + in + "shared[ctx.localIdx] = " + sharedValue() + ";\n" + in + "ctx.localBarrier();\n"
          + in + "int neighbour = shared[(ctx.localIdx + 1) % " + localSize + "];\n" + in + "if (i < n) " + block(in, null) + "\n";
    };
  }

  /**
   * A CONTEXT_GROUP kernel: each work-item puts a value in local memory, the group shares it
   * (a neighbour's, the group's sum) across barriers placed as {@link #variant} says, the body runs
   * for items below n, and work-item 0 stores the group's sum behind a nested if. Every condition
   * around a barrier is the same for the whole group.
   */
  private String group(String in) {
    int k = variant >> 4 & 3, stop = (variant >> 6 & 1) == 0 ? 2 : 4;
    String out = params.stream().filter(p -> p.role() == Role.OUTPUT && p.type() == JType.INT && !p.half()).findFirst().orElseThrow()
        .store("i * " + SLOTS + " + 5", "total");
    StringBuilder s = new StringBuilder();
    s.append(in).append("int i = ctx.globalIdx;\n").append(in).append("int lid = ctx.localIdx;\n");
    s.append(in).append("int[] shared = ctx.allocateIntLocalArray(").append(localSize).append(");\n");
    s.append(in).append("int j = Math.min(i, n - 1);\n");
    if ((variant & GROUP_RETURN) != 0) s.append(in).append("if ((ctx.groupIdx + ").append(k).append(") % 3 == 0) return;\n");
    s.append(in).append("shared[lid] = ").append(sharedValue()).append(";\n");
    if ((variant & GROUP_IF) != 0)
      s.append(in).append("if ((ctx.groupIdx + ").append(k).append(") % 2 == 0) {\n").append(in).append("  ctx.localBarrier();\n")
          .append(in).append("  int next = shared[(lid + 1) % ").append(localSize).append("];\n").append(in).append("  ctx.localBarrier();\n")
          .append(in).append("  shared[lid] = shared[lid] * 3 + next;\n").append(in).append("}\n");
    s.append(in).append("ctx.localBarrier();\n");
    s.append(in).append("int neighbour = shared[(lid + 1) % ").append(localSize).append("];\n");
    if ((variant & GROUP_TREE) != 0) {
      s.append(in).append("ctx.localBarrier();\n");
      s.append(in).append("for (int step = ").append(localSize / 2).append("; step > 0; step >>= 1) {\n");
      if ((variant & GROUP_RETURN_IN_TREE) != 0)
        s.append(in).append("  if (step < ").append(stop).append(") {\n").append(in).append("    int total = -shared[0];\n")
            .append(in).append("    if (lid == 0) {\n").append(in).append("      if (i < n) ").append(out).append('\n')
            .append(in).append("    }\n").append(in).append("    return;\n").append(in).append("  }\n");
      s.append(in).append("  if (lid < step) shared[lid] += shared[lid + step];\n").append(in).append("  ctx.localBarrier();\n");
      s.append(in).append("}\n");
    }
    s.append(in).append("int total = shared[0];\n");
    s.append(in).append("if (i < n) ").append(block(in, null)).append('\n');
    s.append(in).append("if (lid == 0) {\n").append(in).append("  if (i < n) ").append(out).append('\n').append(in).append("}\n");
    return s.toString();
  }

  /** The work-item body as a block at {@code indent}, after {@code first} (a line, or null). */
  private String block(String indent, String first) {
    StringBuilder s = new StringBuilder("{\n");
    if (first != null) s.append(indent).append("  ").append(first).append('\n');
    for (St st : body) s.append(st.render(indent + "  ")).append('\n');
    return s.append(indent).append('}').toString();
  }

  /** What each work-item of a CONTEXT_LOCAL or CONTEXT_GROUP kernel shares: from the first int input if any. */
  private String sharedValue() {
    for (Param p : params)
      if (p.role() == Role.INPUT && p.element() == JType.INT) return p.load("j") + " * 31 + j";
    return "j * 7 + 1";
  }

  // ---------------------------------------------------------------- arguments

  /** Fresh arguments (the same every call): inputs from the seed, outputs zeroed. */
  Object[] arguments() {
    SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + n);
    Object[] a = new Object[params.size()];
    for (int k = 0; k < a.length; k++) {
      Param p = params.get(k);
      a[k] = switch (p.role()) {
        case CONTEXT -> new KernelContext();
        case COUNT -> n;
        case LOW -> 1;
        case DIM -> dims[p.name().equals("w") ? 0 : p.name().equals("h") ? 1 : 2];
        case SCALAR -> p.type().value(r);
        case INPUT -> wrap(p, p.type().array(n, r));
        case OUTPUT -> p.half() ? new HalfFloatArray(n * SLOTS) : wrap(p, java.lang.reflect.Array.newInstance(p.type().primitive(), n * SLOTS));
        case SINK -> new double[n * SLOTS];
        case ATOMIC -> new int[4];
        case REDUCE -> wrap(p, p.type().array(1, r));
      };
    }
    return a;
  }

  private static Object wrap(Param p, Object array) {
    if (p.half()) {
      float[] f = (float[]) array;
      HalfFloatArray h = new HalfFloatArray(f.length);
      for (int i = 0; i < f.length; i++) h.set(i, f[i]);
      return h;
    }
    if (!p.offHeap()) return array;
    return switch (p.type()) {
      case INT -> IntArray.fromArray((int[]) array);
      case LONG -> LongArray.fromArray((long[]) array);
      case FLOAT -> FloatArray.fromArray((float[]) array);
      case DOUBLE -> DoubleArray.fromArray((double[]) array);
      case SHORT -> ShortArray.fromArray((short[]) array);
      case BYTE -> ByteArray.fromArray((byte[]) array);
      default -> throw new IllegalStateException();
    };
  }

  /** Which parameters' arrays are compared with the sink tolerance. */
  List<Integer> sinkIndices() {
    List<Integer> l = new ArrayList<>();
    for (int k = 0; k < params.size(); k++) if (params.get(k).role() == Role.SINK) l.add(k);
    return l;
  }
}
