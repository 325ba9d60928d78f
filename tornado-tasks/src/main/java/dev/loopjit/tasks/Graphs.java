// Ready-made task graphs over the library's kernels: build one, put it in an ExecutionPlan, execute; the fastest @Parallel kernel of each family.
package dev.loopjit.tasks;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.ImmutableTaskGraph;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.types.FloatArray;

/**
 * One-call task graphs. Each copies its inputs to the device and its result back on every
 * execution (free on a CPU OpenCL device, where the arrays are used in place), so a plan can be
 * executed again after the inputs change. Each uses a {@code @Parallel} kernel, so no grid is
 * needed; for finer control, or a GPU, build your own graph from the kernels.
 *
 * <pre>{@code
 * try (ExecutionPlan plan = new ExecutionPlan(Graphs.gemm(a, b, c, m, n, k))) {
 *   plan.withDevice(Devices.best()).execute();   // c now holds a·b
 * }
 * }</pre>
 */
public final class Graphs {
  private Graphs() {}

  /** {@code c = a·b} by {@link Blas3#gemmOuterProduct}. a (M, K), b (K, N), c (M, N) */
  public static ImmutableTaskGraph gemm(FloatArray a, FloatArray b, FloatArray c, int m, int n, int k) {
    return new TaskGraph("gemm")
        .transferToDevice(DataTransferMode.EVERY_EXECUTION, a, b)
        .task("gemm", Blas3::gemmOuterProduct, a, b, c, m, n, k)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, c)
        .snapshot();
  }

  /** {@code y = A·x} by {@link Blas#gemv}. a (ROWS, COLS), x (COLS), y (ROWS) */
  public static ImmutableTaskGraph gemv(FloatArray a, FloatArray x, FloatArray y, int rows, int cols) {
    return new TaskGraph("gemv")
        .transferToDevice(DataTransferMode.EVERY_EXECUTION, a, x)
        .task("gemv", Blas::gemv, a, x, y, rows, cols)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, y)
        .snapshot();
  }

  /** {@code result[0] = x·y}: cleared on the device, then {@link Blas1#dot}. x, y (N), result (1) */
  public static ImmutableTaskGraph dot(FloatArray x, FloatArray y, FloatArray result) {
    return new TaskGraph("dot")
        .transferToDevice(DataTransferMode.EVERY_EXECUTION, x, y)
        .task("zero", Blas1::zero, result)
        .task("dot", Blas1::dot, x, y, result)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, result)
        .snapshot();
  }

  /** {@code result[0] = ‖x‖₂}: {@link Blas1#zero}, {@link Blas1#sumOfSquares}, {@link Blas1#sqrt}, all on the device. x (N), result (1) */
  public static ImmutableTaskGraph nrm2(FloatArray x, FloatArray result) {
    return new TaskGraph("nrm2")
        .transferToDevice(DataTransferMode.EVERY_EXECUTION, x)
        .task("zero", Blas1::zero, result)
        .task("sumOfSquares", Blas1::sumOfSquares, x, result)
        .task("sqrt", Blas1::sqrt, result)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, result)
        .snapshot();
  }

  /** Row-wise softmax by {@link Softmax#rows}. x, out (ROWS, COLS) */
  public static ImmutableTaskGraph softmax(FloatArray x, FloatArray out, int rows, int cols) {
    return new TaskGraph("softmax")
        .transferToDevice(DataTransferMode.EVERY_EXECUTION, x)
        .task("softmax", Softmax::rows, x, out, rows, cols)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, out)
        .snapshot();
  }

  /** {@code out = inᵀ} by {@link Transpose#blocked}. in (ROWS, COLS), out (COLS, ROWS) */
  public static ImmutableTaskGraph transpose(FloatArray in, FloatArray out, int rows, int cols) {
    return new TaskGraph("transpose")
        .transferToDevice(DataTransferMode.EVERY_EXECUTION, in)
        .task("transpose", Transpose::blocked, in, out, rows, cols)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, out)
        .snapshot();
  }
}
