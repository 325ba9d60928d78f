// Runs ptxas, CUDA's PTX assembler, on generated PTX: the check every kernel gets on machines with no GPU.
package dev.loopjit.backend.cuda;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Finds {@code ptxas} ({@code /usr/local/cuda/bin/ptxas}, then the PATH) and assembles PTX text
 * for one {@code sm_XX}, discarding the binary.
 *
 * <pre>{@code
 * Assumptions.assumeTrue(Ptxas.present(), "ptxas is not installed");
 * Ptxas.Result r = Ptxas.assemble(ptx, "sm_90");
 * assertTrue(r.ok(), r.output());
 * }</pre>
 */
public final class Ptxas {
  private static final Path FOUND = locate();

  private Ptxas() {}

  /** What ptxas said: {@code ok} when it exited with 0; {@code output} is its messages (warnings or errors). */
  public record Result(boolean ok, String output) {}

  /** Whether ptxas is installed here. */
  public static boolean present() {
    return FOUND != null;
  }

  /** The ptxas executable, or null. */
  public static Path path() {
    return FOUND;
  }

  /** Assembles {@code ptx} for {@code sm} (e.g. "sm_90"). */
  public static Result assemble(String ptx, String sm) {
    return run(ptx, sm, null, false);
  }

  /**
   * What one function of a module costs, as {@code ptxas -v} reports it: registers per thread,
   * stack frame, spill stores and loads, and static shared memory, in bytes.
   */
  public record Usage(String function, int registers, int stack, int spillStores, int spillLoads, int shared) {
    /** Whether the register allocator spilled: registers went to local memory, which on a GPU is as slow as global. */
    public boolean spills() {
      return spillStores > 0 || spillLoads > 0;
    }
  }

  /** The usage of each entry function of {@code ptx} assembled for {@code sm}; fails with ptxas's message when it does not assemble. */
  public static java.util.List<Usage> usage(String ptx, String sm) {
    Result r = run(ptx, sm, null, true);
    if (!r.ok()) throw new IllegalStateException("ptxas failed: " + r.output());
    java.util.List<Usage> out = new java.util.ArrayList<>();
    java.util.regex.Matcher entry = java.util.regex.Pattern.compile("Compiling entry function '([^']+)'").matcher(r.output());
    java.util.List<Integer> starts = new java.util.ArrayList<>();
    java.util.List<String> names = new java.util.ArrayList<>();
    while (entry.find()) {
      starts.add(entry.start());
      names.add(entry.group(1));
    }
    for (int i = 0; i < names.size(); i++) {   // each entry's lines run to the next entry's
      String part = r.output().substring(starts.get(i), i + 1 < names.size() ? starts.get(i + 1) : r.output().length());
      out.add(new Usage(names.get(i), number(part, "Used (\\d+) registers"), number(part, "(\\d+) bytes stack frame"),
          number(part, "(\\d+) bytes spill stores"), number(part, "(\\d+) bytes spill loads"), number(part, "(\\d+) bytes smem")));
    }
    return out;
  }

  private static int number(String text, String regex) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(regex).matcher(text);
    return m.find() ? Integer.parseInt(m.group(1)) : 0;
  }

  /** Assembles {@code ptx} for {@code sm} and returns the cubin (an ELF file); fails with ptxas's message. */
  public static byte[] cubin(String ptx, String sm) {
    Path out = null;
    try {
      out = Files.createTempFile("loopjit-", ".cubin");
      Result r = run(ptx, sm, out, false);
      if (!r.ok()) throw new IllegalStateException("ptxas failed: " + r.output());
      return Files.readAllBytes(out);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the cubin: " + e.getMessage(), e);
    } finally {
      delete(out);
    }
  }

  private static Result run(String ptx, String sm, Path output, boolean verbose) {
    if (FOUND == null) throw new IllegalStateException("ptxas is not installed");
    Path file = null;
    try {
      file = Files.createTempFile("loopjit-", ".ptx");
      Files.writeString(file, ptx, StandardCharsets.UTF_8);
      java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of(FOUND.toString(), "--gpu-name", sm, file.toString(),
          "-o", output == null ? "/dev/null" : output.toString()));
      if (verbose) command.add("-v");
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return new Result(false, "ptxas did not finish in 120 s");
      }
      String text = new String(out, StandardCharsets.UTF_8);
      return new Result(p.exitValue() == 0, text);
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + FOUND + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running ptxas", e);
    } finally {
      delete(file);
    }
  }

  private static void delete(Path file) {
    if (file == null) return;
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      System.err.println("Ptxas: could not delete " + file + ": " + e.getMessage());
    }
  }

  private static Path locate() {
    Path cuda = Path.of("/usr/local/cuda/bin/ptxas");
    if (Files.isExecutable(cuda)) return cuda;
    String path = System.getenv("PATH");
    if (path == null) return null;
    for (String dir : path.split(java.io.File.pathSeparator)) {
      if (dir.isEmpty()) continue;
      Path p = Path.of(dir, "ptxas");
      if (Files.isExecutable(p)) return p;
    }
    return null;
  }
}
