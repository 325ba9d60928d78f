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
}
