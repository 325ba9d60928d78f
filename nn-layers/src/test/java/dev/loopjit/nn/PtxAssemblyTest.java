// Every nn-layers kernel through the PTX emitter and ptxas for sm_90: the CUDA path checked on machines with no GPU.
package dev.loopjit.nn;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.backend.cuda.PtxEmitter;
import dev.loopjit.backend.cuda.Ptxas;
import dev.loopjit.compiler.Compiler;
import dev.loopjit.compiler.MethodRef;
import dev.loopjit.compiler.Target;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class PtxAssemblyTest {
  private static final List<Class<?>> KERNELS = List.of(DenseKernels.class, ActivationKernels.class, LossKernels.class,
      OptimizerKernels.class, BatchKernels.class);

  /**
   * Kernels that call double {@code Math.exp/tanh/log1p}, for which the PTX emitter of this
   * version has no exact instruction sequence yet: it refuses them with "no exact PTX for …". Each
   * of these must either be refused with exactly that or assemble cleanly like the others, so the
   * list never hides another failure and costs nothing once the PTX path learns these functions.
   */
  private static final Set<String> AWAITING_PTX_MATH = Set.of("ActivationKernels.sigmoidForward", "ActivationKernels.tanhForward",
      "ActivationKernels.geluForward", "ActivationKernels.geluBackward", "LossKernels.bceForward", "LossKernels.bceBackward",
      "LossKernels.softmaxCrossEntropyForward");

  @Test
  void everyKernelAssemblesForSm90WithoutWarnings() {
    Assumptions.assumeTrue(Ptxas.present(), "ptxas (CUDA toolkit) is not installed");
    Target sm90 = Target.offline("ptx", "sm_90");
    List<String> failures = new ArrayList<>();
    int assembled = 0;
    for (Class<?> c : KERNELS)
      for (Method m : c.getDeclaredMethods()) {
        if (!Modifier.isPublic(m.getModifiers()) || !Modifier.isStatic(m.getModifiers())) continue;
        String name = c.getSimpleName() + "." + m.getName();
        String descriptor = MethodType.methodType(m.getReturnType(), m.getParameterTypes()).toMethodDescriptorString();
        String ptx;
        try {
          ptx = PtxEmitter.emit(Compiler.compile(MethodRef.of(c, m.getName(), descriptor), sm90), sm90);
        } catch (IllegalStateException e) {
          if (!AWAITING_PTX_MATH.contains(name) || !String.valueOf(e.getMessage()).startsWith("no exact PTX for "))
            failures.add(name + ": the PTX emitter failed: " + e);
          continue;
        }
        Ptxas.Result r = Ptxas.assemble(ptx, "sm_90");
        if (!r.ok() || !r.output().isBlank()) failures.add(name + ": " + r.output());
        assembled++;
      }
    assertTrue(failures.isEmpty(), String.join("\n", failures));
    assertTrue(assembled >= 20, "only " + assembled + " kernels assembled");
  }
}
