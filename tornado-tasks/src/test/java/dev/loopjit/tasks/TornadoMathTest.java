// TornadoMath as TornadoVM kernels call it: every method in a kernel on the jvm and on each device (KernelCheck), equal to Math's answers.
package dev.loopjit.tasks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.Parallel;
import dev.loopjit.api.TornadoMath;
import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.testing.Tolerance;
import dev.loopjit.types.DoubleArray;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import org.junit.jupiter.api.Test;

class TornadoMathTest {
  private static final int N = 97;

  /** The exact ones: min, max, abs, clamp, floor, ceil, fract, signum, sqrt (correctly rounded everywhere), π. */
  public static void exactFloats(FloatArray x, FloatArray y, FloatArray out, int n) {
    for (@Parallel int i = 0; i < n; i++) {
      float a = x.get(i), b = y.get(i);
      out.set(i, TornadoMath.min(a, b));
      out.set(n + i, TornadoMath.max(a, b));
      out.set(2 * n + i, TornadoMath.abs(a));
      out.set(3 * n + i, TornadoMath.clamp(a, -0.5f, 0.75f));
      out.set(4 * n + i, TornadoMath.floor(a * 3f) + TornadoMath.ceil(b * 3f));
      out.set(5 * n + i, TornadoMath.fract(a * 5f));
      out.set(6 * n + i, TornadoMath.signum(a) + TornadoMath.sqrt(TornadoMath.abs(b)));
      out.set(7 * n + i, TornadoMath.floatPI() * a);
    }
  }

  /** The library functions: each Math's, in double, rounded once to float. */
  public static void functions(FloatArray x, FloatArray y, FloatArray out, int n) {
    for (@Parallel int i = 0; i < n; i++) {
      float a = x.get(i), b = y.get(i);
      out.set(i, TornadoMath.exp(a));
      out.set(n + i, TornadoMath.log(TornadoMath.abs(a) + 1f));
      out.set(2 * n + i, TornadoMath.log2(TornadoMath.abs(b) + 1f));
      out.set(3 * n + i, TornadoMath.pow(TornadoMath.abs(a), b));
      out.set(4 * n + i, TornadoMath.sin(a));
      out.set(5 * n + i, TornadoMath.cos(b));
      out.set(6 * n + i, TornadoMath.tan(a));
      out.set(7 * n + i, TornadoMath.tanh(b));
      out.set(8 * n + i, TornadoMath.atan(a));
      out.set(9 * n + i, TornadoMath.atan2(a, b));
      out.set(10 * n + i, TornadoMath.asin(a));
      out.set(11 * n + i, TornadoMath.acos(b));
      out.set(12 * n + i, TornadoMath.sinpi(a));
      out.set(13 * n + i, TornadoMath.cospi(b));
      out.set(14 * n + i, TornadoMath.toRadians(a * 180f));
    }
  }

  /** The integer and double overloads. */
  public static void otherTypes(IntArray p, IntArray q, DoubleArray d, IntArray ints, DoubleArray doubles, int n) {
    for (@Parallel int i = 0; i < n; i++) {
      int a = p.get(i), b = q.get(i);
      long la = a, lb = b;
      short sa = (short) a, sb = (short) b;
      byte ba = (byte) a, bb = (byte) b;
      ints.set(i, TornadoMath.min(a, b) + TornadoMath.max(a, b) * 3 + TornadoMath.abs(a) * 7 + TornadoMath.clamp(a, -10, 20));
      ints.set(n + i, (int) (TornadoMath.min(la, lb) - TornadoMath.max(la, lb) + TornadoMath.abs(lb) + TornadoMath.clamp(lb, -5L, 5L)));
      ints.set(2 * n + i, TornadoMath.min(sa, sb) + TornadoMath.max(sa, sb) + TornadoMath.abs(sa) + TornadoMath.clamp(sb, (short) -3, (short) 3));
      ints.set(3 * n + i, TornadoMath.min(ba, bb) + TornadoMath.max(ba, bb) + TornadoMath.abs(bb) + TornadoMath.clamp(ba, (byte) -2, (byte) 9));
      double v = d.get(i);
      doubles.set(i, TornadoMath.min(v, 0.25) + TornadoMath.max(v, -0.25) + TornadoMath.abs(v) + TornadoMath.clamp(v, -0.1, 0.1));
      doubles.set(n + i, TornadoMath.floor(v * 4) + TornadoMath.ceil(v * 4) + TornadoMath.fract(v * 7) + TornadoMath.signum(v) + TornadoMath.PI());
      doubles.set(2 * n + i, TornadoMath.sqrt(TornadoMath.abs(v)) + TornadoMath.exp(v) + TornadoMath.log(TornadoMath.abs(v) + 1) + TornadoMath.log2(2 + v));
      doubles.set(3 * n + i, TornadoMath.pow(TornadoMath.abs(v), 1.5) + TornadoMath.sin(v) + TornadoMath.cos(v) + TornadoMath.asin(v)
          + TornadoMath.acos(v) + TornadoMath.sinpi(v) + TornadoMath.cospi(v));
      doubles.set(4 * n + i, TornadoMath.tan(v) + TornadoMath.tanh(v) + TornadoMath.atan(v) + TornadoMath.atan2(v, 0.5) + TornadoMath.toRadians(v * 90)
          + TornadoMath.acosh(2 + v) + TornadoMath.asinh(v));
      float f = (float) v;
      doubles.set(5 * n + i, TornadoMath.acosh(1.5f + f) + TornadoMath.asinh(f));
    }
  }

  private static FloatArray withEdges(FloatArray a) {
    float[] edges = {0f, -0f, Float.NaN, 1f, -1f, 0.5f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY};
    for (int i = 0; i < edges.length; i++) a.set(i, edges[i]);
    return a;
  }

  @Test
  void everyMethodInAKernelOnEveryDevice() {
    KernelCheck.of("exactFloats", TornadoMathTest::exactFloats)
        .args(() -> { Inputs in = new Inputs(1);
          return new Object[] {withEdges(in.floatArray(N, -2, 2)), in.floatArray(N, -2, 2), new FloatArray(8 * N), N}; })
        .run();
    KernelCheck.of("functions", TornadoMathTest::functions).tolerance(Tolerance.ulps(2))
        .args(() -> { Inputs in = new Inputs(2);
          return new Object[] {in.floatArray(N, -1, 1), in.floatArray(N, -1, 1), new FloatArray(15 * N), N}; })
        .run();
    KernelCheck.of("otherTypes", TornadoMathTest::otherTypes).tolerance(Tolerance.ulps(4))
        .args(() -> { Inputs in = new Inputs(3);
          return new Object[] {in.intArray(N, -300, 300), in.intArray(N, -300, 300), in.doubleArray(N, -1, 1), new IntArray(4 * N),
              new DoubleArray(6 * N), N}; })
        .run();
  }

  @Test
  void theyMeanWhatJavasMathMeans() {
    assertTrue(Float.isNaN(TornadoMath.min(Float.NaN, 1f)), "a NaN operand gives NaN, as Math.min");
    assertEquals(-0f, TornadoMath.min(0f, -0f));
    assertEquals(Short.MIN_VALUE, TornadoMath.abs(Short.MIN_VALUE));
    assertEquals(0.75f, TornadoMath.clamp(3f, -0.5f, 0.75f));
    assertEquals(0.25f, TornadoMath.fract(-1.75f));
    assertEquals(3f, TornadoMath.log2(8f));
    assertEquals((float) Math.PI, TornadoMath.floatPI());
  }

  @Test
  void theHostComparisonsCompareBitsOrUlps() {
    assertTrue(TornadoMath.isEqual(new float[] {Float.NaN, 1f}, new float[] {Float.NaN, 1f}));
    assertFalse(TornadoMath.isEqual(new float[] {0f}, new float[] {-0f}));
    assertTrue(TornadoMath.isEqualULP(new float[] {1f + Math.ulp(1f)}, new float[] {1f}, 1f));
    assertFalse(TornadoMath.isEqualULP(new float[] {1f + 3 * Math.ulp(1f)}, new float[] {1f}, 2f));
    assertEquals(2f, TornadoMath.findULPDistance(new float[] {1f, 1f + 2 * Math.ulp(1f)}, new float[] {1f, 1f}));
    assertTrue(TornadoMath.isEqualTol(new float[] {1.05f}, new float[] {1f}, 0.1f));
    assertTrue(TornadoMath.isEqual(FloatArray.fromArray(new float[] {2f}), FloatArray.fromArray(new float[] {2f})));
    assertEquals("1 0 ", TornadoMath.bitDiff(new float[] {Float.intBitsToFloat(1), 3f}, new float[] {0f, 3f}));
  }
}
