// Where a training step's wall time goes, summed over an epoch's steps from their profiles: each task's kernels, copies, and the rest.
package dev.loopjit.nn;

import dev.loopjit.api.Profile;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Accumulates the profiles of an epoch's steps ({@link Trainer#profile}) and prints, per step:
 * each task's kernel time, the kernels' sum, copies, JIT, and the rest of the step's wall time —
 * launches, synchronisation, the plan runner's and the trainer's host work — each with its share.
 */
final class StepBreakdown {
  private final Map<String, Long> kernelNanos = new LinkedHashMap<>();
  private long kernels, copies, jit;

  void add(Profile p) {
    for (Profile.TaskTime t : p.tasks()) kernelNanos.merge(t.task(), t.kernelNanos(), Long::sum);
    kernels += p.kernelNanos();
    copies += p.copyInNanos() + p.copyOutNanos();
    jit += p.compileNanos() + p.driverCompileNanos();
  }

  /** The table for an epoch of {@code steps} steps that took {@code wallSeconds}: ms per step and share of the step. */
  String table(double wallSeconds, int steps) {
    double wall = wallSeconds * 1e9 / steps, rest = Math.max(0, wall - (kernels + copies + jit) / (double) steps);
    StringBuilder b = new StringBuilder(String.format("  per step: %.3f ms wall; kernels %.3f ms (%.0f %%), copies %.3f ms, JIT %.3f ms,"
        + " the rest (launches, sync, host work, the profiler's own timing) %.3f ms (%.0f %%)%n", wall / 1e6, kernels / 1e6 / steps, 100 * kernels / steps / wall,
        copies / 1e6 / steps, jit / 1e6 / steps, rest / 1e6, 100 * rest / wall));
    kernelNanos.entrySet().stream().sorted((x, y) -> Long.compare(y.getValue(), x.getValue())).forEach(e -> b.append(
        String.format("    %-32s %8.3f ms %5.1f %%%n", e.getKey(), e.getValue() / 1e6 / steps, 100 * e.getValue() / steps / wall)));
    return b.toString();
  }
}
