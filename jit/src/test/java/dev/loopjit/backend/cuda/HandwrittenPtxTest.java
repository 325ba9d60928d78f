// The handwritten PTX the CUDA tests load: assembled by ptxas for sm_80 and sm_90 here, and checked against the parameter ABI.
package dev.loopjit.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loopjit.ir.KernelArg;
import dev.loopjit.ir.Prim;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ptxas (CUDA toolkit, {@code /usr/local/cuda/bin/ptxas} or on PATH) is the same PTX front end the
 * driver JITs with, so PTX it accepts loads on a GPU; it is needed only for this check, never at run
 * time. The ABI check reads each {@code .entry}'s {@code .param} list and compares it with what
 * {@link KernelParams} passes for the kernel's {@code ir.args()}.
 */
class HandwrittenPtxTest {
  @TempDir Path dir;

  static Path ptxas() {
    Path p = Path.of("/usr/local/cuda/bin/ptxas");
    if (Files.isExecutable(p)) return p;
    for (String d : System.getenv().getOrDefault("PATH", "").split(":"))
      if (!d.isEmpty() && Files.isExecutable(Path.of(d, "ptxas"))) return Path.of(d, "ptxas");
    return null;
  }

  /** Runs ptxas on {@code ptx} for {@code gpu}; returns its exit code and output. */
  static Map.Entry<Integer, String> assemble(Path ptxas, Path dir, String name, String ptx, String gpu)
      throws IOException, InterruptedException {
    Path f = dir.resolve(name + ".ptx");
    Files.writeString(f, ptx, StandardCharsets.UTF_8);
    Process p = new ProcessBuilder(ptxas.toString(), "--gpu-name", gpu, f.toString(), "-o", "/dev/null").redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "ptxas finished");
    return Map.entry(p.exitValue(), out);
  }

  @Test
  void everyKernelAssemblesForSm80AndSm90() throws Exception {
    Path ptxas = ptxas();
    assumeTrue(ptxas != null, "ptxas (CUDA toolkit) is not installed; only this check needs it");
    for (Map.Entry<String, String> k : HandwrittenPtx.allPtx().entrySet()) {
      if (k.getKey().equals("broken")) continue;
      for (String gpu : List.of("sm_80", "sm_90")) {
        Map.Entry<Integer, String> r = assemble(ptxas, dir, k.getKey(), k.getValue(), gpu);
        assertEquals(0, r.getKey(), k.getKey() + " for " + gpu + ":\n" + r.getValue());
        assertTrue(r.getValue().isBlank(), "no warnings for " + k.getKey() + ": " + r.getValue());
      }
    }
  }

  @Test
  void theBrokenKernelIsRefusedWithAMessageNamingTheProblem() throws Exception {
    Path ptxas = ptxas();
    assumeTrue(ptxas != null, "ptxas (CUDA toolkit) is not installed; only this check needs it");
    Map.Entry<Integer, String> r = assemble(ptxas, dir, "broken", HandwrittenPtx.allPtx().get("broken"), "sm_90");
    assertNotEquals(0, r.getKey());
    assertTrue(r.getValue().contains("undeclared_thing"), r.getValue());
  }

  private static final Pattern ENTRY = Pattern.compile("\\.entry\\s+(\\w+)\\s*\\(([^)]*)\\)");
  private static final Pattern PARAM = Pattern.compile("\\.param\\s+\\.(\\w+)\\s+\\w+");

  /** The PTX type KernelParams passes for an argument: width and kind must match the .param. */
  static String abiType(KernelArg a) {
    return switch (a) {
      case KernelArg.Array x -> "u64";
      case KernelArg.Length x -> "u32";
      case KernelArg.Count x -> "u32";
      case KernelArg.Local x -> "u64";
      case KernelArg.Computed x -> "u32";
      case KernelArg.Scalar s -> switch ((Prim) s.var().type()) {
        case BOOLEAN, BYTE, SHORT, CHAR, INT -> "u32";
        case LONG -> "u64";
        case FLOAT -> "f32";
        case DOUBLE -> "f64";
        case HALF -> throw new AssertionError("no half scalars");
      };
    };
  }

  /** u32, s32 and b32 are all a 4-byte integer slot; likewise for 64 bits. */
  private static String slot(String ptxType) {
    return switch (ptxType) {
      case "u32", "s32", "b32" -> "u32";
      case "u64", "s64", "b64" -> "u64";
      default -> ptxType;
    };
  }

  @Test
  void everyEntryTakesTheParametersKernelParamsPasses() {
    for (Map.Entry<String, String> k : HandwrittenPtx.allPtx().entrySet()) {
      Matcher m = ENTRY.matcher(k.getValue());
      assertTrue(m.find(), "an .entry in " + k.getKey());
      assertEquals(k.getKey(), m.group(1), "the entry is named after the IR");
      List<String> params = new ArrayList<>();
      Matcher p = PARAM.matcher(m.group(2));
      while (p.find()) params.add(slot(p.group(1)));
      List<KernelArg> args = HandwrittenPtx.kernel(k.getKey()).ir().args();
      assertEquals(args.stream().map(HandwrittenPtxTest::abiType).toList(), params, k.getKey());
    }
  }
}
