// The seeds' examples as @Parallel loops: the PyCUDA course's vector addition and a matrix-vector product.
package dev.loopjit.tasks;

import dev.loopjit.api.Parallel;
import dev.loopjit.types.FloatArray;

/** The two examples every LoopJIT demo starts with. Plain Java: run them directly and you get the reference. */
public final class Seeds {
  private Seeds() {}

  /** {@code c = a + b}, element by element. // a, b, c: (N) */
  public static void vectorAdd(FloatArray a, FloatArray b, FloatArray c) {
    for (@Parallel int i = 0; i < c.getSize(); i++) c.set(i, a.get(i) + b.get(i));
  }

  /** {@code result = matrix · vector}, one work-item per row. // matrix: (rows, cols), vector: (cols), result: (rows) */
  public static void matrixVector(FloatArray matrix, FloatArray vector, FloatArray result, int rows, int cols) {
    for (@Parallel int i = 0; i < rows; i++) {
      float sum = 0f;
      for (int j = 0; j < cols; j++) sum += matrix.get(i * cols + j) * vector.get(j);
      result.set(i, sum);
    }
  }
}
