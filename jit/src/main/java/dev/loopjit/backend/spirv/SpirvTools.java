// The SPIRV-Tools programs when installed (Debian's spirv-tools): spirv-val checks a module, spirv-dis prints it.
package dev.loopjit.backend.spirv;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code spirv-val} and {@code spirv-dis} from the PATH, feeding the module on standard
 * input. Nothing at run time needs them: LoopJIT writes and disassembles SPIR-V itself; they are
 * the reference the tests check against, and {@code loopjit dump --target spirv} prefers
 * spirv-dis's text when it is there.
 *
 * <pre>{@code
 * if (SpirvTools.validator() != null) {
 *   SpirvTools.Result r = SpirvTools.validate(spv, SpirvTools.targetEnv(spv));
 *   if (!r.ok()) throw new AssertionError(r.output());
 * }
 * }</pre>
 */
public final class SpirvTools {
  private static final Path VAL = find("spirv-val"), DIS = find("spirv-dis");

  private SpirvTools() {}

  /** What a tool said: {@code ok} when it exited with 0; {@code output} is its standard output and errors. */
  public record Result(boolean ok, String output) {}

  /** spirv-val, or null when SPIRV-Tools are not installed. */
  public static Path validator() {
    return VAL;
  }

  /** spirv-dis, or null when SPIRV-Tools are not installed. */
  public static Path disassemblerTool() {
    return DIS;
  }

  /**
   * The spirv-val environment for a module: the OpenCL version whose SPIR-V environment accepts
   * its SPIR-V version ({@code opencl1.2} for 1.0, {@code opencl2.2} for 1.1 and 1.2), with one
   * exception: spirv-val's OpenCL tables lack the {@code Int64Atomics} capability that
   * {@code cl_khr_int64_base_atomics} devices accept, so a module with 64-bit atomics is checked
   * against the plain SPIR-V rules of its version ({@code spv1.2}).
   */
  public static String targetEnv(byte[] spv) {
    int[] w = SpirvModule.words(spv);
    int minor = w[1] >> 8 & 0xFF;
    if (SpirvDisassembler.capabilities(w).contains(Spv.CAP_INT64_ATOMICS)) return "spv1." + minor;
    return minor == 0 ? "opencl1.2" : minor <= 2 ? "opencl2.2" : "spv1." + minor;
  }

  /** spirv-val on {@code spv} in {@code env} (e.g. {@code opencl2.2}). */
  public static Result validate(byte[] spv, String env) {
    if (VAL == null) throw new IllegalStateException("spirv-val is not installed (Debian: apt-get install spirv-tools)");
    return run(spv, VAL.toString(), "--target-env", env, "-");
  }

  /** spirv-dis's text of {@code spv}. */
  public static Result disassemble(byte[] spv) {
    if (DIS == null) throw new IllegalStateException("spirv-dis is not installed (Debian: apt-get install spirv-tools)");
    return run(spv, DIS.toString(), "--no-color", "-");
  }

  /** spirv-dis's text when it is installed and succeeds, else LoopJIT's own disassembly. */
  public static String text(byte[] spv) {
    if (DIS != null) {
      Result r = disassemble(spv);
      if (r.ok()) return r.output();
    }
    return SpirvDisassembler.disassemble(spv);
  }

  static Result run(byte[] input, String... command) {
    try {
      Process p = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
      CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> {
        try {
          return p.getInputStream().readAllBytes();
        } catch (IOException e) {
          return ("cannot read the output of " + command[0] + ": " + e).getBytes(StandardCharsets.UTF_8);
        }
      });
      try (OutputStream in = p.getOutputStream()) {
        in.write(input);
      }
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return new Result(false, command[0] + " did not finish in 60 s");
      }
      return new Result(p.exitValue() == 0, new String(out.join(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + command[0] + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + command[0], e);
    }
  }

  /** An executable named {@code name} on the PATH, or null. */
  static Path find(String name) {
    String path = System.getenv("PATH");
    if (path == null) return null;
    List<Path> dirs = new ArrayList<>();
    for (String dir : path.split(java.io.File.pathSeparator)) if (!dir.isEmpty()) dirs.add(Path.of(dir));
    for (Path d : dirs) {
      Path p = d.resolve(name);
      if (Files.isExecutable(p)) return p;
    }
    return null;
  }
}
