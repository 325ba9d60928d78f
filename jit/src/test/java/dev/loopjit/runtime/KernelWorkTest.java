// The work a launch does, counted from the lowered IR: exact for straight-line code and counted loops, estimated (and why) otherwise.
package dev.loopjit.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.KernelContext;
import dev.loopjit.api.Parallel;
import dev.loopjit.api.Profile;
import dev.loopjit.api.Reduce;
import dev.loopjit.compiler.Compiler;
import dev.loopjit.ir.MethodRef;
import dev.loopjit.ir.Target;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Launch;
import dev.loopjit.spi.Grid;
import dev.loopjit.spi.KernelFacts;
import dev.loopjit.types.FloatArray;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class KernelWorkTest {
  static final Target GPU = Target.offline("opencl", "");
  /** PoCL's shape: every work-item computes (clamped), only stores are guarded (the uniform pass). */
  static final Target CPU = Target.of("opencl").withLocalMemoryBytes(1 << 20).withMaxWorkGroupSize(4096).withCpu(true);

  static void saxpy(float a, float[] x, float[] y) {
    for (@Parallel int i = 0; i < y.length; i++) y[i] = a * x[i] + y[i];
  }

  static void matrixVector(FloatArray m, FloatArray v, FloatArray out, int rows, int cols) {
    for (@Parallel int i = 0; i < rows; i++) {
      float sum = 0;
      for (int j = 0; j < cols; j++) sum += m.get(i * cols + j) * v.get(j);
      out.set(i, sum);
    }
  }

  static void matmul(float[] a, float[] b, float[] c, int n) {
    for (@Parallel int i = 0; i < n; i++)
      for (@Parallel int j = 0; j < n; j++) {
        float acc = 0;
        for (int k = 0; k < n; k++) acc += a[i * n + k] * b[k * n + j];
        c[i * n + j] = acc;
      }
  }

  static void everyOther(double[] x, double[] out, int n) {
    for (@Parallel int i = 0; i < n; i++)
      for (int k = 0; k < n; k += 2) out[i] += Math.sqrt(x[k]) * 0.5;
  }

  static void prefix(float[] x, float[] out) {
    for (@Parallel int i = 0; i < out.length; i++) {
      float s = 0;
      for (int k = 0; k <= i; k++) s += x[k];
      out[i] = s;
    }
  }

  static void positives(float[] x, float[] out) {
    for (@Parallel int i = 0; i < x.length; i++) if (x[i] > 0) out[i] = x[i] * 2f;
  }

  static void dot(FloatArray x, FloatArray y, @Reduce FloatArray out) {
    for (@Parallel int i = 0; i < x.getSize(); i++) out.set(0, out.get(0) + x.get(i) * y.get(i));
  }

  static void scaleExplicit(KernelContext ctx, FloatArray x, float a) {
    int i = ctx.globalIdx;
    if (i < x.getSize()) x.set(i, x.get(i) * a);
  }

  private static KernelIR ir(String name, Target t) {
    for (Method m : KernelWorkTest.class.getDeclaredMethods())
      if (m.getName().equals(name)) {
        String desc = java.lang.invoke.MethodType.methodType(m.getReturnType(), m.getParameterTypes()).toMethodDescriptorString();
        return Compiler.compile(MethodRef.of(KernelWorkTest.class, name, desc), t);
      }
    throw new AssertionError(name);
  }

  /** The work of launching {@code name} for {@code t} with these arguments, on the grid its loops give (or {@code explicit}). */
  private static Profile.Work work(String name, Target t, long[] explicit, Object... args) {
    KernelIR ir = ir(name, t);
    Grid g;
    if (ir.launch() instanceof Launch.Explicit) g = new Grid(explicit.length, pad(explicit), null, pad(explicit));
    else {
      long[] counts = KernelFacts.loopCounts(ir, args);
      g = new Grid(counts.length, pad(counts), null, counts);
    }
    return KernelWork.of(ir, Arrays.asList(args), g);
  }

  private static long[] pad(long[] a) {
    long[] p = {1, 1, 1};
    System.arraycopy(a, 0, p, 0, a.length);
    return p;
  }

  private static void assertWork(Profile.Work w, double read, double written, double flops) {
    assertEquals(read, w.bytesRead(), 1e-6, w.toString());
    assertEquals(written, w.bytesWritten(), 1e-6, w.toString());
    assertEquals(flops, w.flops(), 1e-6, w.toString());
  }

  @Test
  void straightLineCodeIsExactOnGpuAndCpuShapes() {
    for (Target t : List.of(GPU, CPU)) {
      Profile.Work w = work("saxpy", t, null, 2f, new float[1000], new float[1000]);
      assertWork(w, 8 * 1000, 4 * 1000, 2 * 1000);
      assertTrue(w.exact(), w.estimate());
      assertEquals(1000, w.workItems());
    }
  }

  @Test
  void countedLoopsAreExact() {
    for (Target t : List.of(GPU, CPU)) {
      Profile.Work w = work("matrixVector", t, null, new FloatArray(300 * 70), new FloatArray(70), new FloatArray(300), 300, 70);
      assertWork(w, 8.0 * 300 * 70, 4 * 300, 2.0 * 300 * 70);
      assertTrue(w.exact(), w.estimate());
      Profile.Work mm = work("matmul", t, null, new float[64 * 64], new float[64 * 64], new float[64 * 64], 64);
      assertWork(mm, 8.0 * 64 * 64 * 64, 4.0 * 64 * 64, 2.0 * 64 * 64 * 64);
      assertTrue(mm.exact(), mm.estimate());
      assertEquals(64 * 64, mm.workItems());
    }
  }

  @Test
  void stepsAndMathFunctionsCount() {
    Profile.Work w = work("everyOther", GPU, null, new double[101], new double[7], 7);
    // k = 0, 2, 4, 6: four rounds of a load, sqrt, * and +=, per work-item; out[i] read and written each round.
    assertWork(w, 7 * 4 * (8 + 8), 7 * 4 * 8, 7 * 4 * 3);
    assertTrue(w.exact(), w.estimate());
  }

  @Test
  void aLoopBoundedByTheWorkItemIsEstimatedFromTheMiddleIteration() {
    Profile.Work w = work("prefix", GPU, null, new float[100], new float[100]);
    assertFalse(w.exact());
    assertTrue(w.estimate().contains("depends on the work-item"), w.estimate());
    assertTrue(w.bytesRead() > 0 && w.bytesWritten() == 4 * 100, w.toString());
  }

  @Test
  void aBranchOnDataIsEstimatedByItsLargerSide() {
    Profile.Work w = work("positives", GPU, null, new float[50], new float[50]);
    assertFalse(w.exact());
    assertTrue(w.estimate().contains("branch on data"), w.estimate());
    assertWork(w, 2 * 4 * 50, 4 * 50, 50);   // x[i] in the test and in the store, when taken
  }

  @Test
  void aReductionCountsItsStreamAndSaysItIsAnEstimate() {
    int n = 1 << 16;
    Profile.Work w = work("dot", GPU, null, new FloatArray(n), new FloatArray(n), new FloatArray(1));
    assertFalse(w.exact());
    assertTrue(w.bytesRead() >= 8.0 * n && w.bytesRead() < 8.0 * n * 1.01, w.toString());
    assertTrue(w.flops() >= 2.0 * n && w.flops() <= 3.0 * n, w.toString());
  }

  @Test
  void explicitKernelsCountTheirGrid() {
    Profile.Work w = work("scaleExplicit", GPU, new long[] {256}, new KernelContext(), new FloatArray(256), 3f);
    assertEquals(256, w.workItems());
    assertWork(w, 4 * 256, 4 * 256, 256);
    assertFalse(w.exact(), "a branch on the work-item id: the middle work-item stands for all");
  }

  @Test
  void theProbesCountWhatTheirRatesAssume() {
    Profile.Work copy = work("copy", GPU, null, new FloatArray(4096), new FloatArray(4096));
    assertWork(copy, 4 * 4096, 4 * 4096, 0);
    assertTrue(copy.exact(), copy.estimate());
    Profile.Work ma = work("multiplyAdd", GPU, null, new FloatArray(512), 0.999f, 0.5f, 100);
    assertWork(ma, 0, 4 * 512, 512.0 * (Probes.FLOPS_PER_ROUND * 100 + 14));
    assertTrue(ma.exact(), ma.estimate());
  }

  // The probes, as test kernels of this class (Compiler needs the method's own class).
  static void copy(FloatArray from, FloatArray to) {
    Probes.copy(from, to);
  }

  static void multiplyAdd(FloatArray out, float a, float b, int rounds) {
    Probes.multiplyAdd(out, a, b, rounds);
  }

  @Test
  void nothingToCountIsNull() {
    assertNull(KernelWork.of(dev.loopjit.spi.TaskSpec.prebuilt("g", "p",
        dev.loopjit.api.PrebuiltKernel.opencl("k", "__kernel void k() {}"), new Object[0]), null, null, dev.loopjit.spi.Options.DEFAULTS));
    assertNotNull(work("saxpy", GPU, null, 1f, new float[1], new float[1]));
  }
}
