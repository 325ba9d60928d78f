// JMH: out = in over 16M floats (8 bytes moved per element): the device's copy bandwidth, the yardstick for the streaming kernels.
package dev.loopjit.bench;

import dev.loopjit.api.Parallel;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.types.FloatArray;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * A plain copy loop: {@code kernelOnly} on a GPU is its memory bandwidth as a kernel sees it (what
 * vector add's 12 bytes per element are measured against); {@code jvm} is the same loop in Java.
 */
@State(Scope.Benchmark)
public class Copy extends DeviceBenchmarks {
  /** The arrays, and what the Java method computes from them. */
  @State(Scope.Benchmark)
  public static class Data extends WorkloadData {
    @Param("16777216")
    public int n;

    FloatArray a, c;

    @Setup
    public void setup() {
      a = Workload.random(n, 1);
      c = new FloatArray(n);
      output = c;
      expected = Workload.copy(a);
    }

    @Override
    public TaskGraph graph(Transfers t) {
      return t.around("copy", new Object[] {a}, c, g -> g.task("copy", Copy::copy, a, c));
    }

    @Override
    void sequential() {
      copy(a, c);
    }
  }

  @Setup
  public void setup(Data d) {
    use(d);
  }

  /** The kernel. */
  public static void copy(FloatArray in, FloatArray out) {
    for (@Parallel int i = 0; i < out.getSize(); i++) out.set(i, in.get(i));
  }
}
