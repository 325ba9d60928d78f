// What a benchmark runs: its arrays, the task graph of its kernel, and the plain-Java result every device must match.
package dev.loopjit.bench;

import dev.loopjit.api.GridScheduler;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.types.FloatArray;
import java.util.SplittableRandom;

/** One workload's data, as a JMH {@code @State} implements it; the plain Java result is computed in its setup. */
interface Workload {
  /** The kernel's graph with these transfers. */
  TaskGraph graph(Transfers transfers);

  /** The array the kernel writes. */
  FloatArray output();

  /** What the plain Java method left in {@link #output()} after one call on the initial data. */
  FloatArray expected();

  /**
   * Runs the plain-Java baseline the benchmark method {@code method} times ({@code parallelStreams},
   * {@code vectorApi}) once on the initial data, leaving its result in {@link #output()}.
   */
  default void baseline(String method) {
    throw new UnsupportedOperationException(getClass().getName() + " has no baseline " + method);
  }

  /** How far each output element of baseline {@code method} may be from {@link #expected()}; null: bit-identical. */
  default float[] bound(String method) {
    return null;
  }

  /** The grid of a KernelContext task; null: the task's own loops give it. */
  default GridScheduler grids() {
    return null;
  }

  /** Whether running the kernel again gives the same output (false for {@code y = a·x + y}). */
  default boolean repeatable() {
    return true;
  }

  /** {@code n} floats uniform in [-1, 1), the same for the same seed. */
  static FloatArray random(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    FloatArray a = new FloatArray(n);
    for (int i = 0; i < n; i++) a.set(i, (float) (r.nextDouble() * 2 - 1));
    return a;
  }

  /** A copy of {@code a}. */
  static FloatArray copy(FloatArray a) {
    FloatArray c = new FloatArray(a.getSize());
    c.getSegment().copyFrom(a.getSegment());
    return c;
  }
}
