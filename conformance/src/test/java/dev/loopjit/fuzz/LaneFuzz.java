// Random kernels in the shapes the coarsen pass takes (an inner loop over rows of B), each run on the jvm and every device and compared bit for bit.
package dev.loopjit.fuzz;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.api.PrintedKernels;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.testing.MemoryClassLoader;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The general fuzzer masks every index and rarely proves one in range, so it never reaches the
 * {@code coarsen} pass. These kernels do: a 2-D nest whose inner loop reads {@code a[i·k + p]} and
 * either {@code b[p·n + j]} (along x: the lanes form) or {@code b[j·k + p]} (across x: the rows form
 * where the loop is straight-line code, else the jammed form),
 * with random float and int statements (wrapping int arithmetic, saturating conversions, selects
 * that differ per lane, branches that differ per row or not at all), at sizes that coarsen and sizes
 * that do not. Every result must equal the jvm's bit for bit.
 */
final class LaneFuzz {
  /** One kernel: its source and its arguments' sizes. */
  record Kernel(long seed, String className, String source, int m, int n, int k) {}

  /**
   * What a run found: kernels tried, how many a CPU device coarsened, how many of those read rows a
   * block at a time (OpenCL C's {@code vload8}), how many ran their loop in blocks for the work-group
   * and took more than one, how many jvm-mt ran as vectors, how many it ran four rows at a time (the
   * form compiled, and 32 rows or more: its 8 chunks on two cores have four rows or more), and each difference.
   */
  record Result(int kernels, int coarsened, int rows, int blocks, int vectorised, int fourRows, List<String> problems) {}

  private final Random r;
  private final StringBuilder body = new StringBuilder();

  private LaneFuzz(long seed) {
    // java.util.Random's first draws of neighbouring seeds agree (seeds 1 to 10 all chose "along"): spread the seed first
    this.r = new Random(seed * 0x9E3779B97F4A7C15L);
  }

  static Kernel generate(long seed) {
    return new LaneFuzz(seed).kernel(seed);
  }

  /**
   * A kernel for jvm-mt's vector lanes: float statements only ({@code + - * /}, negation, branches the
   * same for every lane), B read along x, at least a vector group's lanes at most sizes.
   */
  static Kernel generateVectors(long seed) {
    return new LaneFuzz(seed).vectorKernel(seed);
  }

  private Kernel vectorKernel(long seed) {
    // 37 and 40 rows: jvm-mt's chunks of 4 and 5 rows run four rows at a time (Chunks.ROWS), the rest one by one
    int m = pick(1, 2, 3, 37, 40), n = pick(128, 136, 200, 257, 64), k = 1 + r.nextInt(9);
    int statements = 2 + r.nextInt(5);
    for (int s = 0; s < statements; s++) body.append("        ").append(floatStatement(2)).append('\n');
    String name = "Vectors" + seed;
    String src = source(name, pick("0f", "s", "1.5f", "-0f"), null, "p * n + j", body);
    return new Kernel(seed, name, src, m, n, k);
  }

  private String floatStatement(int depth) {
    int c = r.nextInt(10);
    if (c < 6) return "acc = acc " + pick("+", "-", "*") + " " + vectorExpr(2) + ";";
    if (c < 7) return "acc = -acc + vb;";
    if (depth == 0) return "acc = acc + va;";
    String cond = pick("(p & 1) == 0", "p < t", "i > p", "s > 0f", "(i & 1) == 1", "t > 3");
    return "if (" + cond + ") { " + floatStatement(depth - 1) + " } else { " + floatStatement(depth - 1) + " }";
  }

  private String vectorExpr(int depth) {
    if (depth == 0) return pick("va", "vb", "s", "acc", "0.25f", "-3f", "(float) p", "(float) t");
    return switch (r.nextInt(5)) {
      case 0, 1 -> "(" + vectorExpr(depth - 1) + " " + pick("+", "-", "*", "/") + " " + vectorExpr(depth - 1) + ")";
      case 2 -> "(-(" + vectorExpr(depth - 1) + "))";
      default -> vectorExpr(0);
    };
  }

  private Kernel kernel(long seed) {
    boolean along = r.nextBoolean();
    // across x, k up to 20: the rows form reads 8 iterations of the loop at a time, the rest one by one;
    // along x, now and then k past 256: the work-group runs the loop in blocks of 256, a barrier between them
    int m = pick(8, 4, 3, 16, 37), n = along ? pick(16, 32, 48, 20) : pick(8, 16, 24, 12);
    int k = along ? (r.nextInt(6) == 0 ? 250 + r.nextInt(20) : 1 + r.nextInt(9)) : 1 + r.nextInt(20);
    String b = along ? "p * n + j" : "j * k + p";
    int statements = 2 + r.nextInt(5);
    for (int s = 0; s < statements; s++) body.append("        ").append(statement(2)).append('\n');
    String name = "Lanes" + seed;
    String src = source(name, pick("0f", "s", "1.5f", "-0f"), pick("0", "t", "i", "j"), b, body);
    return new Kernel(seed, name, src, m, n, k);
  }

  /**
   * The class of kernel {@code name}: the nest, a float sum starting at {@code floatInit} and (where
   * {@code intInit} is not null) an int one, B read at {@code b}, the inner loop's statements {@code body}.
   */
  private static String source(String name, String floatInit, String intInit, String b, CharSequence body) {
    String ints = intInit == null ? "" : "            int iacc = " + intInit + ";\n";
    String intLoads = intInit == null ? "" : "              int xa = ia[i * k + p];\n              int xb = ib[" + b + "];\n";
    String intStore = intInit == null ? "" : "            iout[i * n + j] = iacc;\n";
    return """
        package fuzz;

        import dev.loopjit.api.*;

        public final class %s {
          public static void kernel(float[] a, float[] b, int[] ia, int[] ib, float[] out, int[] iout, int m, int n, int k, float s, int t) {
            for (@Parallel int i = 0; i < m; i++)
              for (@Parallel int j = 0; j < n; j++) {
                float acc = %s;
        %s            for (int p = 0; p < k; p++) {
                  float va = a[i * k + p];
                  float vb = b[%s];
        %s%s        }
                out[i * n + j] = acc;
        %s      }
          }

          public static final java.io.Serializable TASK = (Task11<float[], float[], int[], int[], float[], int[], Integer, Integer, Integer, Float, Integer>) %s::kernel;
        }
        """.formatted(name, floatInit, ints, b, intLoads, body, intStore, name);
  }

  private String statement(int depth) {
    int c = r.nextInt(10);
    if (c < 3) return "acc = acc " + pick("+", "-", "*") + " " + fexpr(2) + ";";
    if (c < 6) return "iacc = iacc " + pick("+", "-", "*", "^", "&", "|") + " " + iexpr(2) + ";";
    if (c < 7) return "acc = vb > " + fexpr(1) + " ? " + fexpr(2) + " : " + fexpr(1) + ";";
    if (c < 8) return "iacc = Math." + pick("max", "min") + "(iacc, " + iexpr(2) + ");";
    if (depth == 0) return "acc = acc + va;";
    // a branch the same for every lane: on the row, the loop counter or a parameter
    String cond = pick("(p & 1) == 0", "p < t", "i > p", "s > 0f", "(i & 1) == 1", "t > 3");
    return "if (" + cond + ") { " + statement(depth - 1) + " } else { " + statement(depth - 1) + " }";
  }

  private String fexpr(int depth) {
    if (depth == 0) return pick("va", "vb", "s", "acc", "(float) xa", "(float) xb", "0.25f", "-3f", "(float) p");
    return switch (r.nextInt(7)) {
      case 0 -> "(" + fexpr(depth - 1) + " " + pick("+", "-", "*", "/") + " " + fexpr(depth - 1) + ")";
      case 1 -> "Math.abs(" + fexpr(depth - 1) + ")";
      case 2 -> "Math." + pick("min", "max") + "(" + fexpr(depth - 1) + ", " + fexpr(depth - 1) + ")";
      case 3 -> "(float) (" + iexpr(depth - 1) + " >> 3)";
      default -> fexpr(0);
    };
  }

  private String iexpr(int depth) {
    if (depth == 0) return pick("xa", "xb", "iacc", "t", "p", "i", "j", "7", "-1");
    return switch (r.nextInt(7)) {
      case 0 -> "(" + iexpr(depth - 1) + " " + pick("+", "-", "*", "^") + " " + iexpr(depth - 1) + ")";
      case 1 -> "(" + iexpr(depth - 1) + " " + pick(">>", ">>>", "<<") + " " + (r.nextInt(31) + 1) + ")";
      case 2 -> "(int) " + fexpr(depth - 1);
      case 3 -> "(" + fexpr(depth - 1) + " > 0f ? " + iexpr(depth - 1) + " : " + iexpr(depth - 1) + ")";
      default -> iexpr(0);
    };
  }

  @SafeVarargs
  private <T> T pick(T... l) {
    return l[r.nextInt(l.length)];
  }

  /** Kernels {@code first} to {@code first + count - 1}, each on the jvm and every device. */
  static Result run(long first, int count) {
    return run(first, count, false);
  }

  /** The same, of {@link #generateVectors}' kernels where {@code vectors}. */
  static Result run(long first, int count, boolean vectors) {
    Map<String, String> sources = new LinkedHashMap<>();
    List<Kernel> kernels = new ArrayList<>();
    for (long s = first; s < first + count; s++) {
      Kernel k = vectors ? generateVectors(s) : generate(s);
      kernels.add(k);
      sources.put("fuzz." + k.className(), k.source());
    }
    MemoryClassLoader loader = SourceCompiler.compile(sources);
    List<String> problems = new ArrayList<>();
    int coarsened = 0, rows = 0, blocks = 0, vectorised = 0, fourRows = 0;
    for (Kernel k : kernels) {
      Serializable task;
      try {
        task = (Serializable) loader.loadClass("fuzz." + k.className()).getField("TASK").get(null);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
      Object[] reference = arguments(k);
      execute(task, reference, Devices.jvm());
      for (Device d : Devices.all()) {
        if (d.equals(Devices.jvm())) continue;
        Object[] got = arguments(k);
        String code;
        try {
          code = execute(task, got, d);
        } catch (RuntimeException e) {
          problems.add("seed " + k.seed() + " on " + d.id() + ": " + e + "\n" + k.source());
          continue;
        }
        if (code.contains("lane_base")) coarsened++;
        if (code.contains("vload8(")) rows++;
        if (code.contains("block_end_ = ") && k.k() > 256) blocks++;
        if (code.contains("VectorOps")) vectorised++;
        if (d.id().equals("jvm-mt") && code.contains("item_y + 3") && k.m() >= 32) fourRows++;
        for (int a = 0; a < 6; a++) {
          String why = difference(reference[a], got[a]);
          if (why != null) problems.add("seed " + k.seed() + " on " + d.id() + ", argument " + a + ": " + why + "\n" + k.source() + "\n" + code);
        }
      }
    }
    return new Result(kernels.size(), coarsened, rows, blocks, vectorised, fourRows, problems);
  }

  /** The arguments of {@code k}, the same for every run of it. */
  private static Object[] arguments(Kernel k) {
    Random r = new Random(k.seed() * 31 + 7);
    int m = k.m(), n = k.n(), kk = k.k();
    float[] a = new float[m * kk], b = new float[kk * n];
    int[] ia = new int[m * kk], ib = new int[kk * n];
    for (int i = 0; i < a.length; i++) { a[i] = (r.nextInt(33) - 16) / 4f; ia[i] = r.nextInt(); }
    for (int i = 0; i < b.length; i++) { b[i] = (r.nextInt(33) - 16) / 4f; ib[i] = r.nextInt(); }
    return new Object[] {a, b, ia, ib, new float[m * n], new int[m * n], m, n, kk, (r.nextInt(9) - 4) / 2f, r.nextInt(8)};
  }

  /** Runs {@code task} on {@code d}; returns the kernel code the device printed. */
  private static String execute(Serializable task, Object[] args, Device d) {
    TaskGraph g = new TaskGraph("lanes").transferToDevice(DataTransferMode.EVERY_EXECUTION, Arrays.copyOf(args, 4));
    KernelCheck.addTask(g, "k", task, args);
    return PrintedKernels.run(g.transferToHost(DataTransferMode.EVERY_EXECUTION, args[4], args[5]), d);
  }

  private static String difference(Object want, Object got) {
    int n = java.lang.reflect.Array.getLength(want);
    for (int i = 0; i < n; i++) {
      Object w = java.lang.reflect.Array.get(want, i), g = java.lang.reflect.Array.get(got, i);
      boolean same = w instanceof Float f
          ? Float.floatToRawIntBits(f) == Float.floatToRawIntBits((Float) g) || f.isNaN() && ((Float) g).isNaN()   // a NaN's payload is not Java's to fix
          : w.equals(g);
      if (!same) return "element " + i + ": " + g + " where the jvm has " + w;
    }
    return null;
  }
}
