// A fresh process for DriverCacheDirTest: one vector add on opencl:0 through the public API, checked, then "OK".
package dev.loopjit.backend.opencl;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.Parallel;
import dev.loopjit.api.TaskGraph;

/** Run as a main class with {@code -Dloopjit.cacheDir=DIR}: exits 0 and prints OK when the kernel computed. */
public final class PoclCacheChild {
  private PoclCacheChild() {}

  static void add(float[] a, float[] b, float[] c) {
    for (@Parallel int i = 0; i < c.length; i++) c[i] = a[i] + 2f * b[i];
  }

  public static void main(String[] args) {
    int n = 1000;
    float[] a = new float[n], b = new float[n], c = new float[n];
    for (int i = 0; i < n; i++) {
      a[i] = i;
      b[i] = -i / 4f;
    }
    TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a, b).task("add", PoclCacheChild::add, a, b, c)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, c);
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice("opencl:0")) {
      plan.execute();
    }
    for (int i = 0; i < n; i++)
      if (c[i] != i - i / 2f) {
        System.out.println("WRONG at " + i + ": " + c[i]);
        System.exit(3);
      }
    System.out.println("OK");
  }
}
