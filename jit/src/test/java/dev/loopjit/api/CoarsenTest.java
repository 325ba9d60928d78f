// Coarsening on CPU devices: a work-item computes neighbouring iterations of x side by side, bit-identical to the jvm.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;

/**
 * Where the trip count in x is a multiple of the lanes and no access needs a check, a CPU device
 * runs the coarsened kernel (the {@code coarsen} pass: lane arrays, {@code count_x / lanes}
 * work-items); otherwise the one-iteration kernel. Either way every bit equals the jvm's.
 */
class CoarsenTest {
  static void matmul(float[] a, float[] b, float[] c, int m, int n, int k) {
    for (@Parallel int i = 0; i < m; i++)
      for (@Parallel int j = 0; j < n; j++) {
        float acc = 0f;
        for (int p = 0; p < k; p++) acc += a[i * k + p] * b[p * n + j];
        c[i * n + j] = acc;
      }
  }

  /** A loop whose trip count differs between lanes: left as one iteration per work-item. */
  static void branchy(float[] a, float[] c, int n) {
    for (@Parallel int j = 0; j < n; j++) {
      float s = 0f;
      for (int p = 0; p < (j & 3); p++) s += a[p * n + j];
      c[j] = s;
    }
  }

  private static float[] ramp(int n, float scale) {
    float[] a = new float[n];
    for (int i = 0; i < n; i++) a[i] = ((i * 7) % 13 - 6) * scale;
    return a;
  }

  private static String run(TaskGraph graph, Device d) {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream out = System.out;
    try (ExecutionPlan plan = new ExecutionPlan(graph.snapshot()).withDevice(d).withPrintKernel()) {
      System.setOut(new PrintStream(printed, true));
      plan.execute();
    } finally {
      System.setOut(out);
    }
    return printed.toString();
  }

  @Test
  void matmulInLanesWhereTheWidthIsAMultipleElseOneIterationPerWorkItem() {
    for (int n : new int[] {48, 37}) {
      int m = 5, k = 9;
      float[] a = ramp(m * k, 0.37f), b = ramp(k * n, 1.13f), expected = new float[m * n];
      matmul(a, b, expected, m, n, k);
      for (Device d : Devices.all()) {
        float[] c = new float[m * n];
        String code = run(new TaskGraph("g").task("t", CoarsenTest::matmul, a, b, c, m, n, k).transferToHost(DataTransferMode.EVERY_EXECUTION, c), d);
        for (int i = 0; i < c.length; i++)
          assertEquals(Float.floatToRawIntBits(expected[i]), Float.floatToRawIntBits(c[i]), d.id() + " n=" + n + " at " + i);
        boolean cpuOpenCl = d.id().startsWith("opencl") && d.kind() == Device.Kind.CPU;
        if (cpuOpenCl) assertEquals(n % 16 == 0, code.contains("lane_base"), d.id() + " n=" + n + ":\n" + code);
      }
    }
  }

  @Test
  void aLoopThatDiffersBetweenLanesStaysOneIterationPerWorkItem() {
    int n = 64;
    float[] a = ramp(4 * n, 0.5f), expected = new float[n];
    branchy(a, expected, n);
    for (Device d : Devices.all()) {
      float[] c = new float[n];
      String code = run(new TaskGraph("g").task("t", CoarsenTest::branchy, a, c, n).transferToHost(DataTransferMode.EVERY_EXECUTION, c), d);
      for (int i = 0; i < n; i++) assertEquals(Float.floatToRawIntBits(expected[i]), Float.floatToRawIntBits(c[i]), d.id() + " at " + i);
      assertFalse(code.contains("lane_base"), d.id() + ":\n" + code);
    }
  }
}
