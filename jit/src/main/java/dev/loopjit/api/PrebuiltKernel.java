// A kernel written by hand in a device language, given to TaskGraph.prebuiltTask instead of a Java method.
package dev.loopjit.api;

import java.util.List;
import java.util.Objects;

/**
 * Device code written by hand: the language, the entry point's name, the code, and how the kernel
 * uses each argument. A prebuilt task takes its arguments in the entry point's order (arrays become
 * buffers, primitives values, nothing is added) and its grid from the plan's {@link GridScheduler}.
 * It runs only on devices of its language (an OpenCL C kernel on {@code opencl:N}, PTX on
 * {@code cuda:N}); it has no Java meaning, so the {@code jvm} device refuses it.
 *
 * <pre>{@code
 * PrebuiltKernel scale = PrebuiltKernel.opencl("scale", """
 *     __kernel void scale(__global float* x, float a) { int i = get_global_id(0); x[i] = a * x[i]; }
 *     """, Access.READ_WRITE, Access.NONE);
 * TaskGraph g = new TaskGraph("g").prebuiltTask("s", scale, x, 2f);
 * new ExecutionPlan(g.snapshot()).withGridScheduler(new GridScheduler("g.s", new WorkerGrid1D(n))).execute();
 * }</pre>
 *
 * @param language   {@code "opencl"} (OpenCL C) or {@code "ptx"}
 * @param entryPoint the kernel's name in {@code code}
 * @param code       the code
 * @param accesses   for each argument, how the kernel uses it
 */
public record PrebuiltKernel(String language, String entryPoint, String code, List<Access> accesses) {
  public PrebuiltKernel {
    Objects.requireNonNull(language, "language");
    Objects.requireNonNull(entryPoint, "entryPoint");
    Objects.requireNonNull(code, "code");
    accesses = List.copyOf(accesses);
    if (!entryPoint.matches("[A-Za-z_][A-Za-z0-9_]*")) throw new IllegalArgumentException("entry point \"" + entryPoint + "\" is not an identifier");
  }

  /** An OpenCL C kernel. */
  public static PrebuiltKernel opencl(String entryPoint, String code, Access... accesses) {
    return new PrebuiltKernel("opencl", entryPoint, code, List.of(accesses));
  }

  /** A PTX kernel ({@code .entry entryPoint}). */
  public static PrebuiltKernel ptx(String entryPoint, String code, Access... accesses) {
    return new PrebuiltKernel("ptx", entryPoint, code, List.of(accesses));
  }

  /**
   * The kernel in {@code file}, its language from the name's ending: {@code .cl} OpenCL C,
   * {@code .ptx} PTX. Read now: a missing file or another ending is an
   * {@link IllegalArgumentException} naming it.
   */
  public static PrebuiltKernel fromFile(String entryPoint, java.nio.file.Path file, Access... accesses) {
    Objects.requireNonNull(file, "file");
    String name = file.getFileName() == null ? "" : file.getFileName().toString();
    String language = name.endsWith(".cl") ? "opencl" : name.endsWith(".ptx") ? "ptx" : null;
    if (language == null)
      throw new IllegalArgumentException("prebuilt kernel file " + file + ": LoopJIT runs OpenCL C (.cl) and PTX (.ptx) files; this one is neither");
    try {
      return new PrebuiltKernel(language, entryPoint, java.nio.file.Files.readString(file), List.of(accesses));
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException("prebuilt kernel file " + file + " cannot be read: " + e, e);
    }
  }
}
