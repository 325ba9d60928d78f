// A partition's labelled rows, checked (widths, labels, not empty) and packed into a Dataset; problems name the partition and row.
package dev.loopjit.spark;

import dev.loopjit.nn.Dataset;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.io.Serializable;
import java.util.Arrays;
import java.util.Iterator;

/** Reads a partition of {@link LabeledRow}s for a model of {@code width} inputs and {@code classes} outputs. */
final class PartitionRows {
  private PartitionRows() {}

  /** What a partition holds, or what is wrong with it: the driver's check before any device work. */
  record Check(int partition, int rows, String problem) implements Serializable {}

  /** Counts and checks a partition's rows without keeping them. */
  static Check check(int partition, Iterator<LabeledRow> rows, int width, int classes, String shape) {
    int n = 0;
    while (rows.hasNext()) {
      String problem = problem(partition, n, rows.next(), width, classes, shape);
      if (problem != null) return new Check(partition, n, problem);
      n++;
    }
    if (n == 0) return new Check(partition, 0, "partition " + partition + " is empty: every partition needs rows (repartition the RDD, or "
        + "filter out empty partitions)");
    return new Check(partition, n, null);
  }

  /** The partition's rows as a dataset on the host; a bad row throws {@link IllegalArgumentException} naming it. */
  static Dataset read(int partition, Iterator<LabeledRow> rows, int width, int classes, String shape) {
    float[] x = new float[width * 1024];
    int[] y = new int[1024];
    int n = 0;
    while (rows.hasNext()) {
      LabeledRow r = rows.next();
      String problem = problem(partition, n, r, width, classes, shape);
      if (problem != null) throw new IllegalArgumentException(problem);
      if (n == y.length) {
        y = Arrays.copyOf(y, 2 * n);
        x = Arrays.copyOf(x, 2 * n * width);
      }
      System.arraycopy(r.features(), 0, x, n * width, width);
      y[n++] = r.label();
    }
    if (n == 0) throw new IllegalArgumentException("partition " + partition + " is empty");
    return Dataset.labelled("partition " + partition, FloatArray.fromArray(Arrays.copyOf(x, n * width)), width,
        IntArray.fromArray(Arrays.copyOf(y, n)), classes);
  }

  private static String problem(int partition, int row, LabeledRow r, int width, int classes, String shape) {
    if (r == null) return "partition " + partition + ", row " + row + ": null";
    if (r.features().length != width)
      return "partition " + partition + ", row " + row + ": " + r.features().length + " features, but the model takes " + width + " " + shape;
    if (r.label() < 0 || r.label() >= classes)
      return "partition " + partition + ", row " + row + ": label " + r.label() + " is not in [0, " + classes + ")";
    return null;
  }
}
