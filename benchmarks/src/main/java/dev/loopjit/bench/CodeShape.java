// JMH: naive matmul as the JIT emits it today beside hand-written OpenCL C of the same Java loop, to show what code PoCL runs fast.
package dev.loopjit.bench;

import dev.loopjit.api.Access;
import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.ExecutionResult;
import dev.loopjit.api.GridScheduler;
import dev.loopjit.api.PrebuiltKernel;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.api.WorkerGrid2D;
import dev.loopjit.tasks.Blas;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Not part of the default {@code scripts/bench} run: {@code scripts/bench CodeShape}. An experiment
 * for the emitter, not a LoopJIT feature: the task's IR still comes from the JIT (the runtime reads
 * its arguments from it), but the OpenCL C is replaced by one of these shapes, all computing
 * {@link Blas#gemmNaive} bit for bit as Java does (each output summed over k in order, no FMA;
 * checked against the Java loop in setup):
 * <ul>
 * <li>{@code generated}: the JIT's own code: the whole body under {@code if (gid < count)}.
 * <li>{@code uniformLoop}: indices clamped to the range and only the store guarded, plus a
 *     barrier: the k loop is entered by every work-item, so PoCL runs the work-group loop inside
 *     it (across j, vectorised) instead of one k loop per work-item.
 * <li>{@code float16}: the x dimension coarsened by 16: one work-item computes 16 neighbouring
 *     j as the lanes of a {@code float16}, each lane still summing over k in order.
 * <li>{@code float16x4}: the same, and 4 rows of C per work-item, reusing each row of B 4 times.
 * </ul>
 * Sizes must be multiples of 16 (the hand-written shapes have no tail handling).
 */
@Warmup(iterations = 2, time = 1)
public class CodeShape extends Timed {
  private static final String SIGNATURE = "#pragma OPENCL FP_CONTRACT OFF\n"
      + "__kernel void gemm(__global const float* a, __global const float* b, __global float* c, int n) {\n";

  /** The matmul in one shape: a plan with the inputs resident and the output left on the device. */
  @State(Scope.Benchmark)
  public static class Shape {
    @Param("opencl:0")
    public String device;

    @Param({"generated", "uniformLoop", "float16", "float16x4"})
    public String shape;

    private ExecutionPlan plan;

    @Setup
    public void setup(MatMul.Data d) {
      if (d.n % 16 != 0) throw new IllegalArgumentException("CodeShape needs n to be a multiple of 16, not " + d.n);
      TaskGraph g = new TaskGraph("matmul").transferToDevice(DataTransferMode.FIRST_EXECUTION, d.a, d.b);
      if (shape.equals("generated")) {
        g.task("gemm", Blas::gemmNaive, d.a, d.b, d.c, d.n);
        plan = new ExecutionPlan(g.transferToHost(DataTransferMode.UNDER_DEMAND, d.c).snapshot());
      } else {
        PrebuiltKernel k = PrebuiltKernel.opencl("gemm", SIGNATURE + counts(shape) + body(shape), Access.READ, Access.READ, Access.WRITE,
            Access.NONE);
        g.prebuiltTask("gemm", k, d.a, d.b, d.c, d.n);
        int cols = shape.startsWith("float16") ? d.n / 16 : d.n, rows = shape.equals("float16x4") ? d.n / 4 : d.n;
        WorkerGrid2D grid = new WorkerGrid2D(cols, rows);
        grid.setLocalWork(Math.min(cols, 64), 4, 1);   // rows along x, as the CPU policy gives @Parallel kernels
        plan = new ExecutionPlan(g.transferToHost(DataTransferMode.UNDER_DEMAND, d.c).snapshot())
            .withGridScheduler(new GridScheduler("matmul.gemm", grid));
      }
      plan.withDevice(device);
      ExecutionResult r = plan.execute();
      r.transferToHost(d.c);
      for (int i = 0; i < d.n * d.n; i++)
        if (Float.floatToRawIntBits(d.c.get(i)) != Float.floatToRawIntBits(d.expected.get(i)))
          throw new IllegalStateException("shape " + shape + " differs from Java at " + i + ": " + d.c.get(i) + " vs " + d.expected.get(i));
    }

    void run() {
      plan.execute();
    }

    @TearDown
    public void tearDown() {
      plan.close();
    }
  }

  /** {@code count_x} and {@code count_y}: the work-items of each grid dimension. */
  static String counts(String shape) {
    return switch (shape) {
      case "uniformLoop" -> "  const int count_x = n, count_y = n;\n";
      case "float16" -> "  const int count_x = n / 16, count_y = n;\n";
      case "float16x4" -> "  const int count_x = n / 16, count_y = n / 4;\n";
      default -> throw new IllegalArgumentException("no shape " + shape);
    };
  }

  /** The hand-written bodies; {@code count_x} and {@code count_y} are the grid's work-items per dimension. */
  static String body(String shape) {
    return switch (shape) {
      case "uniformLoop" -> """
            barrier(CLK_LOCAL_MEM_FENCE);
            int j = min((int) get_global_id(0), count_x - 1), i = min((int) get_global_id(1), count_y - 1);
            float acc = 0.0f;
            for (int k = 0; k < n; k++) acc = acc + a[i * n + k] * b[k * n + j];
            if ((int) get_global_id(0) < count_x && (int) get_global_id(1) < count_y) c[i * n + j] = acc;
          }
          """;
      case "float16" -> """
            int jb = (int) get_global_id(0), i = (int) get_global_id(1);
            if (jb >= count_x || i >= count_y) return;
            float16 acc = (float16) (0.0f);
            for (int k = 0; k < n; k++) acc = acc + a[i * n + k] * vload16(jb, b + k * n);
            vstore16(acc, jb, c + i * n);
          }
          """;
      case "float16x4" -> """
            int jb = (int) get_global_id(0), i = 4 * (int) get_global_id(1);
            if (jb >= count_x || i >= 4 * count_y) return;
            float16 c0 = (float16) (0.0f), c1 = c0, c2 = c0, c3 = c0;
            for (int k = 0; k < n; k++) {
              float16 bk = vload16(jb, b + k * n);
              c0 = c0 + a[i * n + k] * bk;
              c1 = c1 + a[(i + 1) * n + k] * bk;
              c2 = c2 + a[(i + 2) * n + k] * bk;
              c3 = c3 + a[(i + 3) * n + k] * bk;
            }
            vstore16(c0, jb, c + i * n);
            vstore16(c1, jb, c + (i + 1) * n);
            vstore16(c2, jb, c + (i + 2) * n);
            vstore16(c3, jb, c + (i + 3) * n);
          }
          """;
      default -> throw new IllegalArgumentException("no shape " + shape);
    };
  }

  @Benchmark
  public Object matmul(Shape s) {
    s.run();
    return s;
  }
}
