// What a workload benchmark's @State holds: its arrays, the plain Java result, and the Aparapi peer when that is what runs.
package dev.loopjit.bench;

import dev.loopjit.types.FloatArray;

/** The data of one workload ({@link DeviceBenchmarks}); a subclass fills it in its {@code @Setup}. */
abstract class WorkloadData implements Workload {
  /** The array the kernel writes (one of the subclass's). */
  FloatArray output;

  /** What the plain Java method left in {@link #output()} after one call on the initial data. */
  FloatArray expected;

  /** Aparapi's run of the same loop, for the {@code aparapi} benchmark only ({@link AparapiPeer#forRunning}); else null. */
  AparapiPeer.Peer aparapi;

  /** Runs the plain Java method once: what the {@code jvm} benchmark times. */
  abstract void sequential();

  /** The same loop as a parallel stream ({@link Baselines}); only the compared workloads have it. */
  void parallelStreams() {
    throw new UnsupportedOperationException(getClass().getName() + " has no parallel-streams baseline");
  }

  /** The same loop with the Vector API by hand ({@link VectorBaselines}); only the compared workloads have it. */
  void vectorApi() {
    throw new UnsupportedOperationException(getClass().getName() + " has no Vector API baseline");
  }

  @Override
  public void baseline(String method) {
    if (method.equals("parallelStreams")) parallelStreams();
    else vectorApi();
  }

  @Override
  public FloatArray output() {
    return output;
  }

  @Override
  public FloatArray expected() {
    return expected;
  }
}
