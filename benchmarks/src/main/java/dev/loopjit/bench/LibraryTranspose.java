// JMH: tornado-tasks' three transposes of a 4096×4096 matrix, as plain Java and kernel-only on each device (8 bytes moved per element).
package dev.loopjit.bench;

import dev.loopjit.api.ExecutionResult;
import dev.loopjit.api.GridScheduler;
import dev.loopjit.api.KernelContext;
import dev.loopjit.tasks.Transpose;
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

/**
 * {@code X_jvm} calls the Java method directly; {@code X_device} runs the kernel with its input
 * resident. {@code tiled} is a KernelContext kernel with no plain Java call, so it has no
 * {@code _jvm}. All three must give the naive transpose exactly, checked before timing.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = DevicePlan.NATIVE_ACCESS)
public class LibraryTranspose {
  @State(Scope.Benchmark)
  public static class Data {
    @Param("4096")
    public int n;

    FloatArray in, out, expected;   // in, out: (n, n)

    @Setup
    public void setup() {
      in = Workload.random(n * n, 41);
      out = new FloatArray(n * n);
      expected = new FloatArray(n * n);
      Transpose.naive(in, expected, n, n);
    }
  }

  @State(Scope.Benchmark)
  public static class Naive extends DevicePlan {
    @Setup
    public void setup(Data d) {
      open(new LibraryKernel("transpose", new Object[] {d.in}, d.out, d.expected,
          g -> g.task("naive", Transpose::naive, d.in, d.out, d.n, d.n), true), Transfers.RESIDENT);
    }
  }

  @State(Scope.Benchmark)
  public static class Tiled extends DevicePlan {
    @Setup
    public void setup(Data d) {
      open(new LibraryKernel("transpose", new Object[] {d.in}, d.out, d.expected,
          g -> g.task("tiled", Transpose::tiled, new KernelContext(), d.in, d.out, d.n, d.n), true), Transfers.RESIDENT,
          new GridScheduler("transpose.tiled", Transpose.tiledGrid(d.n, d.n)));
    }
  }

  @State(Scope.Benchmark)
  public static class Blocked extends DevicePlan {
    @Setup
    public void setup(Data d) {
      open(new LibraryKernel("transpose", new Object[] {d.in}, d.out, d.expected,
          g -> g.task("blocked", Transpose::blocked, d.in, d.out, d.n, d.n), true), Transfers.RESIDENT);
    }
  }

  @Benchmark
  public FloatArray naive_jvm(Data d) {
    Transpose.naive(d.in, d.out, d.n, d.n);
    return d.out;
  }

  @Benchmark
  public ExecutionResult naive_device(Naive p) {
    return p.execute();
  }

  @Benchmark
  public ExecutionResult tiled_device(Tiled p) {
    return p.execute();
  }

  @Benchmark
  public FloatArray blocked_jvm(Data d) {
    Transpose.blocked(d.in, d.out, d.n, d.n);
    return d.out;
  }

  @Benchmark
  public ExecutionResult blocked_device(Blocked p) {
    return p.execute();
  }
}
