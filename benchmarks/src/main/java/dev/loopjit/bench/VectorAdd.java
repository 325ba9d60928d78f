// JMH: the seeds' vector add, c = a + b over 16M floats, as plain Java and on each OpenCL device (12 bytes moved per element).
package dev.loopjit.bench;

import dev.loopjit.api.TaskGraph;
import dev.loopjit.tasks.Seeds;
import dev.loopjit.types.FloatArray;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The seeds' vector add: {@code jvm} calls {@link Seeds#vectorAdd} directly; the device benchmarks run it
 * in a task graph ({@link Transfers}); {@code firstCall} times a new plan's first execution in a fresh JVM.
 */
@State(Scope.Benchmark)
public class VectorAdd extends DeviceBenchmarks.Compared {
  /** The arrays, and what the Java method computes from them. */
  @State(Scope.Benchmark)
  public static class Data extends WorkloadData {
    @Param("16777216")
    public int n;

    FloatArray a, b, c;

    @Setup
    public void setup(BenchmarkParams params) {
      a = Workload.random(n, 1);
      b = Workload.random(n, 2);
      c = new FloatArray(n);
      output = c;
      expected = new FloatArray(n);
      Seeds.vectorAdd(a, b, expected);
      Baselines.checkIfTimed(this, params);   // parallelStreams, vectorApi: checked once against the sequential loop
      aparapi = AparapiPeer.forRunning(params, this, () -> AparapiPeer.vectorAdd(a, b, n));   // only for the aparapi benchmark
    }

    @Override
    public TaskGraph graph(Transfers t) {
      return t.around("vectorAdd", new Object[] {a, b}, c, g -> g.task("add", Seeds::vectorAdd, a, b, c));
    }

    @Override
    void parallelStreams() {
      Baselines.vectorAdd(a, b, c);
    }

    @Override
    void vectorApi() {
      VectorBaselines.vectorAdd(a, b, c);
    }

    @Override
    void sequential() {
      Seeds.vectorAdd(a, b, c);
    }
  }

  @Setup
  public void setup(Data d) {
    use(d);
  }
}
