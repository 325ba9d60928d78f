// JMH: tornado-tasks' row-wise softmax over 4096 rows of 1024, naive (two exp per element) and with one, as plain Java and kernel-only on each device.
package dev.loopjit.bench;

import dev.loopjit.api.ExecutionResult;
import dev.loopjit.tasks.Softmax;
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
public class LibrarySoftmax {
  @State(Scope.Benchmark)
  public static class Data {
    @Param("4096")
    public int rows;

    @Param("1024")
    public int cols;

    FloatArray x, out, expected;   // x, out: (rows, cols)

    @Setup
    public void setup() {
      x = Workload.random(rows * cols, 51);
      for (int i = 0; i < rows * cols; i++) x.set(i, 8 * x.get(i));   // logits in [-8, 8)
      out = new FloatArray(rows * cols);
      expected = new FloatArray(rows * cols);
      Softmax.rowsNaive(x, expected, rows, cols);
    }
  }

  @State(Scope.Benchmark)
  public static class Naive extends DevicePlan {
    @Setup
    public void setup(Data d) {
      open(new LibraryKernel("softmax", new Object[] {d.x}, d.out, d.expected,
          g -> g.task("rowsNaive", Softmax::rowsNaive, d.x, d.out, d.rows, d.cols), true), Transfers.RESIDENT);
    }
  }

  @State(Scope.Benchmark)
  public static class OneExp extends DevicePlan {
    @Setup
    public void setup(Data d) {
      open(new LibraryKernel("softmax", new Object[] {d.x}, d.out, d.expected,
          g -> g.task("rows", Softmax::rows, d.x, d.out, d.rows, d.cols), true), Transfers.RESIDENT);
    }
  }

  @Benchmark
  public FloatArray rowsNaive_jvm(Data d) {
    Softmax.rowsNaive(d.x, d.out, d.rows, d.cols);
    return d.out;
  }

  @Benchmark
  public ExecutionResult rowsNaive_device(Naive p) {
    return p.execute();
  }

  @Benchmark
  public FloatArray rows_jvm(Data d) {
    Softmax.rows(d.x, d.out, d.rows, d.cols);
    return d.out;
  }

  @Benchmark
  public ExecutionResult rows_device(OneExp p) {
    return p.execute();
  }
}
