// Placeholder for the PTX emitter written on another branch; the lead replaces this file at merge.
package dev.loopjit.backend.cuda;

import dev.loopjit.compiler.Target;
import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.KernelIR;
import java.util.Set;

/** IR to PTX (not on this branch yet: the CUDA runtime's tests use handwritten PTX through {@link PtxSource}). */
public final class PtxEmitter {
  private PtxEmitter() {}

  /** The PTX module of {@code k}: one {@code .entry} named {@code k.name()}, parameters as {@code k.args()}. */
  public static String emit(KernelIR k, Target target) {
    throw new UnsupportedOperationException("PtxEmitter is not on this branch yet");
  }

  /** The intrinsics the emitter maps to native PTX instructions. */
  public static Set<Intrinsic> nativeIntrinsics(boolean fastMath) {
    return Set.of();
  }
}
