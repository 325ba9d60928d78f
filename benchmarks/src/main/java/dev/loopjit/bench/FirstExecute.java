// A fresh JVM's first execute() of a kernel whose code is already in the disk caches, split into its parts (scripts/first-execute runs it).
package dev.loopjit.bench;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.ExecutionResult;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.tasks.Blas;
import dev.loopjit.tasks.Seeds;
import dev.loopjit.types.FloatArray;
import java.lang.management.ManagementFactory;

/**
 * One line of milliseconds, for a fresh JVM: finding the device ({@code Devices.get}: the driver
 * loads), the first {@code execute()} of a plan running the seeds' vector add (the plan opens the
 * device; its kernel comes from LoopJIT's and the driver's disk caches when a run before filled
 * them), of which the JIT's and the driver's compile time, then a second kernel's first execute in
 * the same JVM, and the JVM's start to the first result. Not a JMH benchmark: JMH forks cannot be
 * given an AOT cache per run, which is what {@code scripts/first-execute} compares.
 */
public final class FirstExecute {
  private FirstExecute() {}

  public static void main(String[] args) {
    String device = args.length > 0 ? args[0] : "opencl:0";
    long start = ManagementFactory.getRuntimeMXBean().getStartTime();
    long t0 = System.nanoTime();
    int n = 1 << 20;
    FloatArray a = new FloatArray(n), b = new FloatArray(n), c = new FloatArray(n);
    for (int i = 0; i < n; i++) a.set(i, i);
    Device d = Devices.get(device);
    long t1 = System.nanoTime();
    TaskGraph g = new TaskGraph("first").transferToDevice(DataTransferMode.EVERY_EXECUTION, a, b)
        .task("add", Seeds::vectorAdd, a, b, c).transferToHost(DataTransferMode.EVERY_EXECUTION, c);
    try (ExecutionPlan p = new ExecutionPlan(g.snapshot()).withDevice(d).withProfiler()) {
      ExecutionResult r = p.execute();
      long t2 = System.nanoTime();
      long firstResultMillis = System.currentTimeMillis() - start;
      if (c.get(n - 1) != n - 1) throw new IllegalStateException("vector add gave " + c.get(n - 1));
      TaskGraph g2 = new TaskGraph("second").task("saxpy", Blas::saxpy, 2f, a, b).transferToHost(DataTransferMode.EVERY_EXECUTION, b);
      long t3 = System.nanoTime();
      try (ExecutionPlan p2 = new ExecutionPlan(g2.snapshot()).withDevice(d)) {
        p2.execute();
      }
      long t4 = System.nanoTime();
      System.out.printf(java.util.Locale.ROOT, "device %.0f first-execute %.0f jit %.1f driver %.1f second-kernel %.0f jvm-start-to-result %d%n",
          (t1 - t0) / 1e6, (t2 - t1) / 1e6, r.profile().compileNanos() / 1e6, r.profile().driverCompileNanos() / 1e6, (t4 - t3) / 1e6,
          firstResultMillis);
    }
  }
}
