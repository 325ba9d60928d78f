// The compiler pipeline: Resolve, Parse, Structure, then the lowering passes, in order, each dumpable.
package dev.loopjit.compiler;

import dev.loopjit.ir.KernelIR;

/** Bytecode of a static method to lowered IR, ready for an emitter. */
public final class Compiler {
  private Compiler() {}

  /** Compiles {@code method} for {@code target}; throws KernelCompilationException for anything unsupported. */
  public static KernelIR compile(MethodRef method, Target target) {
    throw new UnsupportedOperationException("the bytecode front end is not written yet");
  }
}
