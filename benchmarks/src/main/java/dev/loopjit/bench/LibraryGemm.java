// JMH: tornado-tasks' four gemm kernels, C = A·B at 1024×1024, as plain Java and kernel-only on each OpenCL device (2·n³ flops).
package dev.loopjit.bench;

import dev.loopjit.api.ExecutionResult;
import dev.loopjit.api.GridScheduler;
import dev.loopjit.api.KernelContext;
import dev.loopjit.tasks.Blas3;
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
 * {@code X_jvm} calls kernel X's Java method directly; {@code X_device} runs it on the {@code device}
 * parameter with A and B resident and C left there (kernel and launch only). Every variant computes
 * the naive result bit for bit, which each device plan checks before it is timed. {@code gemmTiled}
 * is a KernelContext kernel with no plain Java call, so it has no {@code _jvm}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = DevicePlan.NATIVE_ACCESS)
public class LibraryGemm {
  @State(Scope.Benchmark)
  public static class Data {
    @Param("1024")
    public int n;

    FloatArray a, b, c, expected;   // a, b, c: (n, n)

    @Setup
    public void setup() {
      a = Workload.random(n * n, 11);
      b = Workload.random(n * n, 12);
      c = new FloatArray(n * n);
      expected = new FloatArray(n * n);
      Blas3.gemmNaive(a, b, expected, n, n, n);
    }

    LibraryKernel naive() {
      return new LibraryKernel("gemm", new Object[] {a, b}, c, expected, g -> g.task("naive", Blas3::gemmNaive, a, b, c, n, n, n), true);
    }

    LibraryKernel tiled() {
      return new LibraryKernel("gemm", new Object[] {a, b}, c, expected,
          g -> g.task("tiled", Blas3::gemmTiled, new KernelContext(), a, b, c, n, n, n), true);
    }

    LibraryKernel registerBlocked() {
      return new LibraryKernel("gemm", new Object[] {a, b}, c, expected,
          g -> g.task("registerBlocked", Blas3::gemmRegisterBlocked, a, b, c, n, n, n), true);
    }

    LibraryKernel outerProduct() {
      return new LibraryKernel("gemm", new Object[] {a, b}, c, expected,
          g -> g.task("outerProduct", Blas3::gemmOuterProduct, a, b, c, n, n, n), true);
    }
  }

  @State(Scope.Benchmark)
  public static class Naive extends DevicePlan {
    @Setup
    public void setup(Data d) {
      open(d.naive(), Transfers.RESIDENT);
    }
  }

  @State(Scope.Benchmark)
  public static class Tiled extends DevicePlan {
    @Setup
    public void setup(Data d) {
      open(d.tiled(), Transfers.RESIDENT, new GridScheduler("gemm.tiled", Blas3.tiledGrid(d.n, d.n)));
    }
  }

  @State(Scope.Benchmark)
  public static class RegisterBlocked extends DevicePlan {
    @Setup
    public void setup(Data d) {
      open(d.registerBlocked(), Transfers.RESIDENT);
    }
  }

  @State(Scope.Benchmark)
  public static class OuterProduct extends DevicePlan {
    @Setup
    public void setup(Data d) {
      open(d.outerProduct(), Transfers.RESIDENT);
    }
  }

  @Benchmark
  public FloatArray naive_jvm(Data d) {
    Blas3.gemmNaive(d.a, d.b, d.c, d.n, d.n, d.n);
    return d.c;
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
  public FloatArray registerBlocked_jvm(Data d) {
    Blas3.gemmRegisterBlocked(d.a, d.b, d.c, d.n, d.n, d.n);
    return d.c;
  }

  @Benchmark
  public ExecutionResult registerBlocked_device(RegisterBlocked p) {
    return p.execute();
  }

  @Benchmark
  public FloatArray outerProduct_jvm(Data d) {
    Blas3.gemmOuterProduct(d.a, d.b, d.c, d.n, d.n, d.n);
    return d.c;
  }

  @Benchmark
  public ExecutionResult outerProduct_device(OuterProduct p) {
    return p.execute();
  }
}
