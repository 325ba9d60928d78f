// A size sweep of the conformance matmul builds nothing after the first plan's withPreCompilation: every variant is made when a plan is prepared.
package dev.loopjit.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.ExecutionResult;
import dev.loopjit.api.Parallel;
import dev.loopjit.api.Profile;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.types.FloatArray;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * A kernel has several variants on a compiling device (checked, unchecked, signed indices, lanes on
 * a CPU), chosen by the arguments' sizes. The kernel is {@link FloatKernels#matmul}'s code in a method
 * of this class, so that no other test of the process has built it, and the disk cache is off: a
 * program comes from this test's own first plan or is built afresh. {@code withPreCompilation()} builds every one, so that the
 * sizes n = 1 … 300 of {@link FloatKernels#matmul} (1 … 40 on the simulated CUDA device), each in a plan of its own, build no program
 * (each plan's profile says 0 kernels compiled) and still compute Java's result; the sweep runs
 * several variants (what the profiles name), so a size that needed a variant not built would show.
 */
class VariantsChosenOnceTest {
  static final int LAST = 300;

  @Test
  void aSizeSweepOfMatmulBuildsNothingAfterPreCompilation() {
    int several = 0;
    for (Device d : Devices.all()) {
      if (d.id().equals("jvm")) continue;   // it runs the Java method: nothing to build
      Set<String> variants = new TreeSet<>();
      int first = 0;
      for (int n = 1; n <= last(d); n++) {
        FloatArray a = new FloatArray(n * n), b = new FloatArray(n * n), c = new FloatArray(n * n);
        for (int i = 0; i < n * n; i++) {
          a.set(i, (i * 7 % 13) - 6);
          b.set(i, (i * 5 % 11) - 5);
        }
        TaskGraph g = new TaskGraph("sweep").transferToDevice(DataTransferMode.EVERY_EXECUTION, a, b)
            .task("matmul", VariantsChosenOnceTest::matmul, a, b, c, n, n, n).transferToHost(DataTransferMode.EVERY_EXECUTION, c);
        try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d).withProfiler().withSetting("cacheDir", "off")) {
          if (n == 1) plan.withPreCompilation();
          ExecutionResult r = plan.execute();
          Profile p = r.profile();
          if (n == 1) first = p.kernelsCompiled();
          else assertEquals(0, p.kernelsCompiled(), d.id() + ", n = " + n + ": a program was built after the first plan prepared every variant ("
              + p.tasks().get(0).variant() + ")");
          variants.add(p.tasks().get(0).variant());
        }
        FloatArray expected = new FloatArray(n * n);
        matmul(a, b, expected, n, n, n);
        assertArrayEquals(expected.toHeapArray(), c.toHeapArray(), d.id() + ", n = " + n);
      }
      List<String> names = new ArrayList<>(variants);
      if (names.equals(List.of(""))) continue;   // one code for every size (jvm-mt: Java's own checks, no lanes)
      if (names.size() >= 2) several++;
      assertTrue(names.stream().allMatch(v -> v.endsWith(" of " + count(names.get(0)) + ")")), d.id() + ": " + names);
      assertTrue(first >= 0 && first <= count(names.get(0)), d.id() + ": the first plan built " + first + " programs for " + names);
    }
    // on an OpenCL CPU device the sweep meets several variants (lanes where n is a multiple of the block, one iteration per work-item elsewhere)
    if (Devices.all().stream().anyMatch(d -> d.id().startsWith("opencl:") && d.kind() == Device.Kind.CPU))
      assertTrue(several > 0, "no device ran several variants of matmul: " + Devices.all());
  }

  /** {@link FloatKernels#matmul}, here so that its programs are this test's alone. */
  public static void matmul(FloatArray a, FloatArray b, FloatArray c, int n, int m, int k) {
    for (@Parallel int i = 0; i < n; i++)
      for (@Parallel int j = 0; j < m; j++) {
        float acc = 0f;
        for (int p = 0; p < k; p++) acc += a.get(i * k + p) * b.get(p * m + j);
        c.set(i * m + j, acc);
      }
  }

  /** 300, or 40 on the simulated CUDA device (it interprets PTX one instruction at a time: the whole sweep takes it minutes). */
  private static int last(Device d) {
    return d.name().contains("simulator") ? 40 : LAST;
  }

  /** N of a profile's {@code "… (i of N)"}. */
  private static int count(String variant) {
    return Integer.parseInt(variant.substring(variant.lastIndexOf(" of ") + 4, variant.length() - 1));
  }
}
