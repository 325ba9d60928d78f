// JMH: a register-blocked matmul written as plain Java, its proven indices computed signed or with Java's wrap-around (loopjit.signedIndices).
package dev.loopjit.bench;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Devices;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.Parallel;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.types.FloatArray;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Not part of the default {@code scripts/bench} run: {@code scripts/bench SignedIndices}. The kernel
 * is the kind users write for speed by hand: 2 rows × 8 columns of C per work-item in sixteen scalars,
 * sizes multiples of the block, so that the host proves every access at launch and the kernel runs
 * unchecked; {@code signedIndices} is the setting, side by side in one run (kernel only, inputs
 * resident; checked bit for bit against {@link MatMul.Data#reference} before timing).
 */
@State(Scope.Benchmark)
public class SignedIndices extends Timed {
  @Param("opencl:0")
  public String device;

  @Param({"true", "false"})
  public String signedIndices;

  @Param("1024")
  public int n;

  private FloatArray a, b, c;
  private ExecutionPlan plan;

  /** {@code c = a · b}, n × n, a work-item per 2 × 8 block. */
  public static void blocked(FloatArray a, FloatArray b, FloatArray c, int n) {
    for (@Parallel int ib = 0; ib < n / 2; ib++)
      for (@Parallel int jb = 0; jb < n / 8; jb++) {
        int i = ib * 2, j = jb * 8;
        float c00 = 0, c01 = 0, c02 = 0, c03 = 0, c04 = 0, c05 = 0, c06 = 0, c07 = 0;
        float c10 = 0, c11 = 0, c12 = 0, c13 = 0, c14 = 0, c15 = 0, c16 = 0, c17 = 0;
        for (int p = 0; p < n; p++) {
          float x0 = a.get(i * n + p), x1 = a.get((i + 1) * n + p);
          int row = p * n + j;
          float y0 = b.get(row), y1 = b.get(row + 1), y2 = b.get(row + 2), y3 = b.get(row + 3);
          float y4 = b.get(row + 4), y5 = b.get(row + 5), y6 = b.get(row + 6), y7 = b.get(row + 7);
          c00 += x0 * y0; c01 += x0 * y1; c02 += x0 * y2; c03 += x0 * y3; c04 += x0 * y4; c05 += x0 * y5; c06 += x0 * y6; c07 += x0 * y7;
          c10 += x1 * y0; c11 += x1 * y1; c12 += x1 * y2; c13 += x1 * y3; c14 += x1 * y4; c15 += x1 * y5; c16 += x1 * y6; c17 += x1 * y7;
        }
        int o = i * n + j, q = o + n;
        c.set(o, c00); c.set(o + 1, c01); c.set(o + 2, c02); c.set(o + 3, c03); c.set(o + 4, c04); c.set(o + 5, c05); c.set(o + 6, c06); c.set(o + 7, c07);
        c.set(q, c10); c.set(q + 1, c11); c.set(q + 2, c12); c.set(q + 3, c13); c.set(q + 4, c14); c.set(q + 5, c15); c.set(q + 6, c16); c.set(q + 7, c17);
      }
  }

  @Setup
  public void setup() {
    a = Workload.random(n * n, 7);
    b = Workload.random(n * n, 8);
    c = new FloatArray(n * n);
    FloatArray expected = MatMul.Data.reference(a, b, n);
    plan = new ExecutionPlan(new TaskGraph("blocked").transferToDevice(DataTransferMode.FIRST_EXECUTION, a, b)
        .task("gemm", SignedIndices::blocked, a, b, c, n).transferToHost(DataTransferMode.UNDER_DEMAND, c).snapshot())
        .withDevice(Devices.get(device)).withSetting("signedIndices", signedIndices);
    plan.execute().transferToHost(c);
    if (c.getSegment().mismatch(expected.getSegment()) != -1) throw new IllegalStateException("the blocked kernel differs from Java");
  }

  @TearDown
  public void tearDown() {
    plan.close();
  }

  @Benchmark
  public Object kernel() {
    return plan.execute();
  }
}
