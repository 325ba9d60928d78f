// A task's CUfunction in one runtime, with the IR that says how to pass its arguments and size its grid.
package dev.loopjit.backend.cuda;

import dev.loopjit.spi.CompiledKernel;
import dev.loopjit.spi.DeviceCode;
import java.lang.foreign.MemorySegment;

/**
 * A compiled kernel of one {@link CudaRuntime}: the {@code CUfunction} named {@code ir.name()} in a
 * module the device's module cache holds, and the most threads per block it can run with
 * ({@code CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK}, which its register use may put below the
 * device's 1024). Its parameters are passed as {@link KernelParams} says.
 */
final class CudaKernel extends CompiledKernel {
  private final MemorySegment function;

  /** {@code maxThreads} is CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: the largest block this kernel launches with. */
  CudaKernel(DeviceCode code, MemorySegment function, int maxThreads, String task) {
    super(code, task, maxThreads);
    this.function = function;
  }

  MemorySegment function() { return function; }
}
