// The ExecutionPlan calls TornadoVM programs make: pre-compilation, compiler flags, printing kernels and
// launch shapes, choosing a graph, freeing device memory; on every device.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlanOptionsTest {
  static void addOne(int[] in, int[] out) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = in[i] + 1;
  }

  static void timesTwo(int[] in, int[] out) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = in[i] * 2;
  }

  static void halve(float[] in, float[] out) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = in[i] / 2f;
  }

  private static ImmutableTaskGraph graph(String name, Task2<int[], int[]> k, int[] in, int[] out) {
    return new TaskGraph(name).transferToDevice(DataTransferMode.EVERY_EXECUTION, in).task("t", k, in, out)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, out).snapshot();
  }

  private static String captured(Runnable r) {
    PrintStream saved = System.out;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
      r.run();
    } finally {
      System.setOut(saved);
    }
    return buf.toString(StandardCharsets.UTF_8);
  }

  @Test
  void preCompilationCompilesBeforeTheFirstExecution() {
    for (Device d : Devices.all()) {
      int[] in = {1, 2, 3}, out = new int[3];
      try (ExecutionPlan plan = new ExecutionPlan(graph("g", PlanOptionsTest::addOne, in, out)).withDevice(d)) {
        plan.withPreCompilation();
        assertEquals(0, plan.execute().profile().kernelsCompiled(), d.id() + ": nothing left to compile");
        assertArrayEquals(new int[] {2, 3, 4}, out, d.id());
      }
    }
  }

  @Test
  void compilerFlagsWithAMeaningApplyTheRestAreReported() {
    for (Device d : Devices.all()) {
      float[] in = {1f, 3f}, out = new float[2];
      ImmutableTaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, in).task("t", PlanOptionsTest::halve, in, out)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, out).snapshot();
      try (ExecutionPlan plan = new ExecutionPlan(g).withDevice(d)) {
        plan.withCompilerFlags("-cl-fast-relaxed-math -O3", "-w").execute();
        assertEquals(List.of("-O3", "-w"), plan.ignoredCompilerFlags());
        assertArrayEquals(new float[] {0.5f, 1.5f}, out, d.id());
      }
    }
  }

  @Test
  void printKernelAndThreadInfoPrintWhatRuns() {
    for (Device d : Devices.all()) {
      int[] in = {1, 2, 3}, out = new int[3];
      try (ExecutionPlan plan = new ExecutionPlan(graph("g", PlanOptionsTest::timesTwo, in, out)).withDevice(d)) {
        plan.withThreadInfo().withPrintKernel();
        String printed = captured(plan::execute);
        assertTrue(printed.contains("task g.t on "), d.id() + ": " + printed);
        if (d.backend().equals("opencl")) assertTrue(printed.contains("__kernel void PlanOptionsTest_timesTwo"), printed);
        if (d.backend().equals("cuda")) assertTrue(printed.contains(".entry PlanOptionsTest_timesTwo"), printed);
        assertArrayEquals(new int[] {2, 4, 6}, out);
      }
    }
  }

  @Test
  void aSettingForOnePlanChangesOnlyThatPlan() {
    for (Device d : Devices.all()) {
      if (!d.backend().equals("opencl")) continue;
      int[] in = {1, 2, 3}, out = new int[3];
      try (ExecutionPlan plan = new ExecutionPlan(graph("g", PlanOptionsTest::timesTwo, in, out)).withDevice(d)) {
        plan.withSetting("opencl.program", "spirv").withSetting("spirv.bridge", "llvm-spirv").withPrintKernel();
        String printed = captured(plan::execute);
        assertTrue(printed.contains("// SPIR-V of PlanOptionsTest.timesTwo"), printed);
        assertArrayEquals(new int[] {2, 4, 6}, out);
        plan.withSetting("opencl.program", null);
        printed = captured(plan::execute);
        assertTrue(printed.contains("// OpenCL C of PlanOptionsTest.timesTwo"), printed);
        plan.withSetting("opencl.program", "ptx");
        assertThrows(IllegalArgumentException.class, plan::execute, "a bad value is refused before anything runs");
      }
    }
  }

  @Test
  void aDeviceIdNamesTheProgramForm() {
    for (Device d : Devices.all()) {
      if (!d.backend().equals("opencl")) {
        assertThrows(IllegalArgumentException.class, () -> new ExecutionPlan(graph("g", PlanOptionsTest::timesTwo, new int[1], new int[1]))
            .withDevice(d.id() + "/spirv"), "only OpenCL devices take a program form");
        continue;
      }
      int[] in = {1, 2, 3}, out = new int[3];
      try (ExecutionPlan plan = new ExecutionPlan(graph("g", PlanOptionsTest::timesTwo, in, out))) {
        plan.withDevice(d.id() + "/spirv").withSetting("spirv.bridge", "llvm-spirv").withPrintKernel();
        assertTrue(captured(plan::execute).contains("// SPIR-V of PlanOptionsTest.timesTwo"));
        assertArrayEquals(new int[] {2, 4, 6}, out);
        plan.withDevice(d.id() + "/source");
        assertTrue(captured(plan::execute).contains("// OpenCL C of PlanOptionsTest.timesTwo"));
        assertThrows(IllegalArgumentException.class, () -> plan.withDevice(d.id() + "/ptx"));
      }
    }
  }

  @Test
  void withGraphRunsOneGraphAndWithAllGraphsAllOfThem() {
    for (Device d : Devices.all()) {
      int[] in = {1, 2}, a = new int[2], b = new int[2];
      try (ExecutionPlan plan = new ExecutionPlan(graph("one", PlanOptionsTest::addOne, in, a), graph("two", PlanOptionsTest::timesTwo, in, b))
          .withDevice(d)) {
        plan.withGraph(1).execute();
        assertArrayEquals(new int[] {0, 0}, a, d.id() + ": graph 0 did not run");
        assertArrayEquals(new int[] {2, 4}, b, d.id());
        plan.withAllGraphs().execute();
        assertArrayEquals(new int[] {2, 3}, a, d.id());
        assertThrows(IllegalArgumentException.class, () -> plan.withGraph(2));
      }
    }
  }

  @Test
  void freeDeviceMemoryGivesTheBuffersBackAndTheNextExecutionStillComputes() {
    for (Device d : Devices.all()) {
      int[] in = new int[1000], out = new int[1000];
      for (int i = 0; i < in.length; i++) in[i] = i;
      try (ExecutionPlan plan = new ExecutionPlan(graph("g", PlanOptionsTest::addOne, in, out)).withDevice(d)) {
        assertEquals(0, plan.getDeviceMemoryUsage(), "nothing before the first execution");
        plan.execute();
        assertEquals(2 * 1000 * 4, plan.getDeviceMemoryUsage(), d.id() + ": two int[1000] on the device");
        plan.freeDeviceMemory();
        assertEquals(0, plan.getDeviceMemoryUsage(), d.id());
        in[5] = 100;
        plan.execute();
        assertEquals(101, out[5], d.id() + ": copied in again");
      }
    }
  }

  static void indexTimesTwo(KernelContext ctx, int[] out) {
    int i = ctx.globalIdx;
    out[i] = 2 * i;
  }

  /** TornadoVM's switches back: without thread info and printed kernels nothing is printed; without the profiler no kernel time. */
  @Test
  void theWithoutCallsTurnTheirSwitchesOff() {
    for (Device d : Devices.all()) {
      int[] in = {1, 2, 3}, out = new int[3];
      try (ExecutionPlan plan = new ExecutionPlan(graph("g", PlanOptionsTest::timesTwo, in, out)).withDevice(d)) {
        plan.withThreadInfo().withPrintKernel().withProfiler(ProfilerMode.CONSOLE);
        String printed = captured(plan::execute);
        assertTrue(printed.contains("task g.t on ") && printed.contains("g.t"), d.id() + ": " + printed);
        plan.withoutThreadInfo().withoutPrintKernel().withoutProfiler();
        in[0] = 5;
        String quiet = captured(() -> assertEquals(0, plan.execute().getProfilerResult().getDeviceKernelTime(), d.id() + ": no kernel timed"));
        assertEquals("", quiet, d.id() + ": nothing printed");
        assertArrayEquals(new int[] {10, 4, 6}, out, d.id());
      }
    }
  }

  /** withProfiler(CONSOLE) prints the profile of each execution; SILENT (and plain withProfiler()) only returns it. */
  @Test
  void aConsoleProfilerPrintsEachExecutionsProfile() {
    int[] in = {1, 2, 3}, out = new int[3];
    try (ExecutionPlan plan = new ExecutionPlan(graph("g", PlanOptionsTest::addOne, in, out)).withDevice(Devices.jvm())) {
      plan.withProfiler(ProfilerMode.CONSOLE);
      ExecutionResult[] r = new ExecutionResult[1];
      String printed = captured(() -> r[0] = plan.execute());
      assertEquals(r[0].profile().toString().strip(), printed.strip());
      plan.withProfiler(ProfilerMode.SILENT);
      assertEquals("", captured(plan::execute));
      assertTrue(plan.execute().profile().kernelNanos() > 0, "still measured");
    }
  }

  /** TornadoVM's profiler getters read the same profile: sums of LoopJIT's fields, in nanoseconds; the log is JSON naming each task. */
  @Test
  void theProfilerResultHasTornadoVmsGetters() {
    for (Device d : Devices.all()) {
      int[] in = {1, 2, 3}, out = new int[3];
      try (ExecutionPlan plan = new ExecutionPlan(graph("g", PlanOptionsTest::addOne, in, out)).withDevice(d).withProfiler()) {
        ExecutionResult r = plan.execute();
        Profile p = r.getProfilerResult();
        assertTrue(p == r.profile());
        assertEquals(p.totalNanos(), p.getTotalTime());
        assertEquals(p.compileNanos() + p.driverCompileNanos(), p.getCompileTime());
        assertEquals(p.compileNanos(), p.getTornadoCompilerTime());
        assertEquals(p.driverCompileNanos(), p.getDriverInstallTime());
        assertEquals(p.copyInNanos() + p.copyOutNanos(), p.getDataTransfersTime());
        assertEquals(p.copyInNanos(), p.getDeviceWriteTime());
        assertEquals(p.copyOutNanos(), p.getDeviceReadTime());
        assertEquals(p.kernelNanos(), p.getDeviceKernelTime());
        assertTrue(p.getDeviceKernelTime() > 0, d.id());
        String log = p.getProfileLog();
        assertTrue(log.startsWith("{\"compileNanos\": " + p.compileNanos() + ",") && log.contains("{\"task\": \"g.t\", \"kernelNanos\": ")
            && log.endsWith("]}"), log);
      }
    }
  }

  static void plusOne(int[] a) {
    for (@Parallel int i = 0; i < a.length; i++) a[i] += 1;
  }

  /**
   * A grid given after executions that had none is read by the next one: the runner keeps a task's
   * grid between executions only while no WorkerGrid sizes it (here a 2-D grid for a 1-D loop, refused).
   */
  @Test
  void aGridGivenAfterExecutionsIsReadByTheNext() {
    for (Device d : Devices.all()) {
      int[] a = new int[8];
      ImmutableTaskGraph g = new TaskGraph("w").task("t", PlanOptionsTest::plusOne, a).transferToHost(DataTransferMode.EVERY_EXECUTION, a).snapshot();
      try (ExecutionPlan plan = new ExecutionPlan(g).withDevice(d)) {
        plan.execute();
        plan.execute();
        assertArrayEquals(new int[] {2, 2, 2, 2, 2, 2, 2, 2}, a, d.id());
        plan.withGridScheduler(new GridScheduler("w.t", new WorkerGrid2D(8, 1)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, plan::execute, d.id());
        assertTrue(e.getMessage().contains("its WorkerGrid has 2 dimension(s)"), d.id() + ": " + e.getMessage());
        assertArrayEquals(new int[] {2, 2, 2, 2, 2, 2, 2, 2}, a, d.id() + ": nothing ran");
      }
    }
  }

  /** withDefaultScheduler() drops the grid scheduler: a KernelContext task then needs one again, as when none was given. */
  @Test
  void theDefaultSchedulerDropsTheGrids() {
    int[] out = new int[8];
    ImmutableTaskGraph g = new TaskGraph("k").task("t", PlanOptionsTest::indexTimesTwo, new KernelContext(), out)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, out).snapshot();
    try (ExecutionPlan plan = new ExecutionPlan(g).withDevice(Devices.jvm())) {
      plan.withGridScheduler(new GridScheduler("k.t", new WorkerGrid1D(8))).execute();
      assertArrayEquals(new int[] {0, 2, 4, 6, 8, 10, 12, 14}, out);
      plan.withDefaultScheduler();
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, plan::execute);
      assertTrue(e.getMessage().contains("needs a launch grid"), e.getMessage());
    }
  }

  @Test
  void plansAreNumberedInTheOrderTheyAreMade() {
    int[] in = {1}, out = new int[1];
    try (ExecutionPlan a = new ExecutionPlan(graph("a", PlanOptionsTest::addOne, in, out));
         ExecutionPlan b = new ExecutionPlan(graph("b", PlanOptionsTest::addOne, in, out))) {
      assertTrue(a.getId() > 0 && b.getId() == a.getId() + 1, a.getId() + ", " + b.getId());
    }
  }

  /** Flags for one backend apply only on its devices: fast math for PTX leaves the JVM strict; for JAVA it does not. */
  @Test
  void compilerFlagsForOneBackendApplyOnlyThere() {
    float[] in = {1f, 3f}, out = new float[2];
    ImmutableTaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, in).task("t", PlanOptionsTest::halve, in, out)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, out).snapshot();
    try (ExecutionPlan plan = new ExecutionPlan(g).withDevice(Devices.jvm())) {
      plan.withCompilerFlags(TornadoVMBackendType.PTX, "-use_fast_math -lineinfo");
      assertTrue(!plan.settingsFor(Devices.jvm()).containsKey("fastMath"), "PTX's flags are not the JVM's");
      assertEquals(List.of("-lineinfo"), plan.ignoredCompilerFlags());
      plan.execute();
      assertArrayEquals(new float[] {0.5f, 1.5f}, out);
      plan.withCompilerFlags(TornadoVMBackendType.JAVA, "-cl-fast-relaxed-math");
      assertEquals("true", plan.settingsFor(Devices.jvm()).get("fastMath"));
      plan.withCompilerFlags(TornadoVMBackendType.JAVA, "");
      assertTrue(!plan.settingsFor(Devices.jvm()).containsKey("fastMath"), "a later call replaces the backend's flags");
    }
    for (Device d : Devices.all()) {
      TornadoVMBackendType t = TornadoVMBackendType.of(d, null);
      assertEquals(switch (d.backend()) { case "cuda" -> TornadoVMBackendType.PTX; case "opencl" -> TornadoVMBackendType.OPENCL;
        default -> TornadoVMBackendType.JAVA; }, t, d.id());
      if (d.backend().equals("opencl")) assertEquals(TornadoVMBackendType.SPIRV, TornadoVMBackendType.of(d, "spirv"));
    }
  }
}
