// Emitters fed as the pipeline feeds them: hand-written IR goes through the legalise pass first, as compiled IR does.
package dev.loopjit.testing;

import dev.loopjit.backend.cuda.PtxEmitter;
import dev.loopjit.backend.opencl.OpenClEmitter;
import dev.loopjit.backend.spirv.SpirvEmitter;
import dev.loopjit.compiler.Compiler;
import dev.loopjit.ir.Target;
import dev.loopjit.ir.KernelIR;

/** For emitter tests that write IR by hand: the emitters expect legalised IR (integer / % abs, floating min max). */
public final class Emit {
  private Emit() {}

  public static String opencl(KernelIR k, Target t) {
    return OpenClEmitter.emit(Compiler.legalise(k, t), t);
  }

  public static String ptx(KernelIR k, Target t) {
    return PtxEmitter.emit(Compiler.legalise(k, t), t);
  }

  public static byte[] spirv(KernelIR k, Target t) {
    return SpirvEmitter.emit(Compiler.legalise(k, t), t);
  }
}
