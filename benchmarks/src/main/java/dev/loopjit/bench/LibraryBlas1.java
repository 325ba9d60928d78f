// JMH: tornado-tasks' BLAS-1 over 16M floats — scal, dot (@Reduce and sequential), asum, nrm2 — as plain Java and kernel-only on each device.
package dev.loopjit.bench;

import dev.loopjit.api.ExecutionResult;
import dev.loopjit.tasks.Blas1;
import dev.loopjit.types.FloatArray;
import java.util.SplittableRandom;
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
 * {@code X_jvm} calls the Java method directly; {@code X_device} runs the kernel with its inputs
 * resident. The reductions read values in {-1, 0, 1}: every partial sum is then an integer below
 * 2^24, exact in float, so the device's tree order gives plain Java's result to the bit and the
 * check before timing can be strict (the arithmetic costs the same as for any floats). Reductions
 * keep adding into their output, and scal (by -1) flips x, so only the first execution is checked.
 * {@code nrm2} is the three-task graph {@code zero, sumOfSquares, sqrt}, as in {@code Graphs.nrm2}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = DevicePlan.NATIVE_ACCESS)
public class LibraryBlas1 {
  @State(Scope.Benchmark)
  public static class Data {
    @Param("16777216")
    public int n;

    FloatArray x, y, z, out;   // x, y: (n) in {-1, 0, 1}; z: (n) uniform in [-1, 1), scaled in place; out: (1)
    FloatArray scaled, dot, dotSequential, asum, nrm2;   // plain Java's results

    @Setup
    public void setup() {
      x = ternary(n, 21);
      y = ternary(n, 22);
      z = Workload.random(n, 23);
      out = new FloatArray(1);
      scaled = Workload.copy(z);
      Blas1.scal(-1f, scaled);
      dot = new FloatArray(1);
      Blas1.dot(x, y, dot);
      dotSequential = new FloatArray(1);
      Blas1.dotSequential(x, y, dotSequential);
      asum = new FloatArray(1);
      Blas1.asum(x, asum);
      nrm2 = new FloatArray(1);
      Blas1.sumOfSquares(x, nrm2);
      Blas1.sqrt(nrm2);
    }

    private static FloatArray ternary(int n, long seed) {
      SplittableRandom r = new SplittableRandom(seed);
      FloatArray a = new FloatArray(n);
      for (int i = 0; i < n; i++) a.set(i, r.nextInt(3) - 1);
      return a;
    }
  }

  @State(Scope.Benchmark)
  public static class Scal extends DevicePlan {
    @Setup
    public void setup(Data d) {
      open(new LibraryKernel("blas1", new Object[] {d.z}, d.z, d.scaled, g -> g.task("scal", Blas1::scal, -1f, d.z), false),
          Transfers.RESIDENT);
    }
  }

  @State(Scope.Benchmark)
  public static class Dot extends DevicePlan {
    @Setup
    public void setup(Data d) {
      open(new LibraryKernel("blas1", new Object[] {d.x, d.y, d.out}, d.out, d.dot, g -> g.task("dot", Blas1::dot, d.x, d.y, d.out), false),
          Transfers.RESIDENT);
    }
  }

  @State(Scope.Benchmark)
  public static class DotSequential extends DevicePlan {
    @Setup
    public void setup(Data d) {
      open(new LibraryKernel("blas1", new Object[] {d.x, d.y, d.out}, d.out, d.dotSequential,
          g -> g.task("dotSequential", Blas1::dotSequential, d.x, d.y, d.out), false), Transfers.RESIDENT);
    }
  }

  @State(Scope.Benchmark)
  public static class Asum extends DevicePlan {
    @Setup
    public void setup(Data d) {
      open(new LibraryKernel("blas1", new Object[] {d.x, d.out}, d.out, d.asum, g -> g.task("asum", Blas1::asum, d.x, d.out), false),
          Transfers.RESIDENT);
    }
  }

  @State(Scope.Benchmark)
  public static class Nrm2 extends DevicePlan {
    @Setup
    public void setup(Data d) {
      open(new LibraryKernel("blas1", new Object[] {d.x}, d.out, d.nrm2,
          g -> g.task("zero", Blas1::zero, d.out).task("sumOfSquares", Blas1::sumOfSquares, d.x, d.out).task("sqrt", Blas1::sqrt, d.out),
          true), Transfers.RESIDENT);
    }
  }

  @Benchmark
  public FloatArray scal_jvm(Data d) {
    Blas1.scal(-1f, d.z);
    return d.z;
  }

  @Benchmark
  public ExecutionResult scal_device(Scal p) {
    return p.execute();
  }

  @Benchmark
  public FloatArray dot_jvm(Data d) {
    Blas1.dot(d.x, d.y, d.out);
    return d.out;
  }

  @Benchmark
  public ExecutionResult dot_device(Dot p) {
    return p.execute();
  }

  @Benchmark
  public FloatArray dotSequential_jvm(Data d) {
    Blas1.dotSequential(d.x, d.y, d.out);
    return d.out;
  }

  @Benchmark
  public ExecutionResult dotSequential_device(DotSequential p) {
    return p.execute();
  }

  @Benchmark
  public FloatArray asum_jvm(Data d) {
    Blas1.asum(d.x, d.out);
    return d.out;
  }

  @Benchmark
  public ExecutionResult asum_device(Asum p) {
    return p.execute();
  }

  @Benchmark
  public FloatArray nrm2_jvm(Data d) {
    Blas1.zero(d.out);
    Blas1.sumOfSquares(d.x, d.out);
    Blas1.sqrt(d.out);
    return d.out;
  }

  @Benchmark
  public ExecutionResult nrm2_device(Nrm2 p) {
    return p.execute();
  }
}
