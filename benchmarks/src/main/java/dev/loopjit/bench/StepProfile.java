// Where one training step's time goes on a device, kernel by kernel: the breakdown a GPU host prints in gpu-verify's phase profile-steps.
package dev.loopjit.bench;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.api.Profile;
import dev.loopjit.nn.Loss;
import dev.loopjit.nn.Optimizer;
import dev.loopjit.nn.TrainingStep;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code StepProfile DEVICE [--batch N] [--steps N] MODEL...}: for each model ({@code mlp},
 * {@code cnn}; the shapes of {@link TrainingStepBenchmark}, batch 128 unless given, random images),
 * three steps to compile and warm up, then 10 steps (unless given) with the profiler on, and a table per model: the wall time of a step,
 * the kernels' sum and the rest (launches, copies, synchronisation, host work), then each task's
 * kernel time, share of the step, work-items and estimated work per item. A task with few
 * work-items and much work each is a sequential loop: on a GPU it runs on a few hundred threads.
 * Not a benchmark (the profiler costs a little per step); JMH's {@code TrainingStepBenchmark} is.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar dev.loopjit.bench.StepProfile opencl:0 cnn
 * loopjit/bin/loopjit run --class-path 'loopjit/bench/*' dev.loopjit.bench.StepProfile cuda:0 cnn mlp   # the bundle
 * }</pre>
 */
public final class StepProfile {
  private StepProfile() {}

  public static void main(String[] args) {
    int batch = TrainingStepBenchmark.BATCH, steps = 10, at = 1;
    java.util.List<String> models = new java.util.ArrayList<>();
    while (at < args.length) {
      switch (args[at]) {
        case "--batch" -> batch = Integer.parseInt(args[++at]);
        case "--steps" -> steps = Integer.parseInt(args[++at]);
        default -> models.add(args[at]);
      }
      at++;
    }
    if (args.length < 2 || models.isEmpty() || batch < 1 || batch > TrainingStepBenchmark.ROWS / 16 || steps < 1) {
      System.err.println("usage: StepProfile DEVICE [--batch N (1-256)] [--steps N] MODEL... (models: mlp, cnn)");
      System.exit(2);
    }
    Device device = Devices.get(args[0]);
    var data = TrainingStepBenchmark.images();
    int rows = TrainingStepBenchmark.ROWS;
    int[] order = new int[rows];
    for (int i = 0; i < rows; i++) order[i] = i;
    for (String model : models) {
      try (TrainingStep step = TrainingStepBenchmark.model(model).trainingStep(data, batch, Loss.SOFTMAX_CROSS_ENTROPY,
          Optimizer.adam(1e-3f), device)) {
        for (int s = 0; s < 3; s++) step.run(order, s * batch, batch);
        step.withProfiler();
        Map<String, long[]> tasks = new LinkedHashMap<>();   // task -> {kernel nanos, work-items, flops}
        long kernels = 0, copies = 0, started = System.nanoTime();
        for (int s = 0; s < steps; s++) {
          step.run(order, (3 + s) * batch % (rows - batch), batch);
          Profile p = step.lastProfile();
          kernels += p.kernelNanos();
          copies += p.copyInNanos() + p.copyOutNanos();
          for (Profile.TaskTime t : p.tasks()) {
            long[] a = tasks.computeIfAbsent(t.task(), k -> new long[3]);
            a[0] += t.kernelNanos();
            if (t.work() != null) {
              a[1] = t.work().workItems();
              a[2] = (long) t.work().flops();
            }
          }
        }
        double wall = (System.nanoTime() - started) / 1e6 / steps;
        System.out.printf(Locale.ROOT, "%s on %s, batch %d: %.3f ms a step; kernels %.3f ms, copies %.3f ms, the rest %.3f ms%n",
            model, device.id(), batch, wall, kernels / 1e6 / steps, copies / 1e6 / steps, wall - (kernels + copies) / 1e6 / steps);
        System.out.printf(Locale.ROOT, "  %-30s %10s %7s %12s %14s%n", "task", "ms", "share", "work-items", "flops/item");
        final double w = wall;
        final int n = steps;
        tasks.entrySet().stream().sorted((x, y) -> Long.compare(y.getValue()[0], x.getValue()[0])).forEach(e -> {
          long[] a = e.getValue();
          double ms = a[0] / 1e6 / n;
          System.out.printf(Locale.ROOT, "  %-30s %10.3f %6.1f%% %12d %14s%n", e.getKey(), ms, 100 * ms / w, a[1],
              a[1] > 0 ? String.format(Locale.ROOT, "%.0f", (double) a[2] / a[1]) : "-");
        });
      }
    }
  }
}
