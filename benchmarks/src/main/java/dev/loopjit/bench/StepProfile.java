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
 * <p>On the counting simulated driver (the jit test jar's {@code CountingCuda}, as {@code cuda:0}),
 * it first runs the steps without the profiler and prints the host's own time per step — the wall
 * time less the time spent in driver calls — and the driver calls of one step: where a GPU's step
 * goes when it is not the kernels, measured without a GPU. With
 * {@code -Dloopjit.countingCuda.skipLaunches=true} no kernel runs (the results are garbage), so
 * thousands of steps take seconds (docs/PERFORMANCE.md, "The host's time per step").
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar dev.loopjit.bench.StepProfile opencl:0 cnn
 * LOOPJIT_CUDA_LIBRARY=java:dev.loopjit.backend.cuda.CountingCuda java -Dloopjit.countingCuda.skipLaunches=true \
 *   -cp benchmarks/target/benchmarks.jar:jit/target/test-classes dev.loopjit.bench.StepProfile cuda:0 --steps 3000 mlp
 * loopjit/bin/loopjit run --class-path 'loopjit/bench/*' dev.loopjit.bench.StepProfile cuda:0 cnn mlp   # the bundle
 * }</pre>
 */
public final class StepProfile {
  private StepProfile() {}

  /** The counting driver's {@code since(snapshot)} and {@code snapshot()}, when it is on the class path; else null. */
  private static final java.lang.reflect.Method[] COUNTING = counting();

  private static java.lang.reflect.Method[] counting() {
    try {
      Class<?> c = Class.forName("dev.loopjit.backend.cuda.CountingCuda");
      return new java.lang.reflect.Method[] {c.getMethod("snapshot"), c.getMethod("since", Map.class)};
    } catch (ReflectiveOperationException notThere) {
      return null;
    }
  }

  /** Whether the counting driver is on the class path and has counted calls: the warm-up steps ran on it. */
  @SuppressWarnings("unchecked")
  private static boolean countingDriverInUse() {
    try {
      return COUNTING != null && !((Map<String, long[]>) COUNTING[0].invoke(null)).isEmpty();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The host's own time per step (wall less driver calls) over {@code steps} steps without the profiler, and one step's driver calls. */
  @SuppressWarnings("unchecked")
  private static void hostTime(TrainingStep step, int[] order, int rows, int batch, int steps, String model, Device device) {
    try {
      Map<String, long[]> before = (Map<String, long[]>) COUNTING[0].invoke(null);
      long started = System.nanoTime();
      for (int s = 0; s < steps; s++) step.run(order, (3 + s) * batch % (rows - batch), batch);
      long wall = System.nanoTime() - started;
      Map<String, long[]> calls = (Map<String, long[]>) COUNTING[1].invoke(null, before);
      long driver = 0;
      for (long[] c : calls.values()) driver += c[1];
      System.out.printf(Locale.ROOT, "%s on %s (counting driver), batch %d, %d steps: the host %.3f ms a step (wall %.3f, in the driver %.3f)%n",
          model, device.id(), batch, steps, (wall - driver) / 1e6 / steps, wall / 1e6 / steps, driver / 1e6 / steps);
      StringBuilder perStep = new StringBuilder();
      calls.forEach((name, c) -> perStep.append(perStep.isEmpty() ? "" : ", ").append(name).append(" ")
          .append(String.format(Locale.ROOT, "%.1f", (double) c[0] / steps)));
      System.out.println("  driver calls a step: " + perStep);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

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
        if (countingDriverInUse()) hostTime(step, order, rows, batch, steps, model, device);
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
