// JMH: the MLP's biggest kernel, a dense layer's weight gradient dW = dyᵀ · x, stored at an offset into the flat gradients or at 0.
package dev.loopjit.bench;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Devices;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.Parallel;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.nn.DenseKernels;
import dev.loopjit.types.FloatArray;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Not part of the default {@code scripts/bench} run: {@code scripts/bench DenseWeightGradient}. The
 * first dense layer of the MLP (batch 128, 784 → 256), kernel only, inputs resident, each variant
 * checked bit for bit against nn-layers' kernel before timing: {@code atOffset} is
 * {@link DenseKernels#denseBackwardWeightsNaive} (the store at {@code w + o·in + i} into the flat
 * gradients), {@code atZero} the same loop stored at {@code o·in + i}. On PoCL 3.1 (LLVM 15) the two
 * compile to different vector code from the same coarsened kernel: docs/PERFORMANCE.md.
 */
@State(Scope.Benchmark)
public class DenseWeightGradient extends Timed {
  @Param("opencl:0")
  public String device;

  @Param({"atOffset", "atZero"})
  public String variant;

  static final int BATCH = 128, IN = 784, OUT = 256;

  private ExecutionPlan plan;

  /** {@link DenseKernels#denseBackwardWeightsNaive} with its store at offset 0. */
  public static void atZero(FloatArray dy, FloatArray x, FloatArray grads, int batch, int in, int out) {
    for (@Parallel int o = 0; o < out; o++)
      for (@Parallel int i = 0; i < in; i++) {
        float acc = 0f;
        for (int b = 0; b < batch; b++) acc += dy.get(b * out + o) * x.get(b * in + i);
        grads.set(o * in + i, acc);
      }
  }

  @Setup
  public void setup() {
    FloatArray dy = Workload.random(BATCH * OUT, 3), x = Workload.random(BATCH * IN, 4), grads = new FloatArray(OUT * IN + OUT);
    FloatArray expected = new FloatArray(OUT * IN + OUT);
    DenseKernels.denseBackwardWeightsNaive(dy, x, expected, 0, BATCH, IN, OUT);
    TaskGraph g = new TaskGraph("dw").transferToDevice(DataTransferMode.FIRST_EXECUTION, dy, x);
    if (variant.equals("atOffset")) g.task("dw", DenseKernels::denseBackwardWeightsNaive, dy, x, grads, 0, BATCH, IN, OUT);
    else g.task("dw", DenseWeightGradient::atZero, dy, x, grads, BATCH, IN, OUT);
    plan = new ExecutionPlan(g.transferToHost(DataTransferMode.UNDER_DEMAND, grads).snapshot()).withDevice(Devices.get(device));
    plan.execute().transferToHost(grads);
    if (grads.getSegment().mismatch(expected.getSegment()) != -1) throw new IllegalStateException(variant + " differs from nn-layers' kernel");
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
