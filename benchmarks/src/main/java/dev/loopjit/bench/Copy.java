// JMH: out = in over 16M floats (8 bytes moved per element): the device's copy bandwidth, the yardstick for the streaming kernels.
package dev.loopjit.bench;

import dev.loopjit.api.ExecutionResult;
import dev.loopjit.api.Parallel;
import dev.loopjit.api.TaskGraph;
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
 * A plain copy loop: {@code kernelOnly} on a GPU is its memory bandwidth as a kernel sees it (what
 * vector add's 12 bytes per element are measured against); {@code jvm} is the same loop in Java.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = DevicePlan.NATIVE_ACCESS)
public class Copy {
  /** The arrays, and what the Java method computes from them. */
  @State(Scope.Benchmark)
  public static class Data implements Workload {
    @Param("16777216")
    public int n;

    FloatArray a, c, expected;

    @Setup
    public void setup() {
      a = Workload.random(n, 1);
      c = new FloatArray(n);
      expected = Workload.copy(a);
    }

    @Override
    public TaskGraph graph(Transfers t) {
      return t.around("copy", new Object[] {a}, c, g -> g.task("copy", Copy::copy, a, c));
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

  /** The kernel. */
  public static void copy(FloatArray in, FloatArray out) {
    for (@Parallel int i = 0; i < out.getSize(); i++) out.set(i, in.get(i));
  }

  /** The baseline: the plain Java loop, called directly. */
  @Benchmark
  public FloatArray jvm(Data d) {
    copy(d.a, d.c);
    return d.c;
  }

  @Benchmark
  public ExecutionResult withTransfers(Plan p) {
    return p.execute();
  }

  @Benchmark
  public ExecutionResult kernelOnly(Plan p) {
    return p.execute();
  }
}
