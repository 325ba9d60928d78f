// Where the CUDA runtime gets a task's kernel: the IR the runtime reads and the PTX it loads.
package dev.loopjit.backend.cuda;

import dev.loopjit.compiler.Compiler;
import dev.loopjit.compiler.Target;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.runtime.TaskSpec;

/**
 * Produces a task's kernel for {@link CudaRuntime}: the lowered IR (whose {@code params},
 * {@code args} and {@code launch} the runtime reads to pass arguments and size the grid) and a
 * PTX module with one {@code .entry} named {@code ir.name()}. {@link #COMPILER} is the JIT; tests
 * supply handwritten PTX.
 *
 * <pre>{@code
 * PtxSource handwritten = (task, target) -> new PtxSource.Generated(ir, ".version 7.8\n.target sm_80\n...");
 * PlanExecutor p = new GraphRunner(new CudaRuntime(device, handwritten));
 * }</pre>
 */
@FunctionalInterface
public interface PtxSource {
  /** A kernel's IR and its PTX text. */
  record Generated(KernelIR ir, String ptx) {}

  /** The kernel of {@code task} for {@code target}; throws KernelCompilationException when it cannot be compiled. */
  Generated generate(TaskSpec task, Target target);

  /** The JIT: bytecode to IR with {@link Compiler}, IR to PTX with {@link PtxEmitter}. */
  PtxSource COMPILER = (task, target) -> {
    KernelIR ir = Compiler.compile(task.method(), target);
    return new Generated(ir, PtxEmitter.emit(ir, target));
  };
}
