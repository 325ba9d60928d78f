// SPIR-V on OpenCL devices: which form a device builds, the bridge, the disk cache by form, the dump, and build errors with their log.
package dev.loopjit.backend.opencl;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Engine;
import dev.loopjit.api.Task3;
import dev.loopjit.backend.spirv.SpirvBridge;
import dev.loopjit.backend.spirv.SpirvTestModules;
import dev.loopjit.runtime.GraphRunner;
import dev.loopjit.runtime.Settings;
import dev.loopjit.spi.BuildFailure;
import dev.loopjit.spi.DeviceCode;
import dev.loopjit.spi.DeviceRuntime;
import dev.loopjit.spi.Options;
import dev.loopjit.spi.TaskSpec;
import dev.loopjit.types.FloatArray;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpirvProgramsTest {
  private static final List<String> SETTINGS = List.of("loopjit.cacheDir", "loopjit.dump", "loopjit.opencl.program", "loopjit.spirv.bridge");
  /** A header, then an OpCapability that says it has five words and has one. */
  private static final byte[] TRUNCATED = {3, 2, 35, 7, 0, 2, 1, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 17, 0, 5, 0};
  @TempDir Path cache;
  private final Map<String, String> saved = new HashMap<>();

  @BeforeEach
  void privateSettings() {
    for (String k : SETTINGS) saved.put(k, System.getProperty(k));
    for (String k : SETTINGS) System.clearProperty(k);
    System.setProperty("loopjit.cacheDir", cache.toString());
  }

  @AfterEach
  void restore() {
    for (String k : SETTINGS) {
      if (saved.get(k) == null) System.clearProperty(k);
      else System.setProperty(k, saved.get(k));
    }
  }

  private static void spirvThroughTheBridge() {
    System.setProperty("loopjit.opencl.program", "spirv");
    System.setProperty("loopjit.spirv.bridge", "llvm-spirv");
  }

  /** opencl:0 when it needs the bridge and the bridge can run, else a skip saying why not. */
  private static OpenClDevice bridgedDevice() {
    OpenClDevice d = OpenClTesting.device();
    assumeTrue(ProgramForm.spirvVersion(d.ilVersion()) == null, d + " takes SPIR-V itself; these tests are about the bridge");
    assumeTrue(d.extensions().contains("cl_khr_spir"), d + " has no cl_khr_spir for the bridge");
    assumeTrue(SpirvBridge.problem() == null, SpirvBridge.problem());
    return d;
  }

  private static TaskSpec vadd(FloatArray a, FloatArray b, FloatArray c) {
    return OpenClTesting.task("vadd", (Task3<FloatArray, FloatArray, FloatArray>) HandwrittenKernels::vadd, a, b, c);
  }

  /** A runtime on {@code d} for the current settings, as a plan gets one. */
  private static DeviceRuntime runtime(OpenClDevice d) {
    return OpenClTesting.backend().open(d, Settings.options());
  }

  private static DeviceRuntime.Prepared prepare(OpenClDevice d, TaskSpec t) {
    try (DeviceRuntime rt = runtime(d)) {
      return rt.prepare(t);
    }
  }

  /** Builds a module as the bridge would, with the disk cache off. */
  private static void buildThroughTheBridge(OpenClDevice d, byte[] module) {
    d.context().programs().build(DeviceCode.binary(null, "spirv", "(module)", module), SpirvBridge.BUILD_OPTIONS,
        Options.DEFAULTS.with("cacheDir", "off"));
  }

  private List<Path> files(String suffix) throws IOException {
    Path dir = cache.resolve("opencl");
    if (!Files.isDirectory(dir)) return List.of();
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.toString().endsWith(suffix)).toList();
    }
  }

  @Test
  void theVersionIsTheNewestTheDeviceListsUpTo12() {
    assertNull(ProgramForm.spirvVersion(""));
    assertNull(ProgramForm.spirvVersion("SPIR_1.2"));
    assertEquals("1.0", ProgramForm.spirvVersion("SPIR-V_1.0"));
    assertEquals("1.2", ProgramForm.spirvVersion("SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4 SPIR-V_1.5"));
    assertEquals("1.1", ProgramForm.spirvVersion(" SPIR-V_1.1 SPIR-V_1.0 "));
  }

  @Test
  void openClCIsTheDefaultAndBadSettingsAreRefused() {
    OpenClDevice d = OpenClTesting.device();
    assertEquals(ProgramForm.SOURCE, ProgramForm.of(d, Settings.options()));
    System.setProperty("loopjit.opencl.program", "ptx");
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ProgramForm.of(d, Settings.options())).getMessage().contains("source (OpenCL C) or spirv"));
    System.setProperty("loopjit.opencl.program", "spirv");
    System.setProperty("loopjit.spirv.bridge", "clang");
    if (ProgramForm.spirvVersion(d.ilVersion()) == null)
      assertTrue(assertThrows(IllegalArgumentException.class, () -> ProgramForm.of(d, Settings.options())).getMessage().contains("use llvm-spirv"));
  }

  @Test
  void spirvOnADeviceWithoutIlNeedsTheBridgeAskedFor() {
    OpenClDevice d = OpenClTesting.device();
    assumeTrue(ProgramForm.spirvVersion(d.ilVersion()) == null, d + " takes SPIR-V itself");
    System.setProperty("loopjit.opencl.program", "spirv");
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> ProgramForm.of(d, Settings.options()));
    assertTrue(e.getMessage().contains(d.id()) && e.getMessage().contains("CL_DEVICE_IL_VERSION"), e.getMessage());
    if (d.extensions().contains("cl_khr_spir"))
      assertTrue(e.getMessage().contains("-Dloopjit.spirv.bridge=llvm-spirv") && e.getMessage().contains("llvm-spirv-15"), e.getMessage());
    FloatArray a = new FloatArray(4);
    RuntimeException r = assertThrows(RuntimeException.class, () -> runtime(d));   // a plan says so before it runs anything
    assertTrue(r.getMessage().contains("CL_DEVICE_IL_VERSION"), r.getMessage());
    assertEquals(0f, a.get(0));
    System.setProperty("loopjit.spirv.bridge", "llvm-spirv");
    if (d.extensions().contains("cl_khr_spir") && SpirvBridge.problem() == null) assertEquals(ProgramForm.SPIRV_BRIDGE, ProgramForm.of(d, Settings.options()));
  }

  @Test
  void theBridgeSaysWhichPackageItNeeds() {
    assertTrue(SpirvBridge.MISSING.contains("llvm-spirv-15") && SpirvBridge.MISSING.contains("apt-get install llvm-spirv-15"), SpirvBridge.MISSING);
  }

  @Test
  void aKernelRunsFromSpirvAndItsBinaryIsCachedApartFromOpenClC() throws IOException {
    OpenClDevice d = bridgedDevice();
    int n = 1000;
    FloatArray a = new FloatArray(n), b = new FloatArray(n), c = new FloatArray(n);
    for (int i = 0; i < n; i++) {
      a.set(i, i);
      b.set(i, 2 * i);
    }
    TaskSpec t = vadd(a, b, c);
    d.context().programs().clearMemory();
    d.context().programs().clearMemory();
    assertTrue(prepare(d, t).compiled(), "OpenCL C first");
    spirvThroughTheBridge();
    DeviceRuntime.Prepared first = prepare(d, t);
    assertTrue(first.compiled(), "the SPIR-V program is another program");
    assertTrue(first.driverCompileNanos() > 0);
    assertEquals(2, files(".bin").size(), "one binary per form");
    assertEquals(1, files(".cl").size());
    assertEquals(1, files(".spvasm").size());
    assertTrue(Files.readString(files(".spvasm").get(0)).contains("OpEntryPoint Kernel"), "the module's text, for reading");

    assertFalse(prepare(d, t).compiled(), "in memory");
    d.context().programs().clearMemory();     // as a new process would start
    assertFalse(prepare(d, t).compiled(), "loaded from the disk cache");
    d.context().programs().clearMemory();
    try (Engine.Executor cl = new GraphRunner(runtime(d))) {
      OpenClTesting.execute(cl, OpenClTesting.graph(t, DataTransferMode.EVERY_EXECUTION, new Object[] {a, b}, new Object[] {c}), false);
    }
    for (int i = 0; i < n; i++) assertEquals(3f * i, c.get(i), "the binary from disk computes");
  }

  @Test
  void theDumpSwitchPrintsTheModuleWhenItIsBuilt() {
    OpenClDevice d = bridgedDevice();
    spirvThroughTheBridge();
    System.setProperty("loopjit.dump", "spirv");
    d.context().programs().clearMemory();
    TaskSpec t = vadd(new FloatArray(4), new FloatArray(4), new FloatArray(4));
    PrintStream out = System.out;
    ByteArrayOutputStream first = new ByteArrayOutputStream(), second = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(first, true, StandardCharsets.UTF_8));
      prepare(d, t);
      System.setOut(new PrintStream(second, true, StandardCharsets.UTF_8));
      prepare(d, t);
    } finally {
      System.setOut(out);
    }
    String text = first.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("// SPIR-V of HandwrittenKernels.vadd for " + d) && text.contains("OpEntryPoint Kernel"), text);
    assertFalse(second.toString(StandardCharsets.UTF_8).contains("OpEntryPoint"), "not on an in-memory hit");
  }

  @Test
  void clCreateProgramWithIlIsCalledAndADeviceWithoutIlSaysNo() {
    OpenClDevice d = OpenClTesting.device();
    assumeTrue(ProgramForm.spirvVersion(d.ilVersion()) == null, d + " takes SPIR-V: the bridge and conformance runs cover it");
    System.setProperty("loopjit.cacheDir", "off");
    var target = dev.loopjit.backend.spirv.SpirvRecipe.OFFLINE.target(null, "1.2", Options.DEFAULTS);
    DeviceCode code = dev.loopjit.backend.spirv.SpirvRecipe.OFFLINE.emit(dev.loopjit.compiler.Compiler.legalise(dev.loopjit.ir.SampleKernels.intOps(), target), target);
    BuildFailure f = assertThrows(BuildFailure.class, () -> d.context().programs().build(code, "", Options.DEFAULTS.with("cacheDir", "off")));
    assertTrue(f.log().contains("clCreateProgramWithIL refused the module"), f.log());
    assertTrue(f.code().startsWith("CL_"), "an OpenCL error code: " + f.code());
  }

  @Test
  void aModuleTheDriverRefusesFailsWithItsBuildLog() {
    OpenClDevice d = bridgedDevice();
    BuildFailure f = assertThrows(BuildFailure.class, () -> buildThroughTheBridge(d, SpirvTestModules.callsAnUndefinedFunction()));
    assertEquals("CL_BUILD_PROGRAM_FAILURE", f.code());
    assertTrue(f.log().contains("loopjit_undefined_function"), "the driver's build log: " + f.log());
    BuildFailure bad = assertThrows(BuildFailure.class, () -> buildThroughTheBridge(d, TRUNCATED));
    assertTrue(bad.code().contains("llvm-spirv") && bad.log().contains("llvm-spirv"), "the translator's complaint: " + bad.getMessage());
  }
}
