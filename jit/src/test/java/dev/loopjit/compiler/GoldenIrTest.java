// Golden tests of the pipeline: the IR after the front end and after each pass, for a few kernels, as the dump prints it.
package dev.loopjit.compiler;

import dev.loopjit.ir.Target;
import dev.loopjit.ir.MethodRef;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loopjit.api.KernelContext;
import dev.loopjit.api.Parallel;
import dev.loopjit.api.Reduce;
import dev.loopjit.ir.IrPrinter;
import dev.loopjit.types.FloatArray;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Compiles each kernel below for an offline OpenCL target (GPU-shaped), a CPU-shaped one, the
 * chunked JVM target ({@code jvm-mt}: pass {@code chunk}) and the CPU target a launch with fitting
 * counts and proven indices gets (up to 16 lanes × 8 rows, no checks: pass {@code coarsen}) and compares the IR after every stage with {@code src/test/resources/golden/KERNEL-TARGET.txt}. A pass
 * that changes what it makes changes these files: run
 * {@code mvn -pl jit surefire:test@default-test -Dtest=GoldenIrTest -Dgolden.update=true} and read
 * the diff as part of the change.
 */
class GoldenIrTest {
  static void saxpy(float a, FloatArray x, FloatArray y) {
    for (@Parallel int i = 0; i < y.getSize(); i++) y.set(i, a * x.get(i) + y.get(i));
  }

  static void matmul(float[] a, float[] b, float[] c, int n) {
    for (@Parallel int i = 0; i < n; i++)
      for (@Parallel int j = 0; j < n; j++) {
        float acc = 0f;
        for (int k = 0; k < n; k++) acc += a[i * n + k] * b[k * n + j];
        c[i * n + j] = acc;
      }
  }

  static void sum(float[] in, @Reduce float[] out) {
    for (@Parallel int i = 0; i < in.length; i++) out[0] += in[i];
  }

  static void divide(int[] a, int[] b, int[] q) {
    for (@Parallel int i = 0; i < q.length; i++) q[i] = a[i] / b[i] + Math.abs(a[i]) % 7 + Math.max(a[i], b[i]);
  }

  static void groupSum(KernelContext ctx, int[] in, int[] out) {
    int[] local = ctx.allocateIntLocalArray(64);
    local[ctx.localIdx] = in[ctx.globalIdx];
    ctx.localBarrier();
    if (ctx.localIdx == 0) {
      int s = 0;
      for (int k = 0; k < 64; k++) s += local[k];
      out[ctx.groupIdx] = s;
    }
  }

  @ParameterizedTest
  @CsvSource({"saxpy, (FLdev/loopjit/types/FloatArray;Ldev/loopjit/types/FloatArray;)V", "matmul, ([F[F[FI)V", "sum, ([F[F)V",
      "divide, ([I[I[I)V", "groupSum, (Ldev/loopjit/api/KernelContext;[I[I)V"})
  void theIrAfterEachPassIsTheGoldenOne(String kernel, String descriptor) throws IOException {
    MethodRef m = MethodRef.of(GoldenIrTest.class, kernel, descriptor);
    for (Target t : new Target[] {Target.offline("opencl", ""), cpu(), Target.offline("jvm", ""), cpu().withBoundsChecks(false).withLanes(16, 8)}) {
      StringBuilder out = new StringBuilder();
      out.append("==== parse ====\n").append(IrPrinter.print(Compiler.lower(m, t, "parse", Set.of(), true)));
      for (String pass : Compiler.passNames())
        out.append("==== ").append(pass).append(" ====\n").append(IrPrinter.print(Compiler.lower(m, t, pass, Set.of(), true)));
      String shape = t.chunked() ? "jvm" : t.lanes() > 1 ? "cpu-lanes" : t.cpu() ? "cpu" : "gpu";
      Path file = Path.of("src", "test", "resources", "golden", kernel + "-" + shape + ".txt");
      if (Boolean.getBoolean("golden.update")) Files.writeString(file, out, StandardCharsets.UTF_8);
      assertEquals(Files.readString(file, StandardCharsets.UTF_8), out.toString(), file + " (regenerate with -Dgolden.update=true and read the diff)");
    }
  }

  private static Target cpu() {
    return Target.of("opencl").withCpu(true);
  }
}
