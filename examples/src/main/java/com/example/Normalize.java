// Two kernels and the task graph that chains them: each row of a matrix minus its mean.
package com.example;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Parallel;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.types.FloatArray;

/** Centres the rows of a {@code rows × cols} matrix: every element minus its row's mean. */
public final class Normalize {
  private Normalize() {}

  /** {@code means[r]} = the mean of row {@code r}: one work-item per row, a sequential loop over its columns. */
  public static void rowMeans(FloatArray m, FloatArray means, int cols) {
    for (@Parallel int r = 0; r < means.getSize(); r++) {
      float sum = 0;
      for (int c = 0; c < cols; c++) sum += m.get(r * cols + c);
      means.set(r, sum / cols);
    }
  }

  /** Every element minus its row's mean: a 2-D grid, one work-item per element. */
  public static void centre(FloatArray m, FloatArray means, int cols) {
    for (@Parallel int r = 0; r < means.getSize(); r++)
      for (@Parallel int c = 0; c < cols; c++) m.set(r * cols + c, m.get(r * cols + c) - means.get(r));
  }

  /** The graph: {@code m} in, the means computed and kept on the device, {@code m} centred and copied back. */
  public static TaskGraph graph(FloatArray m, FloatArray means, int cols) {
    return new TaskGraph("normalize")
        .transferToDevice(DataTransferMode.EVERY_EXECUTION, m)
        .task("means", Normalize::rowMeans, m, means, cols)
        .task("centre", Normalize::centre, m, means, cols)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, m);
  }

  /** The same in plain Java, to compare with. */
  public static void plainJava(float[] m, int rows, int cols) {
    for (int r = 0; r < rows; r++) {
      float sum = 0;
      for (int c = 0; c < cols; c++) sum += m[r * cols + c];
      float mean = sum / cols;
      for (int c = 0; c < cols; c++) m[r * cols + c] -= mean;
    }
  }
}
