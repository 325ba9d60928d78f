// JMH: tornado-tasks' four gemm kernels, C = A·B at 1024×1024, as plain Java and kernel-only on each device (2·n³ flops).
package dev.loopjit.bench;

import dev.loopjit.api.GridScheduler;
import dev.loopjit.api.KernelContext;
import dev.loopjit.tasks.Blas3;
import dev.loopjit.types.FloatArray;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/** Every kernel computes the naive result bit for bit. {@code tiled} is a KernelContext kernel: its {@code jvm} is the naive loop. */
public class LibraryGemm extends LibraryBenchmarks {
  @Param({"naive", "tiled", "registerBlocked", "outerProduct"})
  public String kernel;

  @Param("1024")
  public int n;

  @Setup
  public void setup() {
    FloatArray a = Workload.random(n * n, 11), b = Workload.random(n * n, 12), c = new FloatArray(n * n);   // (n, n)
    Object[] in = {a, b};
    Runnable naive = () -> Blas3.gemmNaive(a, b, c, n, n, n);
    use(switch (kernel) {
      case "naive" -> LibraryKernel.of("gemm", in, c, naive, g -> g.task("naive", Blas3::gemmNaive, a, b, c, n, n, n));
      case "tiled" -> LibraryKernel.of("gemm", in, c, naive, g -> g.task("tiled", Blas3::gemmTiled, new KernelContext(), a, b, c, n, n, n))
          .with(new GridScheduler("gemm.tiled", Blas3.tiledGrid(n, n)));
      case "registerBlocked" -> LibraryKernel.of("gemm", in, c, () -> Blas3.gemmRegisterBlocked(a, b, c, n, n, n),
          g -> g.task("registerBlocked", Blas3::gemmRegisterBlocked, a, b, c, n, n, n));
      case "outerProduct" -> LibraryKernel.of("gemm", in, c, () -> Blas3.gemmOuterProduct(a, b, c, n, n, n),
          g -> g.task("outerProduct", Blas3::gemmOuterProduct, a, b, c, n, n, n));
      default -> throw unknown(kernel);
    });
  }
}
