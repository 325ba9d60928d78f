// Emits OpenCL C 1.2 from lowered IR, with strict Java semantics.
package dev.loopjit.backend.opencl;

import dev.loopjit.compiler.Target;
import dev.loopjit.ir.KernelIR;

/** IR to OpenCL C. */
public final class OpenClEmitter {
  private OpenClEmitter() {}

  /** The OpenCL C source of {@code k}: one {@code __kernel} named {@code k.name()}, arguments as {@code k.args()}. */
  public static String emit(KernelIR k, Target target) {
    throw new UnsupportedOperationException("OpenClEmitter not written yet");
  }
}
