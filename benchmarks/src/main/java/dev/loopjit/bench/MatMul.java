// JMH: naive matrix product C = A·B, 1024×1024, as plain Java and on each OpenCL device (2·n³ flops).
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
 * Naive matrix product: {@code jvm} calls {@link Blas#gemmNaive} directly; the device benchmarks run it
 * in a task graph, one work-item per element of C; n = 512, 1024 and 2048 ({@code -p n=1024} picks one).
 */
@State(Scope.Benchmark)
public class MatMul extends DeviceBenchmarks.Compared {
  /** The arrays, and what the Java method computes from them. */
  @State(Scope.Benchmark)
  public static class Data extends WorkloadData {
    @Param({"512", "1024", "2048"})
    public int n;

    FloatArray a, b, c;   // a, b, c: (n, n)

    @Setup
    public void setup(BenchmarkParams params) {
      a = Workload.random(n * n, 7);
      b = Workload.random(n * n, 8);
      c = new FloatArray(n * n);
      output = c;
      expected = reference(a, b, n);
      Baselines.checkIfTimed(this, params);   // parallelStreams, vectorApi: checked once against the sequential loop
      aparapi = AparapiPeer.forRunning(params, this, () -> AparapiPeer.gemm(a, b, n));   // only for the aparapi benchmark
    }

    /**
     * What {@link Blas#gemmNaive} computes, in the same additions in the same order (each
     * {@code c[i, j]} starts at 0 and adds {@code a[i, k]·b[k, j]} for k = 0, 1, …), but row by row
     * (i-k-j), which walks B by rows: bit-identical; rows in parallel, each on its own, so that n = 4096
     * is checked within a GPU host's phase (16 cores: seconds; sequentially it took most of 150 s).
     */
    static FloatArray reference(FloatArray a, FloatArray b, int n) {
      FloatArray c = new FloatArray(n * n);
      java.util.stream.IntStream.range(0, n).parallel().forEach(i -> {
        float[] row = new float[n];
        for (int k = 0; k < n; k++) {
          float aik = a.get(i * n + k);
          for (int j = 0; j < n; j++) row[j] += aik * b.get(k * n + j);
        }
        for (int j = 0; j < n; j++) c.set(i * n + j, row[j]);
      });
      return c;
    }

    @Override
    public TaskGraph graph(Transfers t) {
      return t.around("matmul", new Object[] {a, b}, c, g -> g.task("gemm", Blas::gemmNaive, a, b, c, n));
    }

    @Override
    void parallelStreams() {
      Baselines.gemm(a, b, c, n);
    }

    @Override
    void vectorApi() {
      VectorBaselines.gemm(a, b, c, n);
    }

    @Override
    void sequential() {
      Blas.gemmNaive(a, b, c, n);
    }
  }

  @Setup
  public void setup(Data d) {
    use(d);
  }
}
