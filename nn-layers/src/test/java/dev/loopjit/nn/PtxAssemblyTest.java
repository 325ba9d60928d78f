// Every nn-layers kernel through the PTX emitter and ptxas for sm_90 (and its register budget for sm_80 and sm_90): the CUDA path checked on machines with no GPU.
package dev.loopjit.nn;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.backend.cuda.PtxRecipe;
import dev.loopjit.backend.cuda.Ptxas;
import dev.loopjit.compiler.Compiler;
import dev.loopjit.ir.MethodRef;
import dev.loopjit.ir.Target;
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

  /**
   * {@code ptxas -v} for sm_80 and sm_90: no kernel spills registers to local memory (on a GPU that
   * is global memory's speed), and the table of registers, stack and shared memory per kernel is
   * written to {@code target/ptxas-budgets.md} (docs/PERFORMANCE.md quotes it).
   */
  @Test
  void noKernelSpillsRegistersOnSm80OrSm90() throws java.io.IOException {
    Assumptions.assumeTrue(Ptxas.present(), "ptxas (CUDA toolkit) is not installed");
    StringBuilder table = new StringBuilder("| kernel | sm_80 registers | sm_90 registers | stack bytes | shared bytes |\n|---|---:|---:|---:|---:|\n");
    List<String> spills = new ArrayList<>();
    int rows = 0;
    for (Class<?> c : KERNELS)
      for (Method m : c.getDeclaredMethods()) {
        if (!Modifier.isPublic(m.getModifiers()) || !Modifier.isStatic(m.getModifiers())) continue;
        String name = c.getSimpleName() + "." + m.getName();
        String descriptor = MethodType.methodType(m.getReturnType(), m.getParameterTypes()).toMethodDescriptorString();
        Ptxas.Usage[] by = new Ptxas.Usage[2];
        String[] sms = {"sm_80", "sm_90"};
        for (int i = 0; i < 2; i++) {
          Target t = PtxRecipe.INSTANCE.target(null, sms[i], Options.DEFAULTS);
          String ptx = PtxRecipe.INSTANCE.emit(Compiler.compile(MethodRef.of(c, m.getName(), descriptor), t), t).text();
          List<Ptxas.Usage> u = Ptxas.usage(ptx, sms[i]);
          assertTrue(u.size() == 1, name + ": " + u);
          by[i] = u.get(0);
          if (by[i].spills()) spills.add(name + " on " + sms[i] + ": " + by[i]);
        }
        table.append("| ").append(name).append(" | ").append(by[0].registers()).append(" | ").append(by[1].registers()).append(" | ")
            .append(Math.max(by[0].stack(), by[1].stack())).append(" | ").append(Math.max(by[0].shared(), by[1].shared())).append(" |\n");
        rows++;
      }
    java.nio.file.Files.createDirectories(java.nio.file.Path.of("target"));
    java.nio.file.Files.writeString(java.nio.file.Path.of("target", "ptxas-budgets.md"), table);
    assertTrue(spills.isEmpty(), "kernels that spill registers:\n" + String.join("\n", spills));
    assertTrue(rows >= 20, "only " + rows + " kernels");
  }
}
