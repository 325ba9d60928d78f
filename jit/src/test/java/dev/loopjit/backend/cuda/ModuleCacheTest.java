// PTX to modules on a CUDA GPU: JIT errors with the driver's log, the in-memory cache, cubins on disk, the dump switch.
package dev.loopjit.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every test needs a CUDA GPU and skips (saying why) without one. */
class ModuleCacheTest {
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

  /** The handwritten kernels with a comment that makes their PTX new to every cache. */
  private static Recipe fresh() {
    return TaggedRecipe.fresh(HandwrittenPtx.SOURCE);
  }

  private static TaskSpec vadd(FloatArray a, FloatArray b, FloatArray c) {
    return CudaTesting.task("vadd", (Task3<FloatArray, FloatArray, FloatArray>) HandwrittenPtx::vadd, a, b, c);
  }

  private static DeviceRuntime.Prepared prepare(CudaDevice d, Recipe source, TaskSpec t) {
    try (CudaRuntime rt = new CudaRuntime(d, source, Settings.options())) {
      return rt.prepare(t);
    }
  }

  private List<Path> files(String suffix) throws IOException {
    Path dir = cache.resolve("cuda");
    if (!Files.isDirectory(dir)) return List.of();
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.toString().endsWith(suffix)).toList();
    }
  }

  private static void assertAdds(CudaDevice d, Recipe src) {
    int n = 1000;
    FloatArray a = new FloatArray(n), b = new FloatArray(n), c = new FloatArray(n);
    for (int i = 0; i < n; i++) {
      a.set(i, i);
      b.set(i, 2 * i);
    }
    try (Engine.Executor cu = new GraphRunner(new CudaRuntime(d, src, Settings.options()))) {
      CudaTesting.execute(cu, CudaTesting.graph(vadd(a, b, c), DataTransferMode.EVERY_EXECUTION, new Object[] {a, b}, new Object[] {c}), false);
    }
    for (int i = 0; i < n; i++) assertEquals(3f * i, c.get(i), "the module computes; index " + i);
  }

  @Test
  void aJitErrorCarriesTheDriversLogTheMethodAndThePtx() throws IOException {
    CudaDevice d = CudaTesting.device();
    for (String cacheDir : new String[] {cache.toString(), "off"}) {   // through the linker (cubin cache) and cuModuleLoadDataEx
      System.setProperty("loopjit.cacheDir", cacheDir);
      FloatArray a = new FloatArray(8), b = new FloatArray(8), c = new FloatArray(8);
      c.init(3f);
      TaskSpec t = CudaTesting.task("broken", (Task3<FloatArray, FloatArray, FloatArray>) HandwrittenPtx::broken, a, b, c);
      try (Engine.Executor cu = new GraphRunner(new CudaRuntime(d, fresh(), Settings.options()))) {
        KernelCompilationException e = assertThrows(KernelCompilationException.class, () -> CudaTesting.execute(cu,
            CudaTesting.graph(t, DataTransferMode.EVERY_EXECUTION, new Object[] {a, b, c}, new Object[] {c}), false));
        String m = e.getMessage();
        assertTrue(m.startsWith("HandwrittenPtx.broken"), m);
        assertTrue(m.contains("CUDA_ERROR_INVALID_PTX"), m);
        assertTrue(m.contains("undeclared_thing"), "the JIT log names the problem (cache " + cacheDir + "): " + m);
        assertTrue(m.contains("--- generated PTX ---") && m.contains(".entry broken"), m);
        assertTrue(m.contains(d.targetVariant()) && m.contains(d.id()), m);
        assertEquals(HandwrittenPtx.class.getName(), e.className());
        assertEquals("broken", e.methodName());
      }
      assertEquals(3f, c.get(0), "host array unchanged");
    }
    assertTrue(files(".cubin").isEmpty(), "nothing cached for PTX that does not compile");
  }

  @Test
  void theSecondPlanFindsTheModuleInMemory() {
    CudaDevice d = CudaTesting.device();
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
  void aFreshProcessLoadsTheCubinFromDisk() throws IOException {
    CudaDevice d = CudaTesting.device();
    Recipe src = fresh();
    TaskSpec t = vadd(new FloatArray(4), new FloatArray(4), new FloatArray(4));
    assertTrue(prepare(d, src, t).compiled());
    List<Path> cubins = files(".cubin");
    assertEquals(1, cubins.size(), "one cubin: " + cubins);
    assertEquals(1, files(".ptx").size());
    DeviceCode code = src.generate(t, null, Settings.options());
    assertEquals(code.text(), Files.readString(files(".ptx").get(0)));
    assertEquals(d.context().programs().key(code, "") + ".cubin", cubins.get(0).getFileName().toString());
    byte[] file = Files.readAllBytes(cubins.get(0));
    String header = new String(file, 0, Math.min(file.length, 200), StandardCharsets.ISO_8859_1);
    assertTrue(header.startsWith("LOOPJIT-CACHE 2\nkey=" + d.context().programs().key(code, "")), "a checked cache file");
    byte[] elf = Arrays.copyOfRange(file, header.indexOf("\n\n") + 2, file.length);
    assertTrue(elf.length > 4 && elf[0] == 0x7f && elf[1] == 'E' && elf[2] == 'L' && elf[3] == 'F', "a cubin is an ELF file");

    d.context().programs().clearMemory();   // as a new process would start
    DeviceRuntime.Prepared fromDisk = prepare(d, src, t);
    assertFalse(fromDisk.compiled(), "loaded from the disk cache");
    assertTrue(fromDisk.driverCompileNanos() > 0);

    d.context().programs().clearMemory();
    assertAdds(d, src);
    assertTrue(files(".tmp").isEmpty(), "no temporary files left");
  }

  @Test
  void aCubinThatNoLongerLoadsIsRelinkedAndOverwritten() throws IOException {
    CudaDevice d = CudaTesting.device();
    Recipe src = fresh();
    TaskSpec t = vadd(new FloatArray(4), new FloatArray(4), new FloatArray(4));
    assertTrue(prepare(d, src, t).compiled());
    Path cubin = files(".cubin").get(0);
    byte[] junk = "not a cubin".getBytes(StandardCharsets.UTF_8);
    Files.write(cubin, junk);
    d.context().programs().clearMemory();
    assertTrue(prepare(d, src, t).compiled(), "relinked from PTX");
    byte[] now = Files.readAllBytes(cubin);
    String text = new String(now, StandardCharsets.ISO_8859_1);
    assertTrue(text.startsWith("LOOPJIT-CACHE 2\n") && now[text.indexOf("\n\n") + 2] == 0x7f, "overwritten with a real cubin");
    d.context().programs().clearMemory();
    assertFalse(prepare(d, src, t).compiled(), "and the new cubin loads");
    d.context().programs().clearMemory();
    assertAdds(d, src);
  }

  @Test
  void withTheDiskCacheOffNothingIsWrittenAndPtxLoadsDirectly() throws IOException {
    CudaDevice d = CudaTesting.device();
    System.setProperty("loopjit.cacheDir", "off");
    Recipe src = fresh();
    TaskSpec t = vadd(new FloatArray(4), new FloatArray(4), new FloatArray(4));
    assertTrue(prepare(d, src, t).compiled());
    d.context().programs().clearMemory();
    assertTrue(prepare(d, src, t).compiled(), "no disk cache: compiled again");
    assertTrue(files(".cubin").isEmpty());
    d.context().programs().clearMemory();
    assertAdds(d, src);
  }

  @Test
  void theKeyDependsOnThePtxAndTheDevice() {
    CudaDevice d = CudaTesting.device();
    var m = d.context().programs();
    DeviceCode ptx = HandwrittenPtx.kernel("vadd");
    DeviceCode changed = DeviceCode.text(ptx.ir(), "ptx", ptx.text() + "\n");
    assertEquals(m.key(ptx, ""), m.key(ptx, ""), "stable");
    assertNotEquals(m.key(ptx, ""), m.key(changed, ""), "any change to the PTX");
    assertEquals(64, m.key(ptx, "").length(), "SHA-256 in hex");
  }

  @Test
  void theDumpSwitchPrintsThePtxWhenAModuleIsLoaded() {
    CudaDevice d = CudaTesting.device();
    System.setProperty("loopjit.dump", "ptx");
    Recipe src = fresh();
    TaskSpec t = vadd(new FloatArray(4), new FloatArray(4), new FloatArray(4));
    String ptx = src.generate(t, null, Settings.options()).text();
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
    assertTrue(first.toString(StandardCharsets.UTF_8).contains(ptx), first.toString(StandardCharsets.UTF_8));
    assertFalse(second.toString(StandardCharsets.UTF_8).contains(".entry"), "not on an in-memory hit");
  }

  @Test
  void everyDeviceGetsItsOwnContextAndComputes() {
    CudaDevice first = CudaTesting.device();
    for (dev.loopjit.api.Device other : CudaTesting.backend().devices(Settings.options())) {
      CudaDevice d = (CudaDevice) other;
      assertAdds(d, fresh());
      if (d != first) assertNotEquals(first.context(), d.context(), "a context per device");
    }
  }
}
