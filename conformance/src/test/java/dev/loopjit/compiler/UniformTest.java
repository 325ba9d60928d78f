// The CPU shape of a kernel: clamped work-items and guarded stores only where neighbours read side by side.
package dev.loopjit.compiler;

import dev.loopjit.ir.Target;
import dev.loopjit.ir.MethodRef;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.Parallel;
import dev.loopjit.backend.opencl.OpenClEmitter;
import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import org.junit.jupiter.api.Test;

class UniformTest {
  static final Target CPU = Target.of("opencl").withLocalMemoryBytes(1 << 20).withMaxWorkGroupSize(4096).withCpu(true);
  static final Target GPU = Target.of("opencl").withLocalMemoryBytes(48 << 10);

  static void matmul(float[] a, float[] b, float[] c, int n) {
    for (@Parallel int i = 0; i < n; i++)
      for (@Parallel int j = 0; j < n; j++) {
        float acc = 0;
        for (int k = 0; k < n; k++) acc += a[i * n + k] * b[k * n + j];
        c[i * n + j] = acc;
      }
  }

  static void rowSums(float[] m, float[] out, int cols) {
    for (@Parallel int i = 0; i < out.length; i++) {
      float s = 0;
      for (int k = 0; k < cols; k++) s += m[i * cols + k];
      out[i] = s;
    }
  }

  private static String emit(String method, String desc, Target t) {
    return OpenClEmitter.emit(Compiler.compile(MethodRef.of(UniformTest.class, method, desc), t), t);
  }

  @Test
  void matmulOnACpuRunsEveryWorkItemAndGuardsTheStore() {
    String cpu = emit("matmul", "([F[F[FI)V", CPU);
    assertTrue(cpu.contains("barrier(CLK_LOCAL_MEM_FENCE);"), cpu);
    assertTrue(cpu.contains("min((int)get_global_id(0)"), cpu);
    assertTrue(cpu.contains("if (in_range_) {"), cpu);
    String gpu = emit("matmul", "([F[F[FI)V", GPU);
    assertFalse(gpu.contains("in_range"), gpu);
  }

  @Test
  void aRowPerWorkItemKeepsTheGuard() {
    String cpu = emit("rowSums", "([F[FI)V", CPU);
    assertFalse(cpu.contains("in_range"), "interchanging would read the matrix by columns:\n" + cpu);
  }

  @Test
  void clampedWorkItemsChangeNothingOnOddSizes() {
    for (int n : new int[] {1, 3, 37, 65})
      KernelCheck.of("UniformTest.matmul", UniformTest::matmul)
          .args(() -> new Object[] {new Inputs(400).floats(n * n, -1, 1), new Inputs(401).floats(n * n, -1, 1), new float[n * n], n})
          .run();
  }
}
