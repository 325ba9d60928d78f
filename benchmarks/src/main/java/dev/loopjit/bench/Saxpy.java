// JMH: saxpy, y = a·x + y over 16M floats, as plain Java and on each OpenCL device (12 bytes moved per element).
package dev.loopjit.bench;

import dev.loopjit.api.TaskGraph;
import dev.loopjit.tasks.Blas;
import dev.loopjit.types.FloatArray;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Saxpy, {@code y = a·x + y}: {@code jvm} calls {@link Blas#saxpy} directly; the device benchmarks run
 * it in a task graph. {@code y} grows with every execution, so only the first one is checked.
 */
@State(Scope.Benchmark)
public class Saxpy extends DeviceBenchmarks.Compared {
  /** The arrays, and what the Java method computes from them. */
  @State(Scope.Benchmark)
  public static class Data extends WorkloadData {
    static final float A = 0.5f;

    @Param("16777216")
    public int n;

    FloatArray x, y;

    @Setup
    public void setup(BenchmarkParams params) {
      x = Workload.random(n, 3);
      y = Workload.random(n, 4);
      output = y;
      expected = Workload.copy(y);
      Blas.saxpy(A, x, expected);
      Baselines.checkIfTimed(this, params);   // parallelStreams, vectorApi: checked once against the sequential loop
      aparapi = AparapiPeer.forRunning(params, this, () -> AparapiPeer.saxpy(A, x, y, n));   // only for the aparapi benchmark
    }

    @Override
    public TaskGraph graph(Transfers t) {
      return t.around("saxpy", new Object[] {x, y}, y, g -> g.task("saxpy", Blas::saxpy, A, x, y));
    }

    @Override
    void parallelStreams() {
      Baselines.saxpy(A, x, y);
    }

    @Override
    void vectorApi() {
      VectorBaselines.saxpy(A, x, y);
    }

    @Override
    void sequential() {
      Blas.saxpy(Data.A, x, y);
    }

    /** y keeps growing by a·x: only the first execution can be checked. */
    @Override
    public boolean repeatable() {
      return false;
    }
  }

  @Setup
  public void setup(Data d) {
    use(d);
  }
}
