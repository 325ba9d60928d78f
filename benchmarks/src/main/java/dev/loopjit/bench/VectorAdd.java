// JMH: the seeds' vector add, c = a + b over 16M floats, as plain Java and on each OpenCL device (12 bytes moved per element).
package dev.loopjit.bench;

import dev.loopjit.api.ExecutionResult;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.tasks.Seeds;
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
 * The seeds' vector add: {@code jvm} calls {@link Seeds#vectorAdd} directly; the device benchmarks run it
 * in a task graph ({@link Transfers}); {@code firstCall} times a new plan's first execution in a fresh JVM.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {DevicePlan.NATIVE_ACCESS, DevicePlan.VECTOR})
public class VectorAdd {
  /** The arrays, and what the Java method computes from them. */
  @State(Scope.Benchmark)
  public static class Data implements Workload {
    @Param("16777216")
    public int n;

    FloatArray a, b, c, expected;
    AparapiPeer.Peer aparapi;

    @Setup
    public void setup(BenchmarkParams params) {
      a = Workload.random(n, 1);
      b = Workload.random(n, 2);
      c = new FloatArray(n);
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
    public void baseline(String method) {
      if (method.equals("parallelStreams")) Baselines.vectorAdd(a, b, c);
      else VectorBaselines.vectorAdd(a, b, c);
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
    Seeds.vectorAdd(d.a, d.b, d.c);
    return d.c;
  }

  /** Plain Java on every core: the same loop as a parallel stream ({@link Baselines}). */
  @Benchmark
  public FloatArray parallelStreams(Data d) {
    Baselines.vectorAdd(d.a, d.b, d.c);
    return d.c;
  }

  /** Plain Java on one core with SIMD: the Vector API by hand ({@link VectorBaselines}). */
  @Benchmark
  public FloatArray vectorApi(Data d) {
    VectorBaselines.vectorAdd(d.a, d.b, d.c);
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
