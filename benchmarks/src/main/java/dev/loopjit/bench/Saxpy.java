// JMH: saxpy, y = a·x + y over 16M floats, as plain Java and on each OpenCL device (12 bytes moved per element).
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
 * Saxpy, {@code y = a·x + y}: {@code jvm} calls {@link Blas#saxpy} directly; the device benchmarks run
 * it in a task graph. {@code y} grows with every execution, so only the first one is checked.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {DevicePlan.NATIVE_ACCESS, DevicePlan.VECTOR})
public class Saxpy {
  /** The arrays, and what the Java method computes from them. */
  @State(Scope.Benchmark)
  public static class Data implements Workload {
    static final float A = 0.5f;

    @Param("16777216")
    public int n;

    FloatArray x, y, expected;
    AparapiPeer.Peer aparapi;

    @Setup
    public void setup(BenchmarkParams params) {
      x = Workload.random(n, 3);
      y = Workload.random(n, 4);
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
    public void baseline(String method) {
      if (method.equals("parallelStreams")) Baselines.saxpy(A, x, y);
      else VectorBaselines.saxpy(A, x, y);
    }

    @Override
    public FloatArray output() {
      return y;
    }

    @Override
    public FloatArray expected() {
      return expected;
    }

    /** y keeps growing by a·x: only the first execution can be checked. */
    @Override
    public boolean repeatable() {
      return false;
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
    Blas.saxpy(Data.A, d.x, d.y);
    return d.y;
  }

  /** Plain Java on every core: the same loop as a parallel stream ({@link Baselines}). */
  @Benchmark
  public FloatArray parallelStreams(Data d) {
    Baselines.saxpy(Data.A, d.x, d.y);
    return d.y;
  }

  /** Plain Java on one core with SIMD: the Vector API by hand ({@link VectorBaselines}). */
  @Benchmark
  public FloatArray vectorApi(Data d) {
    VectorBaselines.saxpy(Data.A, d.x, d.y);
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
