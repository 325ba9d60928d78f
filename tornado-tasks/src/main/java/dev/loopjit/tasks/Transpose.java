// Matrix transpose, out = inᵀ: the naive 2-D loop, a KernelContext version through local memory, and square blocks per work-item.
package dev.loopjit.tasks;

import dev.loopjit.api.KernelContext;
import dev.loopjit.api.Parallel;
import dev.loopjit.api.WorkerGrid2D;
import dev.loopjit.types.FloatArray;

/**
 * {@code out[j][i] = in[i][j]} over flat row-major arrays. All three move the same values, so they
 * agree exactly everywhere; they differ in how memory is walked.
 * <pre>
 * ROWS, COLS = the input's shape; in (ROWS, COLS), out (COLS, ROWS)
 * </pre>
 */
public final class Transpose {
  /** Side of the square tiles of {@link #tiled}; its work-groups are TILE×TILE. */
  public static final int TILE = 16;
  /** Side of the square block each work-item of {@link #blocked} moves. */
  public static final int BLOCK = 16;

  private Transpose() {}

  /** One work-item per element: reads run along rows of {@code in}, writes down columns of {@code out}. in (ROWS, COLS), out (COLS, ROWS) */
  public static void naive(FloatArray in, FloatArray out, int rows, int cols) {
    for (@Parallel int i = 0; i < rows; i++)
      for (@Parallel int j = 0; j < cols; j++) out.set(j * rows + i, in.get(i * cols + j));
  }

  /**
   * Through a TILE×TILE tile of local memory, so that both the reads of {@code in} and the writes
   * of {@code out} run along rows — what a GPU wants. The tile has a spare column so that a column
   * of it falls into different local-memory banks. Launch with {@link #tiledGrid}.
   * in (ROWS, COLS), out (COLS, ROWS)
   */
  public static void tiled(KernelContext ctx, FloatArray in, FloatArray out, int rows, int cols) {
    float[] tile = ctx.allocateFloatLocalArray(TILE * (TILE + 1));   // (TILE, TILE + 1)
    int tx = ctx.localIdx, ty = ctx.localIdy;
    int i = ctx.groupIdy * TILE + ty, j = ctx.groupIdx * TILE + tx;   // this work-item reads in[i][j]
    if (i < rows && j < cols) tile[ty * (TILE + 1) + tx] = in.get(i * cols + j);
    ctx.localBarrier();
    int oi = ctx.groupIdx * TILE + ty, oj = ctx.groupIdy * TILE + tx;   // and writes out[oi][oj]
    if (oi < cols && oj < rows) out.set(oi * rows + oj, tile[tx * (TILE + 1) + ty]);
  }

  /** The launch of {@link #tiled} for an input of (ROWS, COLS): x along COLS, y along ROWS, TILE×TILE work-groups. */
  public static WorkerGrid2D tiledGrid(int rows, int cols) {
    WorkerGrid2D grid = new WorkerGrid2D(cols, rows);
    grid.setLocalWork(TILE, TILE, 1);
    return grid;
  }

  /**
   * One work-item per BLOCK×BLOCK block, moved by two plain loops: a block of {@code in} and its
   * image in {@code out} both stay in a CPU core's cache while it works. The fastest of the three
   * on PoCL. in (ROWS, COLS), out (COLS, ROWS)
   */
  public static void blocked(FloatArray in, FloatArray out, int rows, int cols) {
    for (@Parallel int ib = 0; ib < (rows + BLOCK - 1) / BLOCK; ib++)
      for (@Parallel int jb = 0; jb < (cols + BLOCK - 1) / BLOCK; jb++) {
        int i0 = ib * BLOCK, j0 = jb * BLOCK, iEnd = Math.min(i0 + BLOCK, rows), jEnd = Math.min(j0 + BLOCK, cols);
        for (int j = j0; j < jEnd; j++)
          for (int i = i0; i < iEnd; i++) out.set(j * rows + i, in.get(i * cols + j));
      }
  }
}
