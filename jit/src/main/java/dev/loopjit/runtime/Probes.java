// The built-in probe kernels that measure what a device can do: a copy (bandwidth) and independent multiply-adds (arithmetic).
package dev.loopjit.runtime;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Device;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.Parallel;
import dev.loopjit.api.Profile;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.types.FloatArray;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Measures a device's {@link Profile.Limits} with two {@code @Parallel} kernels compiled like any
 * other: {@link #copy} (bytes read plus written per second) and {@link #multiplyAdd} (eight
 * independent {@code x = x * a + b} chains per work-item: two float operations each, no FMA under
 * strict semantics). Each grows (more elements, more work-items, more rounds) until one launch
 * takes {@value #TARGET_MS} ms or a cap is reached (the copy's rate is the one at that size, the
 * multiply-add's the best seen), each size run a few times after a first run that compiles and
 * copies, so slow devices (the jvm, a simulated GPU) finish in seconds and fast ones are measured
 * beyond their launch overhead. Plans run with {@code loopjit.probe=off}, so their own profiles
 * never probe.
 */
final class Probes {
  static final int TARGET_MS = 10;
  private static final long TARGET_NANOS = TARGET_MS * 1_000_000L;
  private static final long WALL_LIMIT_NANOS = 3_000_000_000L;
  private static final int MAX_COPY = 1 << 26;       // floats per array: 256 MiB each (a GPU needs large copies to reach its bandwidth)
  private static final int MAX_ITEMS = 1 << 20;
  private static final int MAX_ROUNDS = 1 << 16;
  /** Floating-point operations per round of {@link #multiplyAdd}, per work-item. */
  static final int FLOPS_PER_ROUND = 16;

  private Probes() {}

  /** The copy probe: one element per work-item. */
  static void copy(FloatArray from, FloatArray to) {
    for (@Parallel int i = 0; i < to.getSize(); i++) to.set(i, from.get(i));
  }

  /** The arithmetic probe: eight independent multiply-add chains of {@code rounds} steps per work-item. */
  static void multiplyAdd(FloatArray out, float a, float b, int rounds) {
    for (@Parallel int i = 0; i < out.getSize(); i++) {
      float x0 = i, x1 = x0 + 1f, x2 = x0 + 2f, x3 = x0 + 3f, x4 = x0 + 4f, x5 = x0 + 5f, x6 = x0 + 6f, x7 = x0 + 7f;
      for (int r = 0; r < rounds; r++) {
        x0 = x0 * a + b;
        x1 = x1 * a + b;
        x2 = x2 * a + b;
        x3 = x3 * a + b;
        x4 = x4 * a + b;
        x5 = x5 * a + b;
        x6 = x6 * a + b;
        x7 = x7 * a + b;
      }
      out.set(i, ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7)));
    }
  }

  /** Runs both probes on {@code device}. */
  static Profile.Limits measure(Device device) {
    double copy = copyRate(device), flops = flopRate(device);
    return new Profile.Limits(device.id(), copy, flops, Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
  }

  /**
   * Bytes per nanosecond (GB/s) of the copy kernel at the first size that takes {@value #TARGET_MS}
   * ms (or the largest tried): smaller sizes fit in caches and would overstate what streaming from
   * memory gives. The best of five runs there, against a shared machine's noise.
   */
  static double copyRate(Device device) {
    long started = System.nanoTime();
    long cap = MAX_COPY;
    if (device.memoryBytes() > 0) cap = Math.min(cap, Math.max(1 << 12, device.memoryBytes() / 4 / 8));
    for (int n = 1 << 12; ; n <<= 1) {
      FloatArray from = new FloatArray(n), to = new FloatArray(n);
      TaskGraph g = new TaskGraph("probe").transferToDevice(DataTransferMode.FIRST_EXECUTION, from).task("copy", Probes::copy, from, to);
      long nanos = fastest(device, g, 2);
      if (nanos >= TARGET_NANOS || n >= cap || System.nanoTime() - started > WALL_LIMIT_NANOS)
        return 2.0 * Float.BYTES * n / Math.min(nanos, fastest(device, g, 5));
    }
  }

  /** Best floating-point operations per nanosecond (GFLOP/s) of the multiply-add kernel. */
  static double flopRate(Device device) {
    double best = 0;
    long started = System.nanoTime();
    int items = 1 << 8, rounds = 16;
    while (true) {
      FloatArray out = new FloatArray(items);
      TaskGraph g = new TaskGraph("probe").task("multiplyAdd", Probes::multiplyAdd, out, 0.999f, 0.5f, rounds);
      long nanos = fastest(device, g, 2);
      best = Math.max(best, (double) FLOPS_PER_ROUND * rounds * items / nanos);
      if (nanos >= TARGET_NANOS || rounds >= MAX_ROUNDS || System.nanoTime() - started > WALL_LIMIT_NANOS) return best;
      if (items < MAX_ITEMS) items <<= 1;
      else rounds <<= 1;
    }
  }

  /** The shortest kernel time of {@code runs} executions after a first one (which compiles and copies in). */
  private static long fastest(Device device, TaskGraph g, int runs) {
    try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(device).withProfiler().withSetting("probe", "off")) {
      plan.execute();
      long best = Long.MAX_VALUE;
      for (int k = 0; k < runs; k++) best = Math.min(best, Math.max(1, plan.execute().profile().kernelNanos()));
      return best;
    }
  }
}
