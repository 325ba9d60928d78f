// Conformance kernels for the shapes of @Parallel loops: 1-3 dimensions, reverse, strided, offset, expression bounds, none.
package dev.loopjit.conformance;

import dev.loopjit.api.Parallel;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;

/**
 * Loop-shape kernels, checked against the jvm by {@link LoopShapeKernelsTest}. Each writes a value
 * that encodes the iteration, and leaves the elements no iteration touches as they were, so a
 * wrong trip count, start, step or direction shows.
 */
public final class LoopShapeKernels {
  private LoopShapeKernels() {}

  public static void oneD(int[] out) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = i * 3 - 1;
  }

  public static void twoD(IntArray out, int rows, int cols) {
    for (@Parallel int r = 0; r < rows; r++)
      for (@Parallel int c = 0; c < cols; c++) out.set(r * cols + c, r * 1000 + c);
  }

  public static void threeD(float[] out, int nx, int ny, int nz) {
    for (@Parallel int z = 0; z < nz; z++)
      for (@Parallel int y = 0; y < ny; y++)
        for (@Parallel int x = 0; x < nx; x++) out[(z * ny + y) * nx + x] = x + 100f * y + 10000f * z;
  }

  public static void reverse(int[] a, int[] out) {
    for (@Parallel int i = a.length - 1; i >= 0; i--) out[i] = a[i] * 2 + i;
  }

  /** Even indices only; odd ones keep their input values. */
  public static void stepTwo(int[] out) {
    for (@Parallel int i = 0; i < out.length; i += 2) out[i] = i;
  }

  public static void stepThreeFrom(int[] out, int start) {
    for (@Parallel int i = start; i < out.length; i += 3) out[i] = -i;
  }

  public static void reverseStepTwo(int[] out) {
    for (@Parallel int i = out.length - 1; i >= 0; i -= 2) out[i] = i + 7;
  }

  /** Starts at 5 and stops 2 before the end: no iterations at all for arrays shorter than 8. */
  public static void offsetStartAndEnd(float[] a, float[] out) {
    for (@Parallel int i = 5; i < a.length - 2; i++) out[i] = a[i - 5] + a[i + 2];
  }

  public static void boundFromExpression(int[] out, int n) {
    for (@Parallel int i = 0; i < n / 2 + 1; i++) out[i] = n - i;
  }

  public static void inclusiveBound(int[] out, int last) {
    for (@Parallel int i = 1; i <= last; i++) out[i] = i * i;
  }

  public static void boundFromMin(int[] a, int[] b, int[] out) {
    for (@Parallel int i = 0; i < Math.min(a.length, b.length); i++) out[i] = a[i] - b[i];
  }

  /** Down to a bound that is an expression, from an expression. */
  public static void reverseToExpression(int[] out, int n) {
    for (@Parallel int i = n - 1; i > n / 3; i--) out[i] = 2 * i;
  }

  /** Loop-invariant locals computed before the nest and used inside it. */
  public static void statementsBeforeLoop(int[] a, int[] out, int k) {
    int scale = 2 * k + 1;
    int third = a.length / 3;
    int bias = a.length > 0 ? a[0] : 0;
    for (@Parallel int i = 0; i < a.length; i++) out[i] = a[i] * scale + (i < third ? bias : -bias);
  }

  /** No @Parallel loop: one work-item runs the whole method, so a sequential dependence is fine. */
  public static void noParallelLoop(int[] a, int[] out) {
    int acc = 0;
    for (int i = 0; i < a.length; i++) {
      acc += a[i];
      out[i] = acc;
    }
  }

  public static void twoDOffsetsAndStep(int[] out, int rows, int cols) {
    for (@Parallel int r = 1; r < rows; r++)
      for (@Parallel int c = 2; c < cols - 1; c += 2) out[r * cols + c] = r * 100 + c;
  }

  public static void twoDReverseInner(IntArray out, int rows, int cols) {
    for (@Parallel int r = 0; r < rows; r++)
      for (@Parallel int c = cols - 1; c >= 0; c--) out.set(r * cols + c, c - r);
  }

  /** A 7-point stencil on the interior of a 3-D grid. */
  public static void threeDStencil(FloatArray a, FloatArray out, int nx, int ny, int nz) {
    for (@Parallel int z = 1; z < nz - 1; z++)
      for (@Parallel int y = 1; y < ny - 1; y++)
        for (@Parallel int x = 1; x < nx - 1; x++) {
          int i = (z * ny + y) * nx + x;
          float s = a.get(i - 1) + a.get(i + 1) + a.get(i - nx) + a.get(i + nx) + a.get(i - nx * ny) + a.get(i + nx * ny);
          out.set(i, s - 6f * a.get(i));
        }
  }
}
