// JMH: matrix-vector product y = A·x, A 4096×4096, as plain Java and on each OpenCL device (2·n² flops).
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
 * Matrix-vector product: {@code jvm} calls {@link Blas#gemv} directly; the device benchmarks run it in
 * a task graph, one work-item per row.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {DevicePlan.NATIVE_ACCESS, DevicePlan.VECTOR})
public class MatVec {
  /** The arrays, and what the Java method computes from them. */
  @State(Scope.Benchmark)
  public static class Data implements Workload {
    @Param("4096")
    public int n;

    FloatArray a, x, y, expected;   // a: (n, n), x: (n), y: (n)
    AparapiPeer.Peer aparapi;

    @Setup
    public void setup(BenchmarkParams params) {
      a = Workload.random(n * n, 5);
      x = Workload.random(n, 6);
      y = new FloatArray(n);
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
    public void baseline(String method) {
      if (method.equals("parallelStreams")) Baselines.gemv(a, x, y, n, n);
      else VectorBaselines.gemv(a, x, y, n, n);
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
    public FloatArray output() {
      return y;
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
    Blas.gemv(d.a, d.x, d.y, d.n, d.n);
    return d.y;
  }

  /** Plain Java on every core: the same loop as a parallel stream ({@link Baselines}). */
  @Benchmark
  public FloatArray parallelStreams(Data d) {
    Baselines.gemv(d.a, d.x, d.y, d.n, d.n);
    return d.y;
  }

  /** Plain Java on one core with SIMD: the Vector API by hand ({@link VectorBaselines}). */
  @Benchmark
  public FloatArray vectorApi(Data d) {
    VectorBaselines.gemv(d.a, d.x, d.y, d.n, d.n);
    return d.y;
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
