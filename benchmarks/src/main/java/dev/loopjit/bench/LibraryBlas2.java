// JMH: tornado-tasks' BLAS-2 at 4096×4096 — y = Aᵀ·x naive and in column strips, and ger — as plain Java and kernel-only on each device.
package dev.loopjit.bench;

import dev.loopjit.tasks.Blas2;
import dev.loopjit.types.FloatArray;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/** Both transposed products give the same bits; ger adds into A, so only its first execution is checked. ({@code y = A·x} is {@link MatVec}.) */
public class LibraryBlas2 extends LibraryBenchmarks {
  static final float ALPHA = 0.5f;

  @Param({"gemvTransposed", "gemvTransposedStrips", "ger"})
  public String kernel;

  @Param("4096")
  public int n;

  @Setup
  public void setup() {
    FloatArray a = Workload.random(n * n, 31), x = Workload.random(n, 32), y = new FloatArray(n);   // a: (n, n); x, y: (n)
    Object[] in = {a, x};
    use(switch (kernel) {
      case "gemvTransposed" -> LibraryKernel.of("blas2", in, y, () -> Blas2.gemvTransposed(a, x, y, n, n),
          t -> t.task("gemvTransposed", Blas2::gemvTransposed, a, x, y, n, n));
      case "gemvTransposedStrips" -> LibraryKernel.of("blas2", in, y, () -> Blas2.gemvTransposedStrips(a, x, y, n, n),
          t -> t.task("gemvTransposedStrips", Blas2::gemvTransposedStrips, a, x, y, n, n));
      case "ger" -> {
        FloatArray v = Workload.random(n, 33);   // a += ALPHA · x · vᵀ, in place
        yield LibraryKernel.of("blas2", new Object[] {x, v, a}, a, () -> Blas2.ger(ALPHA, x, v, a, n, n),
            t -> t.task("ger", Blas2::ger, ALPHA, x, v, a, n, n)).updating();
      }
      default -> throw unknown(kernel);
    });
  }
}
