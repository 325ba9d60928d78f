// A fresh JVM's view, run without the Vector API module: which jvm target it gets, and a lane kernel's results on jvm-mt.
package dev.loopjit.backend.jvmmt;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Devices;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.KernelCode;
import dev.loopjit.api.Parallel;
import dev.loopjit.api.Task4;
import dev.loopjit.api.TaskGraph;

/** Started by {@link VectorApiModuleTest}; prints one line per finding. */
public final class WithoutVectorApi {
  private WithoutVectorApi() {}

  /** {@code c = a · B}: B read along x, so jvm-mt runs it in lanes (as vectors where it can). */
  static void rowTimesMatrix(float[] a, float[] b, float[] c, int n) {
    for (@Parallel int j = 0; j < n; j++) {
      float acc = 0f;
      for (int p = 0; p < a.length; p++) acc += a[p] * b[p * n + j];
      c[j] = acc;
    }
  }

  static final Task4<float[], float[], float[], Integer> KERNEL = WithoutVectorApi::rowTimesMatrix;

  public static void main(String[] args) {
    System.out.println("vector ops: " + KernelCode.of(KERNEL, "jvm").text().contains("VectorOps"));
    try {
      KernelCode.of(KERNEL, "jvm:vector");
      System.out.println("jvm:vector: accepted");
    } catch (RuntimeException e) {
      System.out.println("jvm:vector: " + e.getMessage());
    }
    int n = 300, k = 7;
    float[] a = new float[k], b = new float[k * n], c = new float[n], expected = new float[n];
    for (int i = 0; i < a.length; i++) a[i] = i * 0.37f - 1f;
    for (int i = 0; i < b.length; i++) b[i] = (i % 13) * 0.11f - 0.5f;
    rowTimesMatrix(a, b, expected, n);
    try (ExecutionPlan plan = new ExecutionPlan(new TaskGraph("g").task("t", KERNEL, a, b, c, n)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, c).snapshot()).withDevice(Devices.get("jvm-mt"))) {
      plan.execute();
    }
    System.out.println(java.util.Arrays.equals(c, expected) ? "jvm-mt: identical" : "jvm-mt: differs");
  }
}
