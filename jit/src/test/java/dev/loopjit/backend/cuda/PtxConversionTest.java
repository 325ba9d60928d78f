// Java's primitive conversions and the Math/bit intrinsics, run through PtxEmitter and PtxSimulator and compared with Java.
package dev.loopjit.backend.cuda;

import static dev.loopjit.backend.cuda.Simulated.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.loopjit.ir.Intrinsic;
import dev.loopjit.ir.Prim;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PtxConversionTest {
  static final Prim[] SOURCES = {Prim.INT, Prim.LONG, Prim.FLOAT, Prim.DOUBLE};
  static final Prim[] TARGETS = {Prim.INT, Prim.LONG, Prim.FLOAT, Prim.DOUBLE, Prim.BYTE, Prim.SHORT, Prim.CHAR, Prim.HALF, Prim.BOOLEAN};

  static Stream<Arguments> conversions() {
    return Stream.of(SOURCES).flatMap(f -> Stream.of(TARGETS).map(t -> Arguments.of(f, t)));
  }

  /** The inputs of one source type: edges then random values, boxed. */
  static Number[] inputs(Prim t) {
    Random r = new Random(t.ordinal());
    return switch (t) {
      case INT -> Stream.concat(java.util.Arrays.stream(INT_EDGES).boxed(), Stream.generate(r::nextInt).limit(200)).toArray(Number[]::new);
      case LONG -> Stream.concat(java.util.Arrays.stream(LONG_EDGES).boxed(), Stream.generate(r::nextLong).limit(200)).toArray(Number[]::new);
      case FLOAT -> {
        Number[] out = new Number[FLOAT_EDGES.length + 200];
        for (int i = 0; i < out.length; i++) out[i] = i < FLOAT_EDGES.length ? FLOAT_EDGES[i] : randomFloat(r);
        yield out;
      }
      default -> Stream.concat(java.util.Arrays.stream(DOUBLE_EDGES).boxed(), Stream.generate(() -> randomDouble(r)).limit(200)).toArray(Number[]::new);
    };
  }

  static Object array(Prim t, int n) {
    return switch (t) {
      case INT, BYTE, SHORT, CHAR, BOOLEAN -> new int[n];
      case LONG -> new long[n];
      case FLOAT, HALF -> new float[n];
      case DOUBLE -> new double[n];
    };
  }

  static Object fill(Prim t, Number[] v) {
    Object a = array(t, v.length);
    for (int i = 0; i < v.length; i++) {
      switch (a) {
        case int[] x -> x[i] = v[i].intValue();
        case long[] x -> x[i] = v[i].longValue();
        case float[] x -> x[i] = v[i].floatValue();
        case double[] x -> x[i] = v[i].doubleValue();
        default -> throw new AssertionError();
      }
    }
    return a;
  }

  /** Java's {@code (to) x}, as the value the IR's Convert gives (narrow types as ints, half rounded and back to float, boolean as bit 0). */
  static Number java(Prim to, Number x) {
    int asInt = switch (x) {
      case Float f -> (int) (float) f;
      case Double d -> (int) (double) d;
      default -> (int) x.longValue();
    };
    return switch (to) {
      case INT -> asInt;
      case LONG -> switch (x) { case Float f -> (long) (float) f; case Double d -> (long) (double) d; default -> x.longValue(); };
      case FLOAT -> switch (x) { case Float f -> f; case Double d -> (float) (double) d; case Long l -> (float) (long) l; default -> (float) x.intValue(); };
      case DOUBLE -> switch (x) { case Float f -> (double) f; case Double d -> d; case Long l -> (double) (long) l; default -> (double) x.intValue(); };
      case BYTE -> (int) (byte) asInt;
      case SHORT -> (int) (short) asInt;
      case CHAR -> (int) (char) asInt;
      case BOOLEAN -> asInt & 1;
      case HALF -> Float.float16ToFloat(Float.floatToFloat16(java(Prim.FLOAT, x).floatValue()));
    };
  }

  static Number get(Object a, int i) {
    return switch (a) {
      case int[] x -> x[i];
      case long[] x -> x[i];
      case float[] x -> x[i];
      case double[] x -> x[i];
      default -> throw new AssertionError();
    };
  }

  static void assertValue(Number expected, Number actual, String what) {
    switch (expected) {
      case Float f -> assertBits(f, actual.floatValue(), what);
      case Double d -> assertBits(d, actual.doubleValue(), what);
      default -> assertEquals(expected.longValue(), actual.longValue(), what);
    }
  }

  @ParameterizedTest
  @MethodSource("conversions")
  void convert(Prim from, Prim to) {
    Number[] in = inputs(from);
    Object a = fill(from, in), out = array(to, in.length);
    run(TestKernels.convert(from, to), in.length, a, out);
    for (int i = 0; i < in.length; i++) assertValue(java(to, get(a, i)), get(out, i), "(" + to + ") " + get(a, i));
  }

  @Test
  void convertBoolean() {
    int[] a = {0, 1, -1, 2, 0, 5};
    for (Prim to : TARGETS) {
      Object out = array(to, a.length);
      run(TestKernels.convertBoolean(to), a.length, a, out);
      for (int i = 0; i < a.length; i++) assertValue(java(to, a[i] != 0 ? 1 : 0), get(out, i), "(" + to + ") " + (a[i] != 0));
    }
  }

  // ---- intrinsics ----

  @Test
  void floatMath() {
    float[][] p = floatPairs();
    float[] a = p[0], b = p[1], c = new float[a.length], out = new float[a.length];
    for (int i = 0; i < a.length; i++) c[i] = b[(i * 7 + 3) % b.length];
    check(Intrinsic.SQRT, 1, a, b, c, out, () -> { for (int i = 0; i < a.length; i++) assertBits((float) Math.sqrt(a[i]), out[i], "sqrt " + a[i]); });
    check(Intrinsic.FMA, 3, a, b, c, out, () -> { for (int i = 0; i < a.length; i++) assertBits(Math.fma(a[i], b[i], c[i]), out[i], "fma " + i); });
    check(Intrinsic.FLOOR, 1, a, b, c, out, () -> { for (int i = 0; i < a.length; i++) assertBits((float) Math.floor(a[i]), out[i], "floor " + a[i]); });
    check(Intrinsic.CEIL, 1, a, b, c, out, () -> { for (int i = 0; i < a.length; i++) assertBits((float) Math.ceil(a[i]), out[i], "ceil " + a[i]); });
    check(Intrinsic.RINT, 1, a, b, c, out, () -> { for (int i = 0; i < a.length; i++) assertBits((float) Math.rint(a[i]), out[i], "rint " + a[i]); });
    // abs, min and max keep the exact bits Java gives, NaN payloads included.
    check(Intrinsic.ABS, 1, a, b, c, out, () -> { for (int i = 0; i < a.length; i++) assertEquals(Float.floatToRawIntBits(Math.abs(a[i])), Float.floatToRawIntBits(out[i]), "abs " + a[i]); });
    check(Intrinsic.MIN, 2, a, b, c, out, () -> { for (int i = 0; i < a.length; i++) assertEquals(Float.floatToRawIntBits(Math.min(a[i], b[i])), Float.floatToRawIntBits(out[i]), "min " + a[i] + " " + b[i]); });
    check(Intrinsic.MAX, 2, a, b, c, out, () -> { for (int i = 0; i < a.length; i++) assertEquals(Float.floatToRawIntBits(Math.max(a[i], b[i])), Float.floatToRawIntBits(out[i]), "max " + a[i] + " " + b[i]); });
    int[] bits = new int[a.length];
    run(TestKernels.math(Intrinsic.FLOAT_BITS, Prim.FLOAT, Prim.INT, 1), a.length, a, b, c, bits);
    for (int i = 0; i < a.length; i++) assertEquals(Float.floatToRawIntBits(a[i]), bits[i]);
    int[] ints = intPairs()[0], unused = new int[ints.length];
    float[] back = new float[ints.length];
    run(TestKernels.math(Intrinsic.BITS_FLOAT, Prim.INT, Prim.FLOAT, 1), ints.length, ints, unused, unused, back);
    for (int i = 0; i < ints.length; i++) assertEquals(ints[i], Float.floatToRawIntBits(back[i]));
  }

  private static void check(Intrinsic op, int arity, float[] a, float[] b, float[] c, float[] out, Runnable verify) {
    run(TestKernels.math(op, Prim.FLOAT, Prim.FLOAT, arity), a.length, a, b, c, out);
    verify.run();
  }

  private static void check(Intrinsic op, int arity, double[] a, double[] b, double[] c, double[] out, Runnable verify) {
    run(TestKernels.math(op, Prim.DOUBLE, Prim.DOUBLE, arity), a.length, a, b, c, out);
    verify.run();
  }

  @Test
  void doubleMath() {
    double[][] p = doublePairs();
    double[] a = p[0], b = p[1], c = new double[a.length], out = new double[a.length];
    for (int i = 0; i < a.length; i++) c[i] = b[(i * 7 + 3) % b.length];
    check(Intrinsic.SQRT, 1, a, b, c, out, () -> { for (int i = 0; i < a.length; i++) assertBits(Math.sqrt(a[i]), out[i], "sqrt " + a[i]); });
    check(Intrinsic.FMA, 3, a, b, c, out, () -> { for (int i = 0; i < a.length; i++) assertBits(Math.fma(a[i], b[i], c[i]), out[i], "fma " + i); });
    check(Intrinsic.FLOOR, 1, a, b, c, out, () -> { for (int i = 0; i < a.length; i++) assertBits(Math.floor(a[i]), out[i], "floor " + a[i]); });
    check(Intrinsic.CEIL, 1, a, b, c, out, () -> { for (int i = 0; i < a.length; i++) assertBits(Math.ceil(a[i]), out[i], "ceil " + a[i]); });
    check(Intrinsic.RINT, 1, a, b, c, out, () -> { for (int i = 0; i < a.length; i++) assertBits(Math.rint(a[i]), out[i], "rint " + a[i]); });
    check(Intrinsic.ABS, 1, a, b, c, out, () -> { for (int i = 0; i < a.length; i++) assertEquals(Double.doubleToRawLongBits(Math.abs(a[i])), Double.doubleToRawLongBits(out[i]), "abs " + a[i]); });
    check(Intrinsic.MIN, 2, a, b, c, out, () -> { for (int i = 0; i < a.length; i++) assertEquals(Double.doubleToRawLongBits(Math.min(a[i], b[i])), Double.doubleToRawLongBits(out[i]), "min " + a[i] + " " + b[i]); });
    check(Intrinsic.MAX, 2, a, b, c, out, () -> { for (int i = 0; i < a.length; i++) assertEquals(Double.doubleToRawLongBits(Math.max(a[i], b[i])), Double.doubleToRawLongBits(out[i]), "max " + a[i] + " " + b[i]); });
    long[] bits = new long[a.length];
    run(TestKernels.math(Intrinsic.DOUBLE_BITS, Prim.DOUBLE, Prim.LONG, 1), a.length, a, b, c, bits);
    for (int i = 0; i < a.length; i++) assertEquals(Double.doubleToRawLongBits(a[i]), bits[i]);
    long[] longs = longPairs()[0], unused = new long[longs.length];
    double[] back = new double[longs.length];
    run(TestKernels.math(Intrinsic.BITS_DOUBLE, Prim.LONG, Prim.DOUBLE, 1), longs.length, longs, unused, unused, back);
    for (int i = 0; i < longs.length; i++) assertEquals(longs[i], Double.doubleToRawLongBits(back[i]));
  }

  @Test
  void integerMath() {
    int[][] p = intPairs();
    int[] a = p[0], b = p[1], out = new int[a.length];
    run(TestKernels.math(Intrinsic.ABS, Prim.INT, Prim.INT, 1), a.length, a, b, b, out);
    for (int i = 0; i < a.length; i++) assertEquals(Math.abs(a[i]), out[i], "abs " + a[i]);
    run(TestKernels.math(Intrinsic.MIN, Prim.INT, Prim.INT, 2), a.length, a, b, b, out);
    for (int i = 0; i < a.length; i++) assertEquals(Math.min(a[i], b[i]), out[i]);
    run(TestKernels.math(Intrinsic.MAX, Prim.INT, Prim.INT, 2), a.length, a, b, b, out);
    for (int i = 0; i < a.length; i++) assertEquals(Math.max(a[i], b[i]), out[i]);
    run(TestKernels.math(Intrinsic.POPCOUNT, Prim.INT, Prim.INT, 1), a.length, a, b, b, out);
    for (int i = 0; i < a.length; i++) assertEquals(Integer.bitCount(a[i]), out[i]);
    run(TestKernels.math(Intrinsic.CLZ, Prim.INT, Prim.INT, 1), a.length, a, b, b, out);
    for (int i = 0; i < a.length; i++) assertEquals(Integer.numberOfLeadingZeros(a[i]), out[i]);
    run(TestKernels.math(Intrinsic.CTZ, Prim.INT, Prim.INT, 1), a.length, a, b, b, out);
    for (int i = 0; i < a.length; i++) assertEquals(Integer.numberOfTrailingZeros(a[i]), out[i], "ctz " + a[i]);

    long[][] q = longPairs();
    long[] x = q[0], y = q[1], lout = new long[x.length];
    int[] counts = new int[x.length];
    run(TestKernels.math(Intrinsic.ABS, Prim.LONG, Prim.LONG, 1), x.length, x, y, y, lout);
    for (int i = 0; i < x.length; i++) assertEquals(Math.abs(x[i]), lout[i], "abs " + x[i]);
    run(TestKernels.math(Intrinsic.MIN, Prim.LONG, Prim.LONG, 2), x.length, x, y, y, lout);
    for (int i = 0; i < x.length; i++) assertEquals(Math.min(x[i], y[i]), lout[i]);
    run(TestKernels.math(Intrinsic.MAX, Prim.LONG, Prim.LONG, 2), x.length, x, y, y, lout);
    for (int i = 0; i < x.length; i++) assertEquals(Math.max(x[i], y[i]), lout[i]);
    run(TestKernels.math(Intrinsic.POPCOUNT, Prim.LONG, Prim.INT, 1), x.length, x, y, y, counts);
    for (int i = 0; i < x.length; i++) assertEquals(Long.bitCount(x[i]), counts[i]);
    run(TestKernels.math(Intrinsic.CLZ, Prim.LONG, Prim.INT, 1), x.length, x, y, y, counts);
    for (int i = 0; i < x.length; i++) assertEquals(Long.numberOfLeadingZeros(x[i]), counts[i]);
    run(TestKernels.math(Intrinsic.CTZ, Prim.LONG, Prim.INT, 1), x.length, x, y, y, counts);
    for (int i = 0; i < x.length; i++) assertEquals(Long.numberOfTrailingZeros(x[i]), counts[i], "ctz " + x[i]);
  }

  /** Fast math: the .approx instructions with their scaling; the simulator computes them exactly, so this checks the constants. */
  @Test
  void fastMathScaling() {
    float[] a = {0.5f, 1f, 2f, 3.5f, 10f, 0.01f}, out = new float[a.length];
    run(TestKernels.fastMath(), FAST, a.length, a, out);
    for (int i = 0; i < a.length; i++) {
      double x = a[i];
      double expected = Math.exp(x) + Math.log(x) + Math.log10(x) + Math.sin(x) + Math.cos(x) + Math.tanh(x);
      assertEquals(expected, out[i], 1e-5 * Math.abs(expected) + 1e-5, "fast math at " + x);
    }
  }
}
