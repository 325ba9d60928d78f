// The benchmark methods of every tornado-tasks family, written once: the kernel its @Param kernel names, as plain Java and kernel-only on each @Param device.
package dev.loopjit.bench;

import dev.loopjit.api.ExecutionResult;
import dev.loopjit.types.FloatArray;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * Base of the {@code Library*} benchmarks ({@link LibraryGemm}, {@link LibraryBlas1}, …). A family
 * class declares {@code @Param kernel} (its kernels' names) and its sizes, and its {@code @Setup}
 * hands {@link #use} the kernel named. {@code jvm} times the plain Java loop that computes the
 * kernel's result, called directly; for a KernelContext kernel, which has no plain Java call, that
 * is the naive loop it replaces. {@code device} times the kernel on each {@code @Param} device with
 * its inputs resident and its output left there (kernel and launch only), after its first execution
 * matched plain Java's result bit for bit. {@link LibraryReport} turns the JSON into a table.
 */
@State(Scope.Benchmark)
public abstract class LibraryBenchmarks extends Timed {
  /** The kernel of the running benchmark. */
  private LibraryKernel kernel;

  /** Called by the family's {@code @Setup} with the kernel its {@code kernel} parameter names. */
  protected void use(LibraryKernel k) {
    kernel = k;
  }

  /** The family's answer to a kernel name it does not have. */
  protected static IllegalArgumentException unknown(String kernel) {
    return new IllegalArgumentException("no kernel \"" + kernel + "\" in this family");
  }

  @Benchmark
  public FloatArray jvm() {
    kernel.java().run();
    return kernel.output();
  }

  @Benchmark
  public ExecutionResult device(DeviceBenchmarks.Plan p) {
    return p.execute(kernel, Transfers.RESIDENT);
  }
}
