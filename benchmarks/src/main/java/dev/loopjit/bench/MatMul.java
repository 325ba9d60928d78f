// JMH: naive matrix product C = A·B, 1024×1024, as plain Java and on each OpenCL device (2·n³ flops).
package dev.loopjit.bench;

import dev.loopjit.api.ExecutionResult;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.tasks.Blas;
import dev.loopjit.types.FloatArray;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Naive matrix product: {@code jvm} calls {@link Blas#gemmNaive} directly; the device benchmarks run it
 * in a task graph, one work-item per element of C; n = 512, 1024 and 2048 ({@code -p n=1024} picks one).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {DevicePlan.NATIVE_ACCESS, DevicePlan.VECTOR})
public class MatMul {
  /** The arrays, and what the Java method computes from them. */
  @State(Scope.Benchmark)
  public static class Data implements Workload {
    @Param({"512", "1024", "2048"})
    public int n;

    FloatArray a, b, c, expected;   // a, b, c: (n, n)
    AparapiPeer.Peer aparapi;

    @Setup
    public void setup(BenchmarkParams params) {
      a = Workload.random(n * n, 7);
      b = Workload.random(n * n, 8);
      c = new FloatArray(n * n);
      expected = reference(a, b, n);
      Baselines.checkIfTimed(this, params);   // parallelStreams, vectorApi: checked once against the sequential loop
      aparapi = AparapiPeer.forRunning(params, this, () -> AparapiPeer.gemm(a, b, n));   // only for the aparapi benchmark
    }

    /**
     * What {@link Blas#gemmNaive} computes, in the same additions in the same order (each
     * {@code c[i, j]} starts at 0 and adds {@code a[i, k]·b[k, j]} for k = 0, 1, …), but row by row
     * (i-k-j), which walks B by rows: bit-identical, and fast enough to check n = 2048 in every fork.
     */
    static FloatArray reference(FloatArray a, FloatArray b, int n) {
      float[] row = new float[n];
      FloatArray c = new FloatArray(n * n);
      for (int i = 0; i < n; i++) {
        java.util.Arrays.fill(row, 0f);
        for (int k = 0; k < n; k++) {
          float aik = a.get(i * n + k);
          for (int j = 0; j < n; j++) row[j] += aik * b.get(k * n + j);
        }
        for (int j = 0; j < n; j++) c.set(i * n + j, row[j]);
      }
      return c;
    }

    @Override
    public TaskGraph graph(Transfers t) {
      return t.around("matmul", new Object[] {a, b}, c, g -> g.task("gemm", Blas::gemmNaive, a, b, c, n));
    }

    @Override
    public void baseline(String method) {
      if (method.equals("parallelStreams")) Baselines.gemm(a, b, c, n);
      else VectorBaselines.gemm(a, b, c, n);
    }

    @Override
    public FloatArray output() {
      return c;
    }

    @Override
    public FloatArray expected() {
      return expected;
    }
  }

  /** The device plan of the running benchmark method: copying, resident or cold ({@link DevicePlan#openFor}). */
  @State(Scope.Benchmark)
  public static class Plan extends DevicePlan {
    @Setup
    public void setup(Data d, BenchmarkParams params) {
      openFor(d, params);
    }
  }

  /** The baseline: the plain Java loop, called directly. */
  @Benchmark
  public FloatArray jvm(Data d) {
    Blas.gemmNaive(d.a, d.b, d.c, d.n);
    return d.c;
  }

  /** Plain Java on every core: the same loop as a parallel stream ({@link Baselines}). */
  @Benchmark
  public FloatArray parallelStreams(Data d) {
    Baselines.gemm(d.a, d.b, d.c, d.n);
    return d.c;
  }

  /** Plain Java on one core with SIMD: the Vector API by hand ({@link VectorBaselines}). */
  @Benchmark
  public FloatArray vectorApi(Data d) {
    VectorBaselines.gemm(d.a, d.b, d.c, d.n);
    return d.c;
  }

  /** Aparapi 3.0.2, the same loop written its way, inputs resident on its OpenCL device ({@link AparapiPeer}). */
  @Benchmark
  public Object aparapi(Data d) {
    return d.aparapi.run();
  }

  @Benchmark
  public ExecutionResult withTransfers(Plan p) {
    return p.execute();
  }

  @Benchmark
  public ExecutionResult kernelOnly(Plan p) {
    return p.execute();
  }

  /** A fresh process's first execution: JIT, driver compile, copies and kernel; one fork per sample. */
  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @Warmup(iterations = 0)
  @Measurement(iterations = 1)
  @Fork(value = 5, jvmArgsAppend = {DevicePlan.NATIVE_ACCESS, DevicePlan.VECTOR})
  public ExecutionResult firstCall(Plan p) {
    return p.execute();
  }
}
