// JMH: tornado-tasks' BLAS-1 over 16M floats — scal, dot (@Reduce and sequential), asum, nrm2 — as plain Java and kernel-only on each device.
package dev.loopjit.bench;

import dev.loopjit.tasks.Blas1;
import dev.loopjit.types.FloatArray;
import java.util.SplittableRandom;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * The reductions read values in {-1, 0, 1}: every partial sum is then an integer below 2^24, exact
 * in float, so the device's tree order gives plain Java's result to the bit and the check before
 * timing can be strict (the arithmetic costs the same as for any floats). Reductions keep adding
 * into their output, and scal (by -1) flips its vector in place, so only their first execution is
 * checked. {@code nrm2} is the three-task graph {@code zero, sumOfSquares, sqrt}, as in {@code Graphs.nrm2}.
 */
public class LibraryBlas1 extends LibraryBenchmarks {
  @Param({"scal", "dot", "dotSequential", "asum", "nrm2"})
  public String kernel;

  @Param("16777216")
  public int n;

  @Setup
  public void setup() {
    FloatArray x = ternary(n, 21), y = ternary(n, 22), out = new FloatArray(1);   // x, y: (n); out: (1)
    use(switch (kernel) {
      case "scal" -> {
        FloatArray z = Workload.random(n, 23);   // uniform in [-1, 1), scaled in place
        yield LibraryKernel.of("blas1", new Object[] {z}, z, () -> Blas1.scal(-1f, z), g -> g.task("scal", Blas1::scal, -1f, z)).updating();
      }
      case "dot" -> LibraryKernel.of("blas1", new Object[] {x, y, out}, out, () -> Blas1.dot(x, y, out), g -> g.task("dot", Blas1::dot, x, y, out))
          .updating();
      case "dotSequential" -> LibraryKernel.of("blas1", new Object[] {x, y, out}, out, () -> Blas1.dotSequential(x, y, out),
          g -> g.task("dotSequential", Blas1::dotSequential, x, y, out)).updating();
      case "asum" -> LibraryKernel.of("blas1", new Object[] {x, out}, out, () -> Blas1.asum(x, out), g -> g.task("asum", Blas1::asum, x, out))
          .updating();
      case "nrm2" -> LibraryKernel.of("blas1", new Object[] {x}, out, () -> {
        Blas1.zero(out);
        Blas1.sumOfSquares(x, out);
        Blas1.sqrt(out);
      }, g -> g.task("zero", Blas1::zero, out).task("sumOfSquares", Blas1::sumOfSquares, x, out).task("sqrt", Blas1::sqrt, out));
      default -> throw unknown(kernel);
    });
  }

  private static FloatArray ternary(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    FloatArray a = new FloatArray(n);
    for (int i = 0; i < n; i++) a.set(i, r.nextInt(3) - 1);
    return a;
  }
}
