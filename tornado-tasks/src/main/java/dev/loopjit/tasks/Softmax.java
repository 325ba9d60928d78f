// Row-wise numerically stable softmax, out[r] = exp(x[r] - max x[r]) / Σ exp(x[r] - max x[r]): naive, and with each exp computed once.
package dev.loopjit.tasks;

import dev.loopjit.api.Parallel;
import dev.loopjit.types.FloatArray;

/**
 * Softmax over each row of a flat row-major matrix, one work-item per row. Subtracting the row's
 * maximum first keeps {@code exp} from overflowing, so any finite input gives a finite result.
 * <pre>
 * ROWS = rows, COLS = entries per row; x (ROWS, COLS), out (ROWS, COLS)
 * </pre>
 * Both kernels compute the same roundings in the same order, so they agree bit for bit with each
 * other; against the jvm they differ by {@code exp}'s few ulps.
 */
public final class Softmax {
  private Softmax() {}

  /**
   * The textbook three passes per row: the maximum, the sum of exponentials, then each exponential
   * again divided by the sum — two {@code exp} per element. x (ROWS, COLS), out (ROWS, COLS)
   */
  public static void rowsNaive(FloatArray x, FloatArray out, int rows, int cols) {
    for (@Parallel int r = 0; r < rows; r++) {
      int at = r * cols;
      float max = Float.NEGATIVE_INFINITY;
      for (int c = 0; c < cols; c++) max = Math.max(max, x.get(at + c));
      float sum = 0f;
      for (int c = 0; c < cols; c++) sum += (float) Math.exp(x.get(at + c) - max);
      for (int c = 0; c < cols; c++) out.set(at + c, (float) Math.exp(x.get(at + c) - max) / sum);
    }
  }

  /**
   * The same result with one {@code exp} per element: the exponentials are written to
   * {@code out} in a loop of their own (no sum in it, so a CPU OpenCL compiler vectorises it), then
   * summed, then divided in place. x (ROWS, COLS), out (ROWS, COLS)
   */
  public static void rows(FloatArray x, FloatArray out, int rows, int cols) {
    for (@Parallel int r = 0; r < rows; r++) {
      int at = r * cols;
      float max = Float.NEGATIVE_INFINITY;
      for (int c = 0; c < cols; c++) max = Math.max(max, x.get(at + c));
      for (int c = 0; c < cols; c++) out.set(at + c, (float) Math.exp(x.get(at + c) - max));
      float sum = 0f;
      for (int c = 0; c < cols; c++) sum += out.get(at + c);
      for (int c = 0; c < cols; c++) out.set(at + c, out.get(at + c) / sum);
    }
  }
}
