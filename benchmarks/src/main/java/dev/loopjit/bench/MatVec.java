// JMH: matrix-vector product y = A·x, A 4096×4096, as plain Java and on each OpenCL device (2·n² flops).
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
 * Matrix-vector product: {@code jvm} calls {@link Blas#gemv} directly; the device benchmarks run it in
 * a task graph, one work-item per row.
 */
@State(Scope.Benchmark)
public class MatVec extends DeviceBenchmarks.Compared {
  /** The arrays, and what the Java method computes from them. */
  @State(Scope.Benchmark)
  public static class Data extends WorkloadData {
    @Param("4096")
    public int n;

    FloatArray a, x, y;   // a: (n, n), x: (n), y: (n)

    @Setup
    public void setup(BenchmarkParams params) {
      a = Workload.random(n * n, 5);
      x = Workload.random(n, 6);
      y = new FloatArray(n);
      output = y;
      expected = new FloatArray(n);
      Blas.gemv(a, x, expected, n, n);
      Baselines.checkIfTimed(this, params);   // parallelStreams, vectorApi: checked once against the sequential loop
      aparapi = AparapiPeer.forRunning(params, this, () -> AparapiPeer.gemv(a, x, n));   // only for the aparapi benchmark
    }

    @Override
    public TaskGraph graph(Transfers t) {
      return t.around("matvec", new Object[] {a, x}, y, g -> g.task("gemv", Blas::gemv, a, x, y, n, n));
    }

    @Override
    void parallelStreams() {
      Baselines.gemv(a, x, y, n, n);
    }

    @Override
    void vectorApi() {
      VectorBaselines.gemv(a, x, y, n, n);
    }

    /**
     * The Vector API baseline adds each row in lanes, then across them: another order than the
     * loop's, so it is held to the classic bound of a reordered sum, {@code cols·2⁻²³·Σ|a·x|} per row.
     */
    @Override
    public float[] bound(String method) {
      if (!method.equals("vectorApi")) return null;
      float[] bound = new float[n];
      for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += Math.abs((double) a.get(i * n + j) * x.get(j));
        bound[i] = (float) (n * Math.scalb(s, -23));
      }
      return bound;
    }

    @Override
    void sequential() {
      Blas.gemv(a, x, y, n, n);
    }
  }

  @Setup
  public void setup(Data d) {
    use(d);
  }
}
