// Test helper: runs a graph once on a device and returns the kernel code the plan printed (withPrintKernel).
package dev.loopjit.api;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;

/** What a device runs, as {@code plan.withPrintKernel()} shows it: for tests that check which variant a task got (jit's and, through the test jar, conformance's). */
public final class PrintedKernels {
  private PrintedKernels() {}

  /** Executes {@code graph} once on {@code d}; the code of its kernels as printed (empty on the jvm). */
  public static String run(TaskGraph graph, Device d) {
    return run(graph, d, java.util.Map.of());
  }

  /** As {@link #run(TaskGraph, Device)}, with the plan's {@code settings} ({@code withSetting}). */
  public static String run(TaskGraph graph, Device d, java.util.Map<String, String> settings) {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream out = System.out;
    try (ExecutionPlan plan = new ExecutionPlan(graph.snapshot()).withDevice(d).withPrintKernel()) {
      settings.forEach(plan::withSetting);
      System.setOut(new PrintStream(printed, true));
      plan.execute();
    } finally {
      System.setOut(out);
    }
    return printed.toString();
  }
}
