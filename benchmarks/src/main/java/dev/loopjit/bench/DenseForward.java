// JMH: a dense layer's forward pass, y = x·Wᵀ + bias for a batch of 256, 784 → 256, as plain Java and on each OpenCL device (2·batch·in·out flops).
package dev.loopjit.bench;

import dev.loopjit.api.TaskGraph;
import dev.loopjit.tasks.Dense;
import dev.loopjit.types.FloatArray;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * A dense layer's forward pass: {@code jvm} calls {@link Dense#forward} directly; the device
 * benchmarks run it in a task graph, one work-item per output.
 */
@State(Scope.Benchmark)
public class DenseForward extends DeviceBenchmarks.Compared {
  /** The arrays, and what the Java method computes from them. */
  @State(Scope.Benchmark)
  public static class Data extends WorkloadData {
    @Param("256")
    public int batch;

    @Param("784")
    public int in;

    @Param("256")
    public int out;

    FloatArray x, w, bias, y;   // x: (batch, in), w: (out, in), bias: (out), y: (batch, out)

    @Setup
    public void setup(BenchmarkParams params) {
      x = Workload.random(batch * in, 9);
      w = Workload.random(out * in, 10);
      bias = Workload.random(out, 11);
      y = new FloatArray(batch * out);
      output = y;
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
    void parallelStreams() {
      Baselines.dense(x, w, bias, y, batch, in, out);
    }

    @Override
    void vectorApi() {
      VectorBaselines.dense(x, w, bias, y, batch, in, out);
    }

    @Override
    void sequential() {
      Dense.forward(x, w, bias, y, batch, in, out);
    }
  }

  @Setup
  public void setup(Data d) {
    use(d);
  }
}
