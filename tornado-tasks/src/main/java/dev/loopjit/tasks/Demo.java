// scripts/demo: lists the devices, runs the seeds' examples on each, checks every result against the JVM, times it.
package dev.loopjit.tasks;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.ExecutionResult;
import dev.loopjit.api.KernelCode;
import dev.loopjit.api.Profile;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.types.FloatArray;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * What LoopJIT does, on this machine: the devices it finds, the OpenCL C it makes from a Java loop,
 * and the seeds' examples run on every device, each checked against plain Java and timed.
 */
public final class Demo {
  private record Row(String example, String device, double firstMs, double steadyMs, double kernelMs, String check, Profile profile) {}

  private static final int REPEATS = 5;

  private Demo() {}

  public static void main(String[] args) {
    System.out.println("LoopJIT: plain Java @Parallel loops, JIT-compiled from bytecode for the devices below.\n");
    System.out.println("Devices:");
    for (Device d : Devices.all()) System.out.println("  " + d.describe());
    System.out.println("  best: " + Devices.best().id() + "\n");

    System.out.println("The kernel (Java):");
    System.out.println("  for (@Parallel int i = 0; i < c.getSize(); i++) c.set(i, a.get(i) + b.get(i));\n");
    System.out.println("becomes OpenCL C:");
    System.out.println(indent(KernelCode.of(Seeds::vectorAdd, "opencl").text()));

    List<Row> rows = new ArrayList<>();
    rows.addAll(vectorAdd(1 << 22));
    rows.addAll(matrixVector(2048, 2048));

    System.out.println();
    System.out.printf("%-24s %-10s %12s %12s %12s %18s %18s  %s%n", "example", "device", "first call", "per call", "kernel",
        "GB/s (of copy)", "GFLOP/s (of peak)", "result vs Java");
    for (Row r : rows)
      System.out.printf("%-24s %-10s %9.1f ms %9.2f ms %12s %18s %18s  %s%n", r.example(), r.device(), r.firstMs(), r.steadyMs(),
          Double.isNaN(r.kernelMs()) ? "-" : String.format("%.2f ms", r.kernelMs()), rate(r, true), rate(r, false), r.check());
    System.out.println("\nfirst call includes the JIT (bytecode -> OpenCL C -> device code) and the first copies; "
        + "per call is the median of " + REPEATS + " executions with copies; java is the plain loop, run directly.");
    System.out.println("GB/s and GFLOP/s: the kernel's global-memory bytes and floating-point operations (counted from its code) per "
        + "second of its last execution, and their share of the device's copy bandwidth and multiply-add rate as LoopJIT's "
        + "probe kernels measured them (scripts/loopjit devices --probe).");
    System.out.println("\nThe profile of each device's last execution (ExecutionResult.profile()):");
    for (Row r : rows)
      if (r.profile() != null) System.out.println("\n" + r.example() + " on " + r.device() + ":\n" + indent(r.profile().toString()));
  }

  private static List<Row> vectorAdd(int n) {
    FloatArray a = random(n, 1), b = random(n, 2);
    FloatArray expected = new FloatArray(n);
    List<Row> rows = new ArrayList<>();
    rows.add(java("vector add " + (n >> 20) + "M", () -> Seeds.vectorAdd(a, b, expected)));
    for (Device d : Devices.all()) {
      FloatArray c = new FloatArray(n);
      TaskGraph g = new TaskGraph("vadd")
          .transferToDevice(DataTransferMode.EVERY_EXECUTION, a, b)
          .task("add", Seeds::vectorAdd, a, b, c)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, c);
      rows.add(run("vector add " + (n >> 20) + "M", d, g, () -> compare(expected, c)));
    }
    return rows;
  }

  private static List<Row> matrixVector(int rowsN, int cols) {
    FloatArray m = random(rowsN * cols, 3), v = random(cols, 4);
    FloatArray expected = new FloatArray(rowsN);
    List<Row> rows = new ArrayList<>();
    String name = "matrix-vector " + rowsN + "x" + cols;
    rows.add(java(name, () -> Seeds.matrixVector(m, v, expected, rowsN, cols)));
    for (Device d : Devices.all()) {
      FloatArray r = new FloatArray(rowsN);
      TaskGraph g = new TaskGraph("matvec")
          .transferToDevice(DataTransferMode.FIRST_EXECUTION, m)
          .transferToDevice(DataTransferMode.EVERY_EXECUTION, v)
          .task("mv", Seeds::matrixVector, m, v, r, rowsN, cols)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, r);
      rows.add(run(name, d, g, () -> compare(expected, r)));
    }
    return rows;
  }

  private static Row java(String example, Runnable r) {
    long t0 = System.nanoTime();
    r.run();
    double first = (System.nanoTime() - t0) / 1e6;
    double[] times = new double[REPEATS];
    for (int k = 0; k < REPEATS; k++) {
      long s = System.nanoTime();
      r.run();
      times[k] = (System.nanoTime() - s) / 1e6;
    }
    return new Row(example, "java", first, median(times), Double.NaN, "reference", null);
  }

  private static Row run(String example, Device d, TaskGraph g, java.util.function.Supplier<String> check) {
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d).withProfiler()) {
      long t0 = System.nanoTime();
      plan.execute();
      double first = (System.nanoTime() - t0) / 1e6;
      double[] times = new double[REPEATS], kernels = new double[REPEATS];
      Profile last = null;
      for (int k = 0; k < REPEATS; k++) {
        long s = System.nanoTime();
        ExecutionResult r = plan.execute();
        times[k] = (System.nanoTime() - s) / 1e6;
        kernels[k] = r.profile().kernelNanos() / 1e6;
        last = r.profile();
      }
      return new Row(example, d.id(), first, median(times), median(kernels), check.get(), last);
    } catch (RuntimeException e) {
      return new Row(example, d.id(), Double.NaN, Double.NaN, Double.NaN, "FAILED: " + e.getMessage().lines().findFirst().orElse(""), null);
    }
  }

  /** A row's achieved GB/s or GFLOP/s with its share of the device's measured limit, from its last profile. */
  private static String rate(Row r, boolean bytes) {
    if (r.profile() == null || r.profile().tasks().isEmpty()) return "-";
    Profile.TaskTime t = r.profile().tasks().getFirst();
    double rate = bytes ? t.gigabytesPerSecond() : t.gigaflopsPerSecond(), share = bytes ? t.bandwidthShare() : t.computeShare();
    if (Double.isNaN(rate)) return "-";
    return Double.isNaN(share) ? String.format("%.2f", rate) : String.format("%.2f (%3.0f%%)", rate, 100 * share);
  }

  private static String compare(FloatArray expected, FloatArray actual) {
    double worst = 0;
    for (int i = 0; i < expected.getSize(); i++) {
      float e = expected.get(i), a = actual.get(i);
      double rel = Math.abs(e - a) / Math.max(1e-30, Math.abs(e));
      if (Float.isNaN(a) != Float.isNaN(e)) return "WRONG at " + i + ": " + a + " vs " + e;
      worst = Math.max(worst, rel);
    }
    return worst == 0 ? "identical" : worst < 1e-5 ? String.format("ok (max rel. diff %.1e)", worst) : String.format("WRONG (rel. diff %.1e)", worst);
  }

  private static FloatArray random(int n, long seed) {
    Random r = new Random(seed);
    FloatArray a = new FloatArray(n);
    for (int i = 0; i < n; i++) a.set(i, r.nextFloat() * 2 - 1);
    return a;
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }

  private static String indent(String s) {
    return s.lines().map(l -> "  " + l).reduce((x, y) -> x + "\n" + y).orElse("");
  }
}
