// JMH: tornado-tasks' BLAS-2 at 4096×4096 — y = Aᵀ·x naive and in column strips, and ger — as plain Java and kernel-only on each device.
package dev.loopjit.bench;

import dev.loopjit.api.ExecutionResult;
import dev.loopjit.tasks.Blas2;
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
 * {@code X_jvm} calls the Java method directly; {@code X_device} runs the kernel with its inputs
 * resident. Both transposed products give the same bits, checked before timing; ger adds into A,
 * so only its first execution is checked. ({@code y = A·x} is {@link MatVec}.)
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = DevicePlan.NATIVE_ACCESS)
public class LibraryBlas2 {
  static final float ALPHA = 0.5f;

  @State(Scope.Benchmark)
  public static class Data {
    @Param("4096")
    public int n;

    FloatArray a, x, y, yExpected, g, gExpected;   // a, g: (n, n); x, y: (n); g is ger's matrix, updated in place

    @Setup
    public void setup() {
      a = Workload.random(n * n, 31);
      x = Workload.random(n, 32);
      y = new FloatArray(n);
      yExpected = new FloatArray(n);
      Blas2.gemvTransposed(a, x, yExpected, n, n);
      g = Workload.random(n * n, 33);
      gExpected = Workload.copy(g);
      Blas2.ger(ALPHA, x, yExpected, gExpected, n, n);
    }
  }

  @State(Scope.Benchmark)
  public static class GemvTransposed extends DevicePlan {
    @Setup
    public void setup(Data d) {
      open(new LibraryKernel("blas2", new Object[] {d.a, d.x}, d.y, d.yExpected,
          t -> t.task("gemvTransposed", Blas2::gemvTransposed, d.a, d.x, d.y, d.n, d.n), true), Transfers.RESIDENT);
    }
  }

  @State(Scope.Benchmark)
  public static class GemvTransposedStrips extends DevicePlan {
    @Setup
    public void setup(Data d) {
      open(new LibraryKernel("blas2", new Object[] {d.a, d.x}, d.y, d.yExpected,
          t -> t.task("gemvTransposedStrips", Blas2::gemvTransposedStrips, d.a, d.x, d.y, d.n, d.n), true), Transfers.RESIDENT);
    }
  }

  @State(Scope.Benchmark)
  public static class Ger extends DevicePlan {
    @Setup
    public void setup(Data d) {
      open(new LibraryKernel("blas2", new Object[] {d.x, d.yExpected, d.g}, d.g, d.gExpected,
          t -> t.task("ger", Blas2::ger, ALPHA, d.x, d.yExpected, d.g, d.n, d.n), false), Transfers.RESIDENT);
    }
  }

  @Benchmark
  public FloatArray gemvTransposed_jvm(Data d) {
    Blas2.gemvTransposed(d.a, d.x, d.y, d.n, d.n);
    return d.y;
  }

  @Benchmark
  public ExecutionResult gemvTransposed_device(GemvTransposed p) {
    return p.execute();
  }

  @Benchmark
  public FloatArray gemvTransposedStrips_jvm(Data d) {
    Blas2.gemvTransposedStrips(d.a, d.x, d.y, d.n, d.n);
    return d.y;
  }

  @Benchmark
  public ExecutionResult gemvTransposedStrips_device(GemvTransposedStrips p) {
    return p.execute();
  }

  @Benchmark
  public FloatArray ger_jvm(Data d) {
    Blas2.ger(ALPHA, d.x, d.yExpected, d.g, d.n, d.n);
    return d.g;
  }

  @Benchmark
  public ExecutionResult ger_device(Ger p) {
    return p.execute();
  }
}
