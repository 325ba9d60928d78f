// Shared by the simulator-based PTX tests: running a kernel, and edge and random values of each type.
package dev.loopjit.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loopjit.ir.Target;
import dev.loopjit.ir.KernelIR;
import java.util.Arrays;
import java.util.Random;

/** Runs emitted PTX in {@link PtxSimulator}; values are every edge against every edge, then random pairs. */
final class Simulated {
  private Simulated() {}

  static final Target STRICT = Target.of("ptx").withVariant("sm_90");
  static final Target FAST = Target.of("ptx").withVariant("sm_90").withFastMath(true);

  static final int[] INT_EDGES = {0, 1, -1, 2, -2, 3, -3, 5, 7, -7, 31, 32, 33, 63, 64, 65, 100, -100, 0x7FFF, 0x8000, 0xFFFF, 0x10000,
      Integer.MIN_VALUE, Integer.MAX_VALUE, Integer.MIN_VALUE + 1, Integer.MAX_VALUE - 1, 123456789, -987654321};
  static final long[] LONG_EDGES = {0, 1, -1, 2, -2, 3, -3, 7, -7, 31, 32, 63, 64, 65, -100, Integer.MIN_VALUE, Integer.MAX_VALUE, 1L << 32,
      (1L << 32) + 5, -(1L << 40), Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1, 0x123456789ABCDEFL, 1L << 53,
      (1L << 53) + 1, (1L << 62) + 3};
  static final float[] FLOAT_EDGES = {0f, -0f, 1f, -1f, 0.5f, -0.5f, 1.5f, 2.5f, -2.5f, 3f, 0.1f, -0.7f, 1e-3f, 7f, -7f, 1e10f, -1e10f,
      2.1474836E9f, -2.1474836E9f, 3e9f, 9.3e18f, -9.3e18f, 1e30f, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MIN_NORMAL,
      Float.MIN_NORMAL * 0.75f, Float.MAX_VALUE, -Float.MAX_VALUE, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN,
      Float.intBitsToFloat(0xFFC00123), 65504f, 65520f, 6e-8f, 1.0009765f, 16777217f, 123.456f, -65535.5f, 40000f, 128.7f, -129.2f};
  static final double[] DOUBLE_EDGES = {0d, -0d, 1d, -1d, 0.5, -0.5, 1.5, 2.5, -2.5, 0.1, -0.7, 7, -7, 1e10, -1e10, 2147483647.5,
      -2147483648.5, 2147483648.0, 3e9, 9.3e18, -9.3e18, 9.223372036854776E18, 1e300, 1e-300, Double.MIN_VALUE, -Double.MIN_VALUE,
      Double.MIN_NORMAL, Double.MIN_NORMAL / 3, Double.MAX_VALUE, -Double.MAX_VALUE, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
      Double.NaN, 3.4028235677973366E38, 1.401298464324817E-45, 65504.0, 65520.0, 0.30000000000000004, 1e-320, 123456.789, -40000.25};

  /** Emits {@code k} and runs it on {@code n} work-items in groups of 64, with {@code n} as the last argument. */
  static void run(KernelIR k, int n, Object... arrays) {
    run(k, STRICT, n, arrays);
  }

  static void run(KernelIR k, Target target, int n, Object... arrays) {
    Object[] args = Arrays.copyOf(arrays, arrays.length + 1);
    args[arrays.length] = n;
    new PtxSimulator(dev.loopjit.testing.Emit.ptx(k, target)).run(new int[] {(n + 63) / 64, 1, 1}, new int[] {64, 1, 1}, args);
  }

  static final int RANDOM = 300;

  static int[][] intPairs() {
    Random r = new Random(1);
    int e = INT_EDGES.length, n = e * e + RANDOM;
    int[] a = new int[n], b = new int[n];
    for (int i = 0; i < n; i++) {
      a[i] = i < e * e ? INT_EDGES[i / e] : r.nextInt();
      b[i] = i < e * e ? INT_EDGES[i % e] : (i % 3 == 0 ? r.nextInt(200) - 100 : r.nextInt());
    }
    return new int[][] {a, b};
  }

  static long[][] longPairs() {
    Random r = new Random(2);
    int e = LONG_EDGES.length, n = e * e + RANDOM;
    long[] a = new long[n], b = new long[n];
    for (int i = 0; i < n; i++) {
      a[i] = i < e * e ? LONG_EDGES[i / e] : r.nextLong();
      b[i] = i < e * e ? LONG_EDGES[i % e] : (i % 3 == 0 ? r.nextInt(200) - 100 : r.nextLong());
    }
    return new long[][] {a, b};
  }

  static float[][] floatPairs() {
    Random r = new Random(3);
    int e = FLOAT_EDGES.length, n = e * e + RANDOM;
    float[] a = new float[n], b = new float[n];
    for (int i = 0; i < n; i++) {
      a[i] = i < e * e ? FLOAT_EDGES[i / e] : randomFloat(r);
      b[i] = i < e * e ? FLOAT_EDGES[i % e] : randomFloat(r);
    }
    return new float[][] {a, b};
  }

  static double[][] doublePairs() {
    Random r = new Random(4);
    int e = DOUBLE_EDGES.length, n = e * e + RANDOM;
    double[] a = new double[n], b = new double[n];
    for (int i = 0; i < n; i++) {
      a[i] = i < e * e ? DOUBLE_EDGES[i / e] : randomDouble(r);
      b[i] = i < e * e ? DOUBLE_EDGES[i % e] : randomDouble(r);
    }
    return new double[][] {a, b};
  }

  /** Any bit pattern half the time (all exponents, subnormals, NaNs), small numbers otherwise. */
  static float randomFloat(Random r) {
    return r.nextBoolean() ? Float.intBitsToFloat(r.nextInt()) : (r.nextFloat() - 0.5f) * 200;
  }

  static double randomDouble(Random r) {
    return r.nextBoolean() ? Double.longBitsToDouble(r.nextLong()) : (r.nextDouble() - 0.5) * 200;
  }

  static void assertBits(float expected, float actual, String what) {
    if (Float.isNaN(expected) && Float.isNaN(actual)) return;
    assertEquals(Float.floatToRawIntBits(expected), Float.floatToRawIntBits(actual), () -> what + ": expected " + expected + " got " + actual);
  }

  static void assertBits(double expected, double actual, String what) {
    if (Double.isNaN(expected) && Double.isNaN(actual)) return;
    assertEquals(Double.doubleToRawLongBits(expected), Double.doubleToRawLongBits(actual), () -> what + ": expected " + expected + " got " + actual);
  }
}
