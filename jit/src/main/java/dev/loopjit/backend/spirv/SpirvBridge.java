// SPIR-V to LLVM SPIR 1.2 bitcode through the Khronos translator (llvm-spirv-15), for OpenCL devices that take SPIR but no IL.
package dev.loopjit.backend.spirv;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Translates a SPIR-V module into SPIR 1.2 bitcode with {@code llvm-spirv-15 -r
 * --spirv-target-env=CL1.2}, which an OpenCL device with {@code cl_khr_spir} builds from
 * {@code clCreateProgramWithBinary} and the options {@code -x spir -spir-std=1.2}. This is how
 * SPIR-V runs on PoCL builds without SPIR-V support (Debian's PoCL 3.1 reports no IL version, but
 * its LLVM 15 reads SPIR). It is an opt-in of the OpenCL runtime
 * ({@code -Dloopjit.spirv.bridge=llvm-spirv}), never a silent fallback, and the only place LoopJIT
 * runs a native tool for a kernel. The translator must use the LLVM version of the driver (15 for
 * PoCL 3.1): bitcode from a newer LLVM does not load into an older one.
 *
 * <pre>{@code
 * byte[] bitcode = SpirvBridge.toBitcode(SpirvEmitter.emit(ir, target));
 * }</pre>
 */
public final class SpirvBridge {
  /** The Debian package with the translator. */
  public static final String PACKAGE = "llvm-spirv-15";
  /** The build options a SPIR 1.2 binary needs. */
  public static final String BUILD_OPTIONS = "-x spir -spir-std=1.2";

  private static final List<String> NAMES = List.of("llvm-spirv-15", "llvm-spirv");
  private static final Path TOOL = locate();

  private SpirvBridge() {}

  /** The translator, or null when it is not installed. */
  public static Path tool() {
    return TOOL;
  }

  /** What {@link #problem()} says where the translator is missing. */
  public static final String MISSING = "the SPIR-V to SPIR bridge needs llvm-spirv-15 on the PATH (Debian: apt-get install " + PACKAGE + ")";

  /** Why the bridge cannot run here, or null when it can. */
  public static String problem() {
    return TOOL != null ? null : MISSING;
  }

  /** SPIR 1.2 bitcode of {@code spv}; throws IllegalStateException with the translator's message when it fails or is missing. */
  public static byte[] toBitcode(byte[] spv) {
    String p = problem();
    if (p != null) throw new IllegalStateException(p);
    Path dir = null;
    try {
      dir = Files.createTempDirectory("loopjit-spirv-");
      Path in = dir.resolve("kernel.spv"), out = dir.resolve("kernel.bc");
      Files.write(in, spv);
      Process proc = new ProcessBuilder(TOOL.toString(), "-r", "--spirv-target-env=CL1.2", in.toString(), "-o", out.toString())
          .redirectErrorStream(true).start();
      proc.getOutputStream().close();
      byte[] said = proc.getInputStream().readAllBytes();
      if (!proc.waitFor(120, TimeUnit.SECONDS)) {
        proc.destroyForcibly();
        throw new IllegalStateException(TOOL + " did not finish in 120 s");
      }
      if (proc.exitValue() != 0 || !Files.isRegularFile(out))
        throw new IllegalStateException(TOOL + " -r --spirv-target-env=CL1.2 failed (exit " + proc.exitValue() + "):\n"
            + abbreviate(new String(said, StandardCharsets.UTF_8)));
      return Files.readAllBytes(out);
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + TOOL + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + TOOL, e);
    } finally {
      delete(dir);
    }
  }

  /** The translator's message without the stack dump an assertion in it prints. */
  private static String abbreviate(String said) {
    int dump = said.indexOf("PLEASE submit a bug report");
    String s = dump > 0 ? said.substring(0, dump) + "(stack dump omitted)" : said;
    return s.length() > 4000 ? s.substring(0, 4000) + "..." : s;
  }

  private static void delete(Path dir) {
    if (dir == null) return;
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(f);
    } catch (IOException e) {
      System.getLogger("dev.loopjit.backend.spirv").log(System.Logger.Level.WARNING, "cannot delete " + dir + ": " + e);
    }
  }

  private static Path locate() {
    for (String n : NAMES) {
      Path p = SpirvTools.find(n);
      if (p != null) return p;
    }
    return null;
  }
}
