// Building kernels: build errors with their log, the in-process cache, the disk cache of device binaries, and the dump switch.
package dev.loopjit.backend.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Engine;
import dev.loopjit.api.GridScheduler;
import dev.loopjit.api.KernelCompilationException;
import dev.loopjit.api.Task3;
import dev.loopjit.runtime.GraphRunner;
import dev.loopjit.runtime.Settings;
import dev.loopjit.spi.DeviceCode;
import dev.loopjit.spi.DeviceRuntime;
import dev.loopjit.spi.Recipe;
import dev.loopjit.spi.TaskSpec;
import dev.loopjit.testing.TaggedRecipe;
import dev.loopjit.types.FloatArray;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProgramCacheTest {
  private static final Engine.ExecutionOptions OPTIONS = new Engine.ExecutionOptions(false, new GridScheduler());
  @TempDir Path cache;
  private String savedCacheDir, savedDump;

  @BeforeEach
  void privateCache() {
    savedCacheDir = System.getProperty("loopjit.cacheDir");
    savedDump = System.getProperty("loopjit.dump");
    System.setProperty("loopjit.cacheDir", cache.toString());
  }

  @AfterEach
  void restore() {
    restore("loopjit.cacheDir", savedCacheDir);
    restore("loopjit.dump", savedDump);
  }

  private static void restore(String key, String value) {
    if (value == null) System.clearProperty(key);
    else System.setProperty(key, value);
  }

  /** The handwritten kernels with a comment that makes their source new to every cache. */
  private static Recipe fresh() {
    return TaggedRecipe.fresh(HandwrittenKernels.SOURCE);
  }

  private static TaskSpec vadd(FloatArray a, FloatArray b, FloatArray c) {
    return OpenClTesting.task("vadd", (Task3<FloatArray, FloatArray, FloatArray>) HandwrittenKernels::vadd, a, b, c);
  }

  private static DeviceRuntime.Prepared prepare(OpenClDevice d, Recipe source, TaskSpec t) {
    try (OpenClRuntime rt = new OpenClRuntime(d, source, Settings.options())) {
      return rt.prepare(t);
    }
  }

  private List<Path> files(String suffix) throws IOException {
    Path dir = cache.resolve("opencl");
    if (!Files.isDirectory(dir)) return List.of();
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.toString().endsWith(suffix)).toList();
    }
  }

  @Test
  void aBuildErrorCarriesTheLogTheMethodAndTheSource() {
    OpenClDevice d = OpenClTesting.device();
    FloatArray a = new FloatArray(8), b = new FloatArray(8), c = new FloatArray(8);
    c.init(3f);
    TaskSpec t = OpenClTesting.task("broken", (Task3<FloatArray, FloatArray, FloatArray>) HandwrittenKernels::broken, a, b, c);
    try (Engine.Executor cl = new GraphRunner(new OpenClRuntime(d, HandwrittenKernels.SOURCE, Settings.options()))) {
      KernelCompilationException e = assertThrows(KernelCompilationException.class, () -> OpenClTesting.execute(cl,
          OpenClTesting.graph(t, DataTransferMode.EVERY_EXECUTION, new Object[] {a, b, c}, new Object[] {c}), false));
      String m = e.getMessage();
      assertTrue(m.startsWith("HandwrittenKernels.broken"), m);
      assertTrue(m.contains("CL_BUILD_PROGRAM_FAILURE"), m);
      assertTrue(m.contains("undeclared_thing") && m.contains("error"), "the build log: " + m);
      assertTrue(m.contains("--- generated OpenCL C ---") && m.contains("__kernel void broken"), m);
      assertEquals(HandwrittenKernels.class.getName(), e.className());
      assertEquals("broken", e.methodName());
    }
    assertEquals(3f, c.get(0), "host array unchanged");
  }

  @Test
  void theSecondPlanFindsTheProgramInMemory() {
    OpenClDevice d = OpenClTesting.device();
    Recipe src = fresh();
    TaskSpec t = vadd(new FloatArray(4), new FloatArray(4), new FloatArray(4));
    DeviceRuntime.Prepared first = prepare(d, src, t);
    assertTrue(first.compiled());
    assertTrue(first.driverCompileNanos() > 0);
    DeviceRuntime.Prepared second = prepare(d, src, t);
    assertFalse(second.compiled());
    assertEquals(0, second.driverCompileNanos());
  }

  @Test
  void aFreshProcessLoadsTheBinaryFromDisk() throws IOException {
    OpenClDevice d = OpenClTesting.device();
    Recipe src = fresh();
    int n = 1000;
    FloatArray a = new FloatArray(n), b = new FloatArray(n), c = new FloatArray(n);
    for (int i = 0; i < n; i++) {
      a.set(i, i);
      b.set(i, 2 * i);
    }
    TaskSpec t = vadd(a, b, c);
    assertTrue(prepare(d, src, t).compiled());
    List<Path> bins = files(".bin");
    assertEquals(1, bins.size(), "one binary: " + bins);
    assertEquals(1, files(".cl").size());
    assertEquals(src.generate(t, null, Settings.options()).text(), Files.readString(files(".cl").get(0)));

    d.context().programs().clearMemory();   // as a new process would start
    DeviceRuntime.Prepared fromDisk = prepare(d, src, t);
    assertFalse(fromDisk.compiled(), "loaded from the disk cache");
    assertTrue(fromDisk.driverCompileNanos() > 0);

    d.context().programs().clearMemory();
    try (Engine.Executor cl = new GraphRunner(new OpenClRuntime(d, src, Settings.options()))) {
      OpenClTesting.execute(cl, OpenClTesting.graph(t, DataTransferMode.EVERY_EXECUTION, new Object[] {a, b}, new Object[] {c}), false);
    }
    for (int i = 0; i < n; i++) assertEquals(3f * i, c.get(i), "the binary from disk computes");
    assertTrue(files(".tmp").isEmpty(), "no temporary files left");
  }

  @Test
  void aBinaryThatNoLongerLoadsIsRebuiltAndOverwritten() throws IOException {
    OpenClDevice d = OpenClTesting.device();
    Recipe src = fresh();
    TaskSpec t = vadd(new FloatArray(4), new FloatArray(4), new FloatArray(4));
    assertTrue(prepare(d, src, t).compiled());
    Path bin = files(".bin").get(0);
    byte[] good = Files.readAllBytes(bin);
    byte[] junk = "not a device binary".getBytes(StandardCharsets.UTF_8);
    Files.write(bin, junk);
    d.context().programs().clearMemory();
    assertTrue(prepare(d, src, t).compiled(), "rebuilt from source");
    byte[] now = Files.readAllBytes(bin);
    assertTrue(now.length > 0 && !Arrays.equals(junk, now), "overwritten with a real binary");
    assertEquals(good.length > 0, now.length > 0);
    d.context().programs().clearMemory();
    assertFalse(prepare(d, src, t).compiled(), "and the new binary loads");
  }

  /**
   * Damaged cache files (truncated at 10-90 %, random bytes, another kernel's valid file copied
   * over) are never given to the driver (PoCL crashed on them and poisoned its own cache): each is
   * deleted and rebuilt, and the kernel computes.
   */
  @Test
  void aDamagedOrSwappedBinaryIsNeverHandedToTheDriver() throws IOException {
    OpenClDevice d = OpenClTesting.device();
    Recipe src = fresh(), other = fresh();
    int n = 64;
    FloatArray a = new FloatArray(n), b = new FloatArray(n), c = new FloatArray(n);
    for (int i = 0; i < n; i++) {
      a.set(i, i);
      b.set(i, 2f * i);
    }
    TaskSpec t = vadd(a, b, c);
    assertTrue(prepare(d, other, t).compiled());
    byte[] otherFile = Files.readAllBytes(files(".bin").get(0));
    assertTrue(prepare(d, src, t).compiled());
    Path bin = files(".bin").stream().filter(p -> !Arrays.equals(read(p), otherFile)).findFirst().orElseThrow();
    byte[] good = Files.readAllBytes(bin);
    java.util.Random random = new java.util.Random(7);
    List<byte[]> damage = new ArrayList<>();
    for (int percent = 10; percent <= 90; percent += 40) damage.add(Arrays.copyOf(good, good.length * percent / 100));
    byte[] noise = new byte[256];
    random.nextBytes(noise);
    damage.add(noise);
    byte[] flipped = good.clone();
    flipped[flipped.length - 10] ^= 0x5a;
    damage.add(flipped);
    damage.add(otherFile);
    for (byte[] bad : damage) {
      Files.write(bin, bad);
      d.context().programs().clearMemory();
      assertTrue(prepare(d, src, t).compiled(), "rebuilt from source, not loaded");
      d.context().programs().clearMemory();
      assertFalse(prepare(d, src, t).compiled(), "the rewritten binary verifies and loads");
      c.init(0f);
      try (Engine.Executor cl = new GraphRunner(new OpenClRuntime(d, src, Settings.options()))) {
        OpenClTesting.execute(cl, OpenClTesting.graph(t, DataTransferMode.EVERY_EXECUTION, new Object[] {a, b}, new Object[] {c}), false);
      }
      for (int i = 0; i < n; i++) assertEquals(3f * i, c.get(i), "computes after the damage");
    }
  }

  private static byte[] read(Path p) {
    try {
      return Files.readAllBytes(p);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void withTheDiskCacheOffNothingIsWritten() throws IOException {
    OpenClDevice d = OpenClTesting.device();
    System.setProperty("loopjit.cacheDir", "off");
    Recipe src = fresh();
    TaskSpec t = vadd(new FloatArray(4), new FloatArray(4), new FloatArray(4));
    assertTrue(prepare(d, src, t).compiled());
    d.context().programs().clearMemory();
    assertTrue(prepare(d, src, t).compiled(), "no disk cache: built again");
    assertTrue(files(".bin").isEmpty());
  }

  @Test
  void theDumpSwitchPrintsTheSourceWhenAKernelIsBuilt() {
    OpenClDevice d = OpenClTesting.device();
    System.setProperty("loopjit.dump", "opencl");
    Recipe src = fresh();
    TaskSpec t = vadd(new FloatArray(4), new FloatArray(4), new FloatArray(4));
    String source = src.generate(t, null, Settings.options()).text();
    PrintStream out = System.out;
    ByteArrayOutputStream first = new ByteArrayOutputStream(), second = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(first, true, StandardCharsets.UTF_8));
      prepare(d, src, t);
      System.setOut(new PrintStream(second, true, StandardCharsets.UTF_8));
      prepare(d, src, t);
    } finally {
      System.setOut(out);
    }
    assertTrue(first.toString(StandardCharsets.UTF_8).contains(source), first.toString(StandardCharsets.UTF_8));
    assertFalse(second.toString(StandardCharsets.UTF_8).contains("__kernel"), "not on an in-memory hit");
  }

  @Test
  void buildOptionsFollowTheDeviceAndFastMath() {
    OpenClDevice d = OpenClTesting.device();
    Recipe src = fresh();
    TaskSpec t = vadd(new FloatArray(4), new FloatArray(4), new FloatArray(4));
    DeviceCode tag = src.generate(t, null, Settings.options());
    prepare(d, src, t);
    String strict = "-cl-std=CL1.2" + (d.correctlyRoundedDivideSqrt() ? " -cl-fp32-correctly-rounded-divide-sqrt" : "");
    assertTrue(d.context().programs().cached(tag, strict) != null, "built with " + strict);
    String saved = System.getProperty("loopjit.fastMath");
    System.setProperty("loopjit.fastMath", "true");
    try {
      prepare(d, src, t);
      assertTrue(d.context().programs().cached(tag, strict + " -cl-fast-relaxed-math") != null);
    } finally {
      restore("loopjit.fastMath", saved);
    }
  }
}
