// JMH: tornado-tasks' row-wise softmax over 4096 rows of 1024, naive (two exp per element) and with one, as plain Java and kernel-only on each device.
package dev.loopjit.bench;

import dev.loopjit.tasks.Softmax;
import dev.loopjit.types.FloatArray;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/** {@code rowsNaive} takes two exp per element, {@code rows} one; both give the same bits. */
public class LibrarySoftmax extends LibraryBenchmarks {
  @Param({"rowsNaive", "rows"})
  public String kernel;

  @Param("4096")
  public int rows;

  @Param("1024")
  public int cols;

  @Setup
  public void setup() {
    FloatArray x = Workload.random(rows * cols, 51), out = new FloatArray(rows * cols);   // (rows, cols)
    for (int i = 0; i < rows * cols; i++) x.set(i, 8 * x.get(i));   // logits in [-8, 8)
    Object[] in = {x};
    use(switch (kernel) {
      case "rowsNaive" -> LibraryKernel.of("softmax", in, out, () -> Softmax.rowsNaive(x, out, rows, cols),
          g -> g.task("rowsNaive", Softmax::rowsNaive, x, out, rows, cols));
      case "rows" -> LibraryKernel.of("softmax", in, out, () -> Softmax.rows(x, out, rows, cols), g -> g.task("rows", Softmax::rows, x, out, rows, cols));
      default -> throw unknown(kernel);
    });
  }
}
