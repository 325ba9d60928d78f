// Local arrays sized at launch, SIMD-group operations and Debug.printf on every device against the jvm.
package dev.loopjit.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Debug;
import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.GridScheduler;
import dev.loopjit.api.KernelContext;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.api.WorkerGrid1D;
import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.ByteArray;
import dev.loopjit.types.DoubleArray;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.HalfFloatArray;
import dev.loopjit.types.IntArray;
import dev.loopjit.types.LongArray;
import dev.loopjit.types.ShortArray;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GroupKernelsTest {
  private static Object[] tiled(int n, int local) {
    int groups = (n + local - 1) / local;
    return new Object[] {new KernelContext(), FloatArray.fromArray(new Inputs(401).floats(n, -4, 4)), new FloatArray(groups), new IntArray(n), local};
  }

  @ParameterizedTest
  @CsvSource({"1000, 64", "37, 8", "256, 256", "100, 1"})
  void localArraysSizedAtLaunch(int n, int local) {
    int global = (n + local - 1) / local * local;
    KernelCheck.of("GroupKernels.tiledSums", GroupKernels::tiledSums).grid(new WorkerGrid1D(global).setLocalWork(local, 1, 1))
        .args(() -> tiled(n, local)).run();
  }

  @ParameterizedTest
  @CsvSource({"300, 32", "31, 8", "64, 64"})
  void localArraysOfEveryNarrowTypeSizedAtLaunch(int n, int local) {
    int global = (n + local - 1) / local * local;
    KernelCheck.of("GroupKernels.narrowNeighbours", GroupKernels::narrowNeighbours).grid(new WorkerGrid1D(global).setLocalWork(local, 1, 1))
        .args(() -> new Object[] {new KernelContext(), ByteArray.fromArray(new Inputs(402).bytes(n)), ShortArray.fromArray(new Inputs(403).shorts(n)),
            HalfFloatArray.fromArray(new Inputs(404).floats(n, -100, 100)), LongArray.fromArray(new Inputs(405).longs(n)),
            DoubleArray.fromArray(new Inputs(406).doubles(n, -1e9, 1e9)), local}).run();
  }

  /** 64 KiB of local memory: on CUDA past the 48 KiB without opting in (the runtime opts in); on every device that has it. */
  @Test
  void aLocalArrayOf64KiBRunsWhereTheDeviceHasTheMemory() {
    int tile = 16384, local = 64, groups = 3;
    KernelCheck check = KernelCheck.of("GroupKernels.wideTile", GroupKernels::wideTile).grid(new WorkerGrid1D(groups * local).setLocalWork(local, 1, 1))
        .args(() -> new Object[] {new KernelContext(), FloatArray.fromArray(new Inputs(408).floats(20_000, -1, 1)), new FloatArray(groups), tile});
    float[] expected = ((FloatArray) check.runOn(Devices.jvm())[2]).toArray();
    int ran = 0;
    for (Device d : Devices.all()) {
      if (d.localMemoryBytes() < 4L * tile) continue;
      assertArrayEquals(expected, ((FloatArray) check.runOn(d)[2]).toArray(), d.id());
      ran++;
    }
    boolean cuda = Devices.all().stream().anyMatch(d -> d.backend().equals("cuda"));
    assertTrue(!cuda || ran > 1, "a CUDA device is here: it must run 64 KiB");
  }

  @Test
  void tooMuchLocalMemoryIsRefusedBeforeAnythingRuns() {
    KernelCheck.checkRequiredDevices();
    List<Device> devices = Devices.all().stream().filter(d -> !d.backend().equals("jvm")).toList();
    assumeTrue(!devices.isEmpty(), "no device besides the jvm on this machine");
    for (Device d : devices) {
      int tile = (int) Math.min(Integer.MAX_VALUE / 4, d.localMemoryBytes() / 4 + 1);
      FloatArray in = FloatArray.fromArray(new Inputs(407).floats(64, -1, 1)), out = new FloatArray(1);
      IntArray order = new IntArray(64);
      out.set(0, 42f);
      TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, in)
          .task("sums", GroupKernels::tiledSums, new KernelContext(), in, out, order, tile)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, out, order);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot())) {
        plan.withDevice(d).withGridScheduler(new GridScheduler("g.sums", new WorkerGrid1D(64).setLocalWork(64, 1, 1)));
        Exception e = assertThrows(Exception.class, plan::execute, d.id());
        String m = String.valueOf(e.getMessage()) + (e.getCause() == null ? "" : " / " + e.getCause().getMessage());
        assertTrue(m.contains("local") && m.contains("sums") && m.contains(String.valueOf(d.localMemoryBytes())), d.id() + ": " + m);
      }
      assertEquals(42f, out.get(0), d.id() + ": the host array is unchanged");
    }
  }

  @Test
  void aLocalArraySizedPerWorkItemIsRefused() {
    var e = assertThrows(dev.loopjit.api.KernelCompilationException.class, () -> dev.loopjit.compiler.Compiler.compile(
        dev.loopjit.ir.MethodRef.of(GroupKernels.class, "sizedPerWorkItem", "(Ldev/loopjit/api/KernelContext;Ldev/loopjit/types/IntArray;)V"),
        dev.loopjit.ir.Target.offline("opencl", "")));
    assertTrue(e.getMessage().contains("local_id") && e.getMessage().contains("differs between work-items")
        && e.getMessage().contains("GroupKernels.java:" + e.line()) && e.line() > 0, e.getMessage());
  }

  @ParameterizedTest
  @CsvSource({"256, 64", "100, 48", "40, 40", "7, 7", "1024, 1024"})
  void simdGroupOperations(int n, int local) {
    int global = (n + local - 1) / local * local;
    KernelCheck.of("GroupKernels.simd", GroupKernels::simd).grid(new WorkerGrid1D(global).setLocalWork(local, 1, 1))
        .args(() -> new Object[] {new KernelContext(), IntArray.fromArray(new Inputs(408).ints(n)),
            FloatArray.fromArray(new Inputs(409).floats(n, -100, 100)), LongArray.fromArray(new Inputs(410).longs(n)),
            DoubleArray.fromArray(new Inputs(411).doubles(n, -1e6, 1e6)), new IntArray(n)}).run();
  }

  @Test
  void printfPrintsOnTheJvmAsCDoes() {
    FloatArray a = FloatArray.fromArray(new float[] {0f, -1f, 0.5f, -2.0006f});
    PrintStream out = System.out;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      GroupKernels.printNegatives(a, new IntArray(4));
    } finally {
      System.setOut(out);
    }
    assertEquals("a[1] = -1.000 (1f, B)\na[3] = -2.001 (5d, D)\n", bytes.toString(StandardCharsets.UTF_8));
    assertEquals("a[3] = -2.001 (5d, D)\n", Debug.format("a[%d] = %.3f (%x, %c)\n", 3, -2.0006f, 93, (char) 'D'));
  }

  /** What {@code run} prints to System.out, line by line, sorted (work-items print in no particular order). */
  private static List<String> printed(Runnable run) {
    PrintStream out = System.out;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      run.run();
    } finally {
      System.setOut(out);
    }
    return bytes.toString(StandardCharsets.UTF_8).lines().sorted().toList();
  }

  /**
   * The kernel runs on every device with the jvm's results; the jvm, jvm-mt and the simulated CUDA
   * device (whose vprintf prints through System.out) print the same lines. OpenCL drivers print to the
   * process's native standard output, which a test cannot read back: the OpenCL C and SPIR-V are
   * compiled and validated, and the rest of the kernel's results compared.
   */
  @Test
  void printfKernelsRunOnEveryDevice() {
    KernelCheck check = KernelCheck.of("GroupKernels.printNegatives", GroupKernels::printNegatives)
        .args(() -> new Object[] {FloatArray.fromArray(new Inputs(412).floats(200, -1, 1)), new IntArray(200)});
    List<String> jvm = printed(() -> check.runOn(Devices.jvm()));
    assertTrue(jvm.size() >= 1 && jvm.get(0).startsWith("a["), "the inputs print something: " + jvm);
    for (Device d : Devices.all())
      if (d.backend().equals("jvm-mt") || d.backend().equals("cuda") && d.name().contains("simulator")) assertEquals(jvm, printed(() -> check.runOn(d)), d.id());
    check.run();
  }
}
