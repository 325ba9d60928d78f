// Every nn-layers kernel through the PTX emitter and ptxas for sm_90: the CUDA path checked on machines with no GPU.
package dev.loopjit.nn;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.backend.cuda.PtxRecipe;
import dev.loopjit.backend.cuda.Ptxas;
import dev.loopjit.compiler.Compiler;
import dev.loopjit.compiler.MethodRef;
import dev.loopjit.compiler.Target;
import dev.loopjit.spi.Options;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class PtxAssemblyTest {
  private static final List<Class<?>> KERNELS = List.of(DenseKernels.class, ActivationKernels.class, LossKernels.class,
      OptimizerKernels.class, BatchKernels.class, ConvKernels.class, PoolKernels.class, DropoutKernels.class, NormKernels.class);

  @Test
  void everyKernelAssemblesForSm90WithoutWarnings() {
    Assumptions.assumeTrue(Ptxas.present(), "ptxas (CUDA toolkit) is not installed");
    // Math functions PTX has no exact instruction for are compiled from StrictMath's Java code.
    Target sm90 = PtxRecipe.INSTANCE.target(null, "sm_90", Options.DEFAULTS);
    List<String> failures = new ArrayList<>();
    int assembled = 0;
    for (Class<?> c : KERNELS)
      for (Method m : c.getDeclaredMethods()) {
        if (!Modifier.isPublic(m.getModifiers()) || !Modifier.isStatic(m.getModifiers())) continue;
        String name = c.getSimpleName() + "." + m.getName();
        String descriptor = MethodType.methodType(m.getReturnType(), m.getParameterTypes()).toMethodDescriptorString();
        String ptx = PtxRecipe.INSTANCE.emit(Compiler.compile(MethodRef.of(c, m.getName(), descriptor), sm90), sm90).text();
        Ptxas.Result r = Ptxas.assemble(ptx, "sm_90");
        if (!r.ok() || !r.output().isBlank()) failures.add(name + ": " + r.output());
        assembled++;
      }
    assertTrue(failures.isEmpty(), String.join("\n", failures));
    assertTrue(assembled >= 20, "only " + assembled + " kernels assembled");
  }
}
