// JMH: a dense layer's forward pass, y = x·Wᵀ + bias for a batch of 256, 784 → 256, as plain Java and on each OpenCL device (2·batch·in·out flops).
package dev.loopjit.bench;

import dev.loopjit.api.ExecutionResult;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.tasks.Dense;
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
 * A dense layer's forward pass: {@code jvm} calls {@link Dense#forward} directly; the device
 * benchmarks run it in a task graph, one work-item per output.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {DevicePlan.NATIVE_ACCESS, DevicePlan.VECTOR})
public class DenseForward {
  /** The arrays, and what the Java method computes from them. */
  @State(Scope.Benchmark)
  public static class Data implements Workload {
    @Param("256")
    public int batch;

    @Param("784")
    public int in;

    @Param("256")
    public int out;

    FloatArray x, w, bias, y, expected;   // x: (batch, in), w: (out, in), bias: (out), y: (batch, out)
    AparapiPeer.Peer aparapi;

    @Setup
    public void setup(BenchmarkParams params) {
      x = Workload.random(batch * in, 9);
      w = Workload.random(out * in, 10);
      bias = Workload.random(out, 11);
      y = new FloatArray(batch * out);
      expected = new FloatArray(batch * out);
      Dense.forward(x, w, bias, expected, batch, in, out);
      Baselines.checkIfTimed(this, params);   // parallelStreams, vectorApi: checked once against the sequential loop
      aparapi = AparapiPeer.forRunning(params, this, () -> AparapiPeer.dense(x, w, bias, batch, in, out));   // only for the aparapi benchmark
    }

    @Override
    public TaskGraph graph(Transfers t) {
      return t.around("dense", new Object[] {x, w, bias}, y, g -> g.task("forward", Dense::forward, x, w, bias, y, batch, in, out));
    }

    @Override
    public void baseline(String method) {
      if (method.equals("parallelStreams")) Baselines.dense(x, w, bias, y, batch, in, out);
      else VectorBaselines.dense(x, w, bias, y, batch, in, out);
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
    Dense.forward(d.x, d.w, d.bias, d.y, d.batch, d.in, d.out);
    return d.y;
  }

  /** Plain Java on every core: the same loop as a parallel stream ({@link Baselines}). */
  @Benchmark
  public FloatArray parallelStreams(Data d) {
    Baselines.dense(d.x, d.w, d.bias, d.y, d.batch, d.in, d.out);
    return d.y;
  }

  /** Plain Java on one core with SIMD: the Vector API by hand ({@link VectorBaselines}). */
  @Benchmark
  public FloatArray vectorApi(Data d) {
    VectorBaselines.dense(d.x, d.w, d.bias, d.y, d.batch, d.in, d.out);
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
