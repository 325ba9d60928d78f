// PoCL's own cache lives under LoopJIT's cache directory, and a damaged LoopJIT binary empties it before the rebuild.
package dev.loopjit.backend.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each run is a fresh JVM ({@link PoclCacheChild}), as PoCL reads its settings once, when it loads:
 * with the environment free of PoCL's variables, LoopJIT gives PoCL {@code <cacheDir>/pocl}. When
 * LoopJIT's own binary is damaged, every file PoCL cached is damaged too: the next process must
 * still compute, because LoopJIT empties PoCL's directory before it rebuilds.
 */
class DriverCacheDirTest {
  @TempDir Path cache;

  private record Run(int exit, String out) {}

  private Run child(String... extraEnv) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--enable-native-access=ALL-UNNAMED", "-Dloopjit.cacheDir=" + cache, "-Dloopjit.backends=jvm,opencl",
        "-Dloopjit.opencl.program=source", "-cp", Path.of("target", "classes") + java.io.File.pathSeparator + Path.of("target", "test-classes"),
        PoclCacheChild.class.getName()));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    Map<String, String> env = pb.environment();
    env.remove("POCL_CACHE_DIR");
    env.remove("POCL_KERNEL_CACHE");
    for (int i = 0; i + 1 < extraEnv.length; i += 2) env.put(extraEnv[i], extraEnv[i + 1]);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Run(p.waitFor(), out);
  }

  private static List<Path> files(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) return List.of();
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).toList();
    }
  }

  private static void assumePocl() {
    assumeTrue(OpenClTesting.device().name().toLowerCase(java.util.Locale.ROOT).contains("pthread")
        || OpenClTesting.device().describe().toLowerCase(java.util.Locale.ROOT).contains("pocl"), "opencl:0 is not PoCL");
  }

  @Test
  void poclCachesUnderLoopJitsDirectoryAndADamagedBinaryEmptiesItBeforeTheRebuild() throws Exception {
    assumePocl();
    Run first = child();
    assertEquals(0, first.exit(), first.out());
    assertTrue(first.out().contains("OK"), first.out());
    Path pocl = cache.resolve("pocl");
    List<Path> poclFiles = files(pocl);
    assertFalse(poclFiles.isEmpty(), "PoCL cached nothing under " + pocl);
    List<Path> ours = files(cache.resolve("opencl")).stream().filter(p -> p.toString().endsWith(".bin")).toList();
    assertEquals(1, ours.size(), ours.toString());

    // Damage LoopJIT's binary and every file PoCL keeps: the rebuild must not meet one of them.
    Files.write(ours.get(0), new byte[] {1, 2, 3});
    Map<Path, byte[]> damaged = new java.util.HashMap<>();
    for (Path f : poclFiles) {
      byte[] b = Files.readAllBytes(f);
      if (b.length == 0) continue;   // PoCL's empty marker files (last_accessed): nothing to damage
      damaged.put(f, java.util.Arrays.copyOf(b, b.length / 2));
      Files.write(f, damaged.get(f));
    }
    assertFalse(damaged.isEmpty());
    Run second = child();
    assertEquals(0, second.exit(), second.out());
    assertTrue(second.out().contains("OK"), second.out());
    for (Path f : files(pocl))
      assertFalse(damaged.containsKey(f) && java.util.Arrays.equals(damaged.get(f), Files.readAllBytes(f)), "a damaged file survived: " + f);
    try (Stream<Path> s = Files.list(cache)) {
      assertTrue(s.noneMatch(p -> p.getFileName().toString().startsWith("pocl.discarded")), "the old directory was deleted");
    }
    assertFalse(files(pocl).isEmpty(), "PoCL cached again");

    // A third process loads LoopJIT's rewritten binary.
    Run third = child();
    assertEquals(0, third.exit(), third.out());
  }

  @Test
  void aPoclCacheDirInTheEnvironmentIsLeftAlone() throws Exception {
    assumePocl();
    Path theirs = cache.resolve("theirs");
    Run r = child("POCL_CACHE_DIR", theirs.toString());
    assertEquals(0, r.exit(), r.out());
    assertFalse(Files.exists(cache.resolve("pocl")), "LoopJIT chose no directory");
    assertFalse(files(theirs).isEmpty(), "PoCL used the user's directory");
  }
}
