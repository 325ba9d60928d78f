// JMH: tornado-tasks' activations over 16M floats — relu, sigmoid, tanh, gelu — as plain Java and kernel-only on each device.
package dev.loopjit.bench;

import dev.loopjit.api.ExecutionResult;
import dev.loopjit.tasks.Activations;
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

/** {@code X_jvm} calls the Java method directly; {@code X_device} runs the kernel with its input resident. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = DevicePlan.NATIVE_ACCESS)
public class LibraryActivations {
  @State(Scope.Benchmark)
  public static class Data {
    @Param("16777216")
    public int n;

    FloatArray x, y, relu, sigmoid, tanh, gelu;   // x, y and plain Java's results: (n)

    @Setup
    public void setup() {
      x = Workload.random(n, 61);
      for (int i = 0; i < n; i++) x.set(i, 6 * x.get(i));   // [-6, 6): every branch of every function
      y = new FloatArray(n);
      relu = new FloatArray(n);
      Activations.relu(x, relu);
      sigmoid = new FloatArray(n);
      Activations.sigmoid(x, sigmoid);
      tanh = new FloatArray(n);
      Activations.tanh(x, tanh);
      gelu = new FloatArray(n);
      Activations.gelu(x, gelu);
    }
  }

  @State(Scope.Benchmark)
  public static class Relu extends DevicePlan {
    @Setup
    public void setup(Data d) {
      open(new LibraryKernel("activation", new Object[] {d.x}, d.y, d.relu, g -> g.task("relu", Activations::relu, d.x, d.y), true),
          Transfers.RESIDENT);
    }
  }

  @State(Scope.Benchmark)
  public static class Sigmoid extends DevicePlan {
    @Setup
    public void setup(Data d) {
      open(new LibraryKernel("activation", new Object[] {d.x}, d.y, d.sigmoid, g -> g.task("sigmoid", Activations::sigmoid, d.x, d.y), true),
          Transfers.RESIDENT);
    }
  }

  @State(Scope.Benchmark)
  public static class Tanh extends DevicePlan {
    @Setup
    public void setup(Data d) {
      open(new LibraryKernel("activation", new Object[] {d.x}, d.y, d.tanh, g -> g.task("tanh", Activations::tanh, d.x, d.y), true),
          Transfers.RESIDENT);
    }
  }

  @State(Scope.Benchmark)
  public static class Gelu extends DevicePlan {
    @Setup
    public void setup(Data d) {
      open(new LibraryKernel("activation", new Object[] {d.x}, d.y, d.gelu, g -> g.task("gelu", Activations::gelu, d.x, d.y), true),
          Transfers.RESIDENT);
    }
  }

  @Benchmark
  public FloatArray relu_jvm(Data d) {
    Activations.relu(d.x, d.y);
    return d.y;
  }

  @Benchmark
  public ExecutionResult relu_device(Relu p) {
    return p.execute();
  }

  @Benchmark
  public FloatArray sigmoid_jvm(Data d) {
    Activations.sigmoid(d.x, d.y);
    return d.y;
  }

  @Benchmark
  public ExecutionResult sigmoid_device(Sigmoid p) {
    return p.execute();
  }

  @Benchmark
  public FloatArray tanh_jvm(Data d) {
    Activations.tanh(d.x, d.y);
    return d.y;
  }

  @Benchmark
  public ExecutionResult tanh_device(Tanh p) {
    return p.execute();
  }

  @Benchmark
  public FloatArray gelu_jvm(Data d) {
    Activations.gelu(d.x, d.y);
    return d.y;
  }

  @Benchmark
  public ExecutionResult gelu_device(Gelu p) {
    return p.execute();
  }
}
