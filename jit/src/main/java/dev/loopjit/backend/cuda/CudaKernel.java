// A task's CUfunction in one runtime, with the IR that says how to pass its arguments and size its grid.
package dev.loopjit.backend.cuda;

import dev.loopjit.compiler.KernelFacts;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Launch;
import dev.loopjit.runtime.DeviceKernel;
import java.lang.foreign.MemorySegment;

/**
 * A compiled kernel of one {@link CudaRuntime}: the {@code CUfunction} named {@code ir.name()} in a
 * module the device's {@link ModuleCache} holds, and the most threads per block it can run with
 * ({@code CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK}, which its register use may put below the
 * device's 1024). Its parameters are passed as {@link KernelParams} says.
 */
final class CudaKernel implements DeviceKernel {
  private final KernelIR ir;
  private final MemorySegment function;
  private final int maxThreads;
  private final String task;

  CudaKernel(KernelIR ir, MemorySegment function, int maxThreads, String task) {
    this.ir = ir;
    this.function = function;
    this.maxThreads = maxThreads;
    this.task = task;
  }

  KernelIR ir() { return ir; }

  /** The task it was made for, {@code graph.task}, for messages. */
  String task() { return task; }

  MemorySegment function() { return function; }

  /** The largest block this kernel launches with. */
  int maxThreads() { return maxThreads; }

  @Override public Access access(int param) { return KernelFacts.access(ir, param); }
  @Override public boolean explicit() { return ir.launch() instanceof Launch.Explicit; }
  @Override public long[] loopCounts(Object[] args) { return KernelFacts.loopCounts(ir, args); }
}
