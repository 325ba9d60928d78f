// JMH: tornado-tasks' three transposes of a 4096×4096 matrix, as plain Java and kernel-only on each device (8 bytes moved per element).
package dev.loopjit.bench;

import dev.loopjit.api.GridScheduler;
import dev.loopjit.api.KernelContext;
import dev.loopjit.tasks.Transpose;
import dev.loopjit.types.FloatArray;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/** All three give the naive transpose exactly. {@code tiled} is a KernelContext kernel: its {@code jvm} is the naive loop. */
public class LibraryTranspose extends LibraryBenchmarks {
  @Param({"naive", "tiled", "blocked"})
  public String kernel;

  @Param("4096")
  public int n;

  @Setup
  public void setup() {
    FloatArray x = Workload.random(n * n, 41), out = new FloatArray(n * n);   // (n, n)
    Object[] in = {x};
    Runnable naive = () -> Transpose.naive(x, out, n, n);
    use(switch (kernel) {
      case "naive" -> LibraryKernel.of("transpose", in, out, naive, g -> g.task("naive", Transpose::naive, x, out, n, n));
      case "tiled" -> LibraryKernel.of("transpose", in, out, naive, g -> g.task("tiled", Transpose::tiled, new KernelContext(), x, out, n, n))
          .with(new GridScheduler("transpose.tiled", Transpose.tiledGrid(n, n)));
      case "blocked" -> LibraryKernel.of("transpose", in, out, () -> Transpose.blocked(x, out, n, n),
          g -> g.task("blocked", Transpose::blocked, x, out, n, n));
      default -> throw unknown(kernel);
    });
  }
}
