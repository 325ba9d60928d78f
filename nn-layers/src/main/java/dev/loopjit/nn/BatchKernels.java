// Gathers a batch's rows from a dataset that stays on the device, so only B row numbers cross the bus per step.
package dev.loopjit.nn;

import dev.loopjit.api.Parallel;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;

/**
 * Batch gathering. Shapes:
 * <pre>
 * N = dataset rows, F = features (or targets) per row, B = rows of the batch
 * batch (1 + B): batch[0] = V, the rows in use, then batch[1 + b] = the dataset row of batch row b
 * src (N, F), dst (B, F); labels (N), dstLabels (B)
 * </pre>
 * Rows V..B-1 (the padding of a short last batch) are zeros, label 0.
 */
public final class BatchKernels {
  private BatchKernels() {}

  /** {@code dst[b] = src[batch[1 + b]]} for b &lt; V, zeros after. */
  public static void gatherRows(FloatArray src, IntArray batch, FloatArray dst, int rows, int width) {
    for (@Parallel int b = 0; b < rows; b++)
      for (@Parallel int f = 0; f < width; f++) {
        float v = 0f;
        if (b < batch.get(0)) v = src.get(batch.get(1 + b) * width + f);
        dst.set(b * width + f, v);
      }
  }

  /** {@code dstLabels[b] = labels[batch[1 + b]]} for b &lt; V, 0 after. */
  public static void gatherLabels(IntArray labels, IntArray batch, IntArray dstLabels, int rows) {
    for (@Parallel int b = 0; b < rows; b++) dstLabels.set(b, b < batch.get(0) ? labels.get(batch.get(1 + b)) : 0);
  }
}
