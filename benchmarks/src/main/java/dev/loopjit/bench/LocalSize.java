// JMH: the CPU local-size policy put to the test: kernelOnly of vector add and naive matmul under fixed local sizes and "auto" (WorkGroups' choice).
package dev.loopjit.bench;

import dev.loopjit.api.ExecutionResult;
import dev.loopjit.api.GridScheduler;
import dev.loopjit.api.WorkerGrid1D;
import dev.loopjit.api.WorkerGrid2D;
import dev.loopjit.api.WorkerGrid;
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
 * Not part of the default {@code scripts/bench} run: {@code scripts/bench LocalSize}. The figures
 * behind the CPU rules of {@code WorkGroups} (docs/performance-log.md). Sampled, so that the report can
 * give the fastest and the median execution: on a shared machine the fastest is the one least
 * disturbed by other processes.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = DevicePlan.NATIVE_ACCESS)
public class LocalSize {
  /** Vector add, kernel only, with the local size {@code local}. */
  @State(Scope.Benchmark)
  public static class VectorAddPlan extends DevicePlan {
    @Param({"auto", "64", "256", "1024", "4096"})
    public String local;

    @Setup
    public void setup(VectorAdd.Data d) {
      open(d, Transfers.RESIDENT, grid("vectorAdd.add", local, new WorkerGrid1D(d.n)));
    }
  }

  /** Naive matmul, kernel only, with the local size {@code local}. */
  @State(Scope.Benchmark)
  public static class MatMulPlan extends DevicePlan {
    @Param({"auto", "8x8", "16x16", "32x8", "64x4", "64x16", "256x4", "4x64", "16x1", "64x1", "256x1", "1024x1"})
    public String local;

    @Setup
    public void setup(MatMul.Data d) {
      open(d, Transfers.RESIDENT, grid("matmul.gemm", local, new WorkerGrid2D(d.n, d.n)));
    }
  }

  /** Matrix-vector, kernel only, with the local size {@code local}. */
  @State(Scope.Benchmark)
  public static class MatVecPlan extends DevicePlan {
    @Param({"auto", "32", "64", "128", "256", "512", "1024", "4096"})
    public String local;

    @Setup
    public void setup(MatVec.Data d) {
      open(d, Transfers.RESIDENT, grid("matvec.gemv", local, new WorkerGrid1D(d.n)));
    }
  }

  /** Dense forward, kernel only, with the local size {@code local}. */
  @State(Scope.Benchmark)
  public static class DensePlan extends DevicePlan {
    @Param({"auto", "8x8", "16x16", "64x4", "16x1", "64x1", "256x1", "256x4"})
    public String local;

    @Setup
    public void setup(DenseForward.Data d) {
      open(d, Transfers.RESIDENT, grid("dense.forward", local, new WorkerGrid2D(d.out, d.batch)));
    }
  }

  /** No scheduler for "auto"; else {@code grid} with local size "X" or "XxY". */
  static GridScheduler grid(String task, String local, WorkerGrid grid) {
    if (local.equals("auto")) return null;
    String[] xy = local.split("x");
    grid.setLocalWork(Long.parseLong(xy[0]), xy.length > 1 ? Long.parseLong(xy[1]) : 1, 1);
    return new GridScheduler(task, grid);
  }

  @Benchmark
  public ExecutionResult vectorAdd(VectorAddPlan p) {
    return p.execute();
  }

  @Benchmark
  public ExecutionResult matvec(MatVecPlan p) {
    return p.execute();
  }

  @Benchmark
  public ExecutionResult dense(DensePlan p) {
    return p.execute();
  }

  @Benchmark
  @Measurement(iterations = 5, time = 1)
  public ExecutionResult matmul(MatMulPlan p) {
    return p.execute();
  }
}
