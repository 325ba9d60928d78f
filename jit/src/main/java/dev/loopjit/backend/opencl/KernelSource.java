// Where the OpenCL runtime gets a task's kernel: the IR the runtime reads and the OpenCL C it builds.
package dev.loopjit.backend.opencl;

import dev.loopjit.compiler.Compiler;
import dev.loopjit.compiler.Target;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.runtime.TaskSpec;

/**
 * Produces a task's kernel for {@link OpenClRuntime}: the lowered IR (whose {@code params},
 * {@code args} and {@code launch} the runtime reads to bind arguments and size the grid) and the
 * OpenCL C source with one {@code __kernel} named {@code ir.name()}. {@link #COMPILER} is the JIT;
 * tests supply handwritten OpenCL C.
 *
 * <pre>{@code
 * KernelSource handwritten = (task, target) -> new KernelSource.Generated(ir, "__kernel void vadd(...) {...}");
 * PlanExecutor p = new GraphRunner(new OpenClRuntime(device, handwritten));
 * }</pre>
 */
@FunctionalInterface
public interface KernelSource {
  /** A kernel's IR and its OpenCL C text. */
  record Generated(KernelIR ir, String source) {}

  /** The kernel of {@code task} for {@code target}; throws KernelCompilationException when it cannot be compiled. */
  Generated generate(TaskSpec task, Target target);

  /** The JIT: bytecode to IR with {@link Compiler}, IR to OpenCL C with {@link OpenClEmitter}. */
  KernelSource COMPILER = (task, target) -> {
    KernelIR ir = Compiler.compile(task.method(), target);
    return new Generated(ir, OpenClEmitter.emit(ir, target));
  };
}
