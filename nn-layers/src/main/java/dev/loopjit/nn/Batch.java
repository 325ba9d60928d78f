// The per-step batch of a graph: which dataset rows are in use, and the rows, labels or targets gathered from the dataset on the device.
package dev.loopjit.nn;

import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;

/**
 * A batch of {@code rows} rows gathered on the device from a dataset that stays there
 * ({@link BatchKernels}). Shapes:
 * <pre>
 * index (1 + B): index[0] = V, the rows in use, then the dataset row of each; rows V..B-1 pad a short batch
 * x (B, F); labels (B) for a labelled dataset, targets (B, T) for one with float targets (the other is null)
 * </pre>
 * Task arguments are fixed when a graph is built, so only {@code index} changes per execution.
 */
final class Batch {
  final int rows;
  final IntArray index;
  final FloatArray x;
  final IntArray labels;
  final FloatArray targets;
  private final int datasetRows;

  Batch(Dataset data, int rows) {
    if (rows <= 0) throw new IllegalArgumentException("batch size must be positive, not " + rows);
    this.rows = rows;
    datasetRows = data.size();
    index = new IntArray(1 + rows);
    x = new FloatArray(rows * data.width());
    labels = data.labels() != null ? new IntArray(rows) : null;
    targets = data.targets() != null ? new FloatArray(rows * data.targetWidth()) : null;
  }

  /** Adds the gathers of x and the labels or targets. */
  void addGather(Wiring w, Dataset data) {
    w.graph().task(w.id("gather_x"), BatchKernels::gatherRows, data.features(), index, x, rows, data.width());
    if (labels != null) w.graph().task(w.id("gather_y"), BatchKernels::gatherLabels, data.labels(), index, labels, rows);
    else w.graph().task(w.id("gather_y"), BatchKernels::gatherRows, data.targets(), index, targets, rows, data.targetWidth());
  }

  /**
   * Sets the batch to dataset rows {@code order[from..from+count)}, {@code count ≤ rows}; the
   * kernels index the dataset with these unchecked, so they are checked here.
   */
  void select(int[] order, int from, int count) {
    if (count <= 0 || count > rows) throw new IllegalArgumentException("a batch takes 1.." + rows + " rows, not " + count);
    for (int b = 0; b < count; b++)
      if (order[from + b] < 0 || order[from + b] >= datasetRows)
        throw new IndexOutOfBoundsException("row " + order[from + b] + " of a dataset of " + datasetRows);
    index.set(0, count);
    for (int b = 0; b < rows; b++) index.set(1 + b, b < count ? order[from + b] : 0);
  }
}
