// @Reduce on every device against the sequential loop on the jvm: operators, types, several outputs, nests.
package dev.loopjit.conformance;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.KernelCompilationException;
import dev.loopjit.compiler.Compiler;
import dev.loopjit.ir.MethodRef;
import dev.loopjit.ir.Target;
import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.testing.Tolerance;
import dev.loopjit.types.DoubleArray;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ReductionKernelsTest {
  @ParameterizedTest
  @ValueSource(ints = {1, 255, 257, 10_007})
  void sumLongWrapsLikeJava(int n) {
    KernelCheck.of("ReductionKernels.sumLong", ReductionKernels::sumLong)
        .args(() -> new Object[] {new Inputs(300).longs(n), new long[] {Long.MAX_VALUE}}).run();
  }

  @Test
  void productDouble() {
    // factors near 1: the order of multiplication changes only the last bits
    KernelCheck.of("ReductionKernels.productDouble", ReductionKernels::productDouble)
        .args(() -> { double[] v = new Inputs(301).doubles(3001, 0.999, 1.001);
          return new Object[] {DoubleArray.fromArray(v), DoubleArray.fromElements(2.0)}; })
        .tolerance(Tolerance.relative(1e-12)).run();
  }

  @Test
  void minIntAndMaxDouble() {
    KernelCheck.of("ReductionKernels.minInt", ReductionKernels::minInt)
        .args(() -> new Object[] {IntArray.fromArray(new Inputs(302).ints(5003)), IntArray.fromElements(7)}).run();
    KernelCheck.of("ReductionKernels.maxDouble", ReductionKernels::maxDouble)
        .args(() -> new Object[] {new Inputs(303).doubles(4099, -1e300, 1e300), new double[] {Double.NEGATIVE_INFINITY}}).run();
  }

  @Test
  void minFloatKeepsNaNAndSignedZero() {
    KernelCheck.of("ReductionKernels.minFloat/zeros", ReductionKernels::minFloat)
        .args(() -> new Object[] {new float[] {0f, 3f, -0f, 5f, 0f, 1f}, new float[] {0f}}).run();
    KernelCheck.of("ReductionKernels.minFloat/nan", ReductionKernels::minFloat)
        .args(() -> { float[] v = new Inputs(304).floats(2000, -10f, 10f); v[1234] = Float.NaN;
          return new Object[] {v, new float[] {Float.POSITIVE_INFINITY}}; }).run();
  }

  @Test
  void severalOutputsOfOneTask() {
    // squares of multiples of 1/8 below 4 sum exactly in float; max is exact; the long product wraps identically in any order
    KernelCheck.of("ReductionKernels.statistics", ReductionKernels::statistics)
        .args(() -> { int[] k = new Inputs(305).ints(3000, 0, 32); float[] v = new float[k.length];
          for (int i = 0; i < v.length; i++) v[i] = k[i] / 8f;
          return new Object[] {v, new float[] {1f}, new float[] {9f, -1f}, new long[] {3}}; }).run();
  }

  @Test
  void reductionsInNestedAndTwoDimensionalLoops() {
    KernelCheck.of("ReductionKernels.rowsTotal", ReductionKernels::rowsTotal)
        .args(() -> new Object[] {new Inputs(306).ints(97 * 13), new int[] {0}, 13}).run();
    KernelCheck.of("ReductionKernels.total2d", ReductionKernels::total2d)
        .args(() -> { int[] k = new Inputs(307).ints(41 * 37, 0, 64); float[] v = new float[k.length];
          for (int i = 0; i < v.length; i++) v[i] = k[i] / 16f;
          return new Object[] {FloatArray.fromArray(v), FloatArray.fromElements(0f), 41, 37}; }).run();
  }

  @Test
  void updatesThroughHelpersInsideTheIteration() {
    // a helper's body is a block before the update: its locals were forwarded only where the parallel
    // pass had flattened the iteration (at its top level), and never inside a switch's cases
    KernelCheck.of("ReductionKernels.sumBySwitch", ReductionKernels::sumBySwitch)
        .args(() -> new Object[] {new Inputs(308).ints(4001), new int[] {5}, new long[] {3}}).run();
    KernelCheck.of("ReductionKernels.sumByBranchAndLoop", ReductionKernels::sumByBranchAndLoop)
        .args(() -> new Object[] {new Inputs(309).ints(89 * 7), new int[] {-2}, 7}).run();
  }

  @Test
  void otherUsesOfAReduceArrayAreRefused() {
    Target t = Target.offline("opencl", "");
    KernelCompilationException read = assertThrows(KernelCompilationException.class,
        () -> Compiler.compile(MethodRef.of(ReductionKernels.class, "readsItsOutput", "([F[F)V"), t));
    assertTrue(read.getMessage().contains("@Reduce"), read.getMessage());
    assertTrue(read.line() > 0, read.getMessage());
    KernelCompilationException sub = assertThrows(KernelCompilationException.class,
        () -> Compiler.compile(MethodRef.of(ReductionKernels.class, "subtracts", "([I[I)V"), t));
    assertTrue(sub.getMessage().contains("OP x with OP one of + * Math.min Math.max"), sub.getMessage());
  }
}
