// Java operators on every type, run through PtxEmitter and PtxSimulator and compared with Java.
package dev.loopjit.backend.cuda;

import static dev.loopjit.backend.cuda.Simulated.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.loopjit.ir.KernelIR;
import dev.loopjit.ir.Op.Binary;
import dev.loopjit.ir.Op.Compare;
import dev.loopjit.ir.Prim;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The simulator checks the emitter's logic (guards, masks, control flow, conversions, the float
 * remainder); what each PTX instruction does on hardware is taken from the PTX ISA, cited in the
 * emitter. Integers and non-NaN floats compare bit for bit; NaNs compare as NaN, except where the
 * emitter promises the exact bits (sign operations, min/max, raw bit moves).
 */
class PtxArithmeticTest {
  // ---- operators ----

  @ParameterizedTest
  @EnumSource(Binary.class)
  void intBinary(Binary op) {
    int[][] p = intPairs();
    int[] a = p[0], b = p[1], out = new int[a.length];
    run(TestKernels.binary(Prim.INT, op), a.length, a, b, out);
    for (int i = 0; i < a.length; i++) assertEquals(javaInt(op, a[i], b[i]), out[i], a[i] + " " + op.symbol + " " + b[i]);
  }

  static int javaInt(Binary op, int a, int b) {
    return switch (op) {
      case ADD -> a + b; case SUB -> a - b; case MUL -> a * b;
      case DIV -> b == 0 ? 0 : a / b; case REM -> b == 0 ? 0 : a % b;
      case AND -> a & b; case OR -> a | b; case XOR -> a ^ b;
      case SHL -> a << b; case SHR -> a >> b; case USHR -> a >>> b;
    };
  }

  @ParameterizedTest
  @EnumSource(Binary.class)
  void longBinary(Binary op) {
    long[][] p = longPairs();
    long[] a = p[0], b = p[1], out = new long[a.length];
    int[] shifts = new int[a.length];
    for (int i = 0; i < a.length; i++) shifts[i] = (int) b[i];
    run(TestKernels.binary(Prim.LONG, op), a.length, a, op.isShift() ? shifts : b, out);
    for (int i = 0; i < a.length; i++) {
      long x = a[i], y = b[i];
      int s = shifts[i];
      long expected = switch (op) {
        case ADD -> x + y; case SUB -> x - y; case MUL -> x * y;
        case DIV -> y == 0 ? 0 : x / y; case REM -> y == 0 ? 0 : x % y;
        case AND -> x & y; case OR -> x | y; case XOR -> x ^ y;
        case SHL -> x << s; case SHR -> x >> s; case USHR -> x >>> s;
      };
      assertEquals(expected, out[i], x + " " + op.symbol + " " + (op.isShift() ? s : y));
    }
  }

  @ParameterizedTest
  @EnumSource(value = Binary.class, names = {"DIV", "REM"})
  void divisionByConstants(Binary op) {
    int[] a = intPairs()[0], out = new int[a.length];
    long[] la = longPairs()[0], lout = new long[la.length];
    for (long d : new long[] {0, -1, 1, 3, -7, 64, Integer.MIN_VALUE, Integer.MAX_VALUE}) {
      run(TestKernels.divideByConstant(Prim.INT, op, d), a.length, a, out);
      for (int i = 0; i < a.length; i++) assertEquals(javaInt(op, a[i], (int) d), out[i], a[i] + " " + op.symbol + " " + d);
      run(TestKernels.divideByConstant(Prim.LONG, op, d), la.length, la, lout);
      for (int i = 0; i < la.length; i++) {
        long expected = d == 0 ? 0 : op == Binary.DIV ? la[i] / d : la[i] % d;
        assertEquals(expected, lout[i], la[i] + " " + op.symbol + " " + d);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(value = Binary.class, names = {"ADD", "SUB", "MUL", "DIV", "REM"})
  void floatBinary(Binary op) {
    float[][] p = floatPairs();
    float[] a = p[0], b = p[1], out = new float[a.length];
    run(TestKernels.binary(Prim.FLOAT, op), a.length, a, b, out);
    for (int i = 0; i < a.length; i++) {
      float x = a[i], y = b[i];
      float expected = switch (op) {
        case ADD -> x + y; case SUB -> x - y; case MUL -> x * y; case DIV -> x / y; case REM -> x % y;
        default -> throw new AssertionError(op);
      };
      assertBits(expected, out[i], x + " " + op.symbol + " " + y);
    }
  }

  @ParameterizedTest
  @EnumSource(value = Binary.class, names = {"ADD", "SUB", "MUL", "DIV", "REM"})
  void doubleBinary(Binary op) {
    double[][] p = doublePairs();
    double[] a = p[0], b = p[1], out = new double[a.length];
    run(TestKernels.binary(Prim.DOUBLE, op), a.length, a, b, out);
    for (int i = 0; i < a.length; i++) {
      double x = a[i], y = b[i];
      double expected = switch (op) {
        case ADD -> x + y; case SUB -> x - y; case MUL -> x * y; case DIV -> x / y; case REM -> x % y;
        default -> throw new AssertionError(op);
      };
      assertBits(expected, out[i], x + " " + op.symbol + " " + y);
    }
  }

  /** The exact float remainder on the hard cases: far-apart exponents, subnormals, equal magnitudes. */
  @Test
  void floatRemainderHardCases() {
    Random r = new Random(5);
    int n = 4000;
    float[] a = new float[n], b = new float[n], out = new float[n];
    double[] da = new double[n], db = new double[n], dout = new double[n];
    for (int i = 0; i < n; i++) {
      int ea = r.nextInt(256), eb = r.nextInt(256);
      a[i] = Float.intBitsToFloat(ea << 23 | r.nextInt(1 << 23) | (r.nextBoolean() ? 0x80000000 : 0));
      b[i] = i % 7 == 0 ? a[i] * (r.nextInt(9) - 4) : Float.intBitsToFloat(eb << 23 | r.nextInt(1 << 23) | (r.nextBoolean() ? 0x80000000 : 0));
      long ma = r.nextLong() & 0xFFFFFFFFFFFFFL, mb = r.nextLong() & 0xFFFFFFFFFFFFFL;
      da[i] = Double.longBitsToDouble((long) r.nextInt(2048) << 52 | ma | (r.nextBoolean() ? Long.MIN_VALUE : 0));
      db[i] = i % 7 == 0 ? da[i] * (r.nextInt(9) - 4) : Double.longBitsToDouble((long) r.nextInt(i % 3 == 0 ? 60 : 2048) << 52 | mb);
    }
    run(TestKernels.binary(Prim.FLOAT, Binary.REM), n, a, b, out);
    for (int i = 0; i < n; i++) assertBits(a[i] % b[i], out[i], a[i] + " % " + b[i]);
    run(TestKernels.binary(Prim.DOUBLE, Binary.REM), n, da, db, dout);
    for (int i = 0; i < n; i++) assertBits(da[i] % db[i], dout[i], da[i] + " % " + db[i]);
  }

  @ParameterizedTest
  @EnumSource(value = Binary.class, names = {"AND", "OR", "XOR"})
  void booleanBinary(Binary op) {
    boolean[] a = {false, false, true, true}, b = {false, true, false, true}, out = new boolean[4];
    run(TestKernels.booleanBinary(op), 4, a, b, out);
    for (int i = 0; i < 4; i++) {
      boolean expected = switch (op) { case AND -> a[i] & b[i]; case OR -> a[i] | b[i]; default -> a[i] ^ b[i]; };
      assertEquals(expected, out[i], a[i] + " " + op.symbol + " " + b[i]);
    }
  }

  static Stream<Arguments> comparisons() {
    return Stream.of(Prim.INT, Prim.LONG, Prim.FLOAT, Prim.DOUBLE).flatMap(t -> Stream.of(Compare.values()).map(c -> Arguments.of(t, c)));
  }

  @ParameterizedTest
  @MethodSource("comparisons")
  void compare(Prim t, Compare op) {
    Object a, b;
    int n;
    switch (t) {
      case INT -> { int[][] p = intPairs(); a = p[0]; b = p[1]; n = p[0].length; }
      case LONG -> { long[][] p = longPairs(); a = p[0]; b = p[1]; n = p[0].length; }
      case FLOAT -> { float[][] p = floatPairs(); a = p[0]; b = p[1]; n = p[0].length; }
      default -> { double[][] p = doublePairs(); a = p[0]; b = p[1]; n = p[0].length; }
    }
    boolean[] out = new boolean[n];
    run(TestKernels.compare(t, op), n, a, b, out);
    for (int i = 0; i < n; i++) {
      boolean expected = switch (t) {
        case INT -> javaCompare(op, ((int[]) a)[i], ((int[]) b)[i]);
        case LONG -> javaCompare(op, ((long[]) a)[i], ((long[]) b)[i]);
        case FLOAT -> javaCompare(op, ((float[]) a)[i], ((float[]) b)[i]);
        default -> javaCompare(op, ((double[]) a)[i], ((double[]) b)[i]);
      };
      assertEquals(expected, out[i], t + " " + op + " at " + i);
    }
  }

  static boolean javaCompare(Compare op, long x, long y) {
    return switch (op) { case EQ -> x == y; case NE -> x != y; case LT -> x < y; case LE -> x <= y; case GT -> x > y; case GE -> x >= y; };
  }

  static boolean javaCompare(Compare op, double x, double y) {
    return switch (op) { case EQ -> x == y; case NE -> x != y; case LT -> x < y; case LE -> x <= y; case GT -> x > y; case GE -> x >= y; };
  }

  @Test
  void negation() {
    int[] ia = INT_EDGES.clone(), io = new int[ia.length];
    run(TestKernels.negate(Prim.INT), ia.length, ia, io);
    for (int i = 0; i < ia.length; i++) assertEquals(-ia[i], io[i]);
    long[] la = LONG_EDGES.clone(), lo = new long[la.length];
    run(TestKernels.negate(Prim.LONG), la.length, la, lo);
    for (int i = 0; i < la.length; i++) assertEquals(-la[i], lo[i]);
    float[] fa = FLOAT_EDGES.clone(), fo = new float[fa.length];
    run(TestKernels.negate(Prim.FLOAT), fa.length, fa, fo);
    for (int i = 0; i < fa.length; i++) assertEquals(Float.floatToRawIntBits(fa[i]) ^ 0x80000000, Float.floatToRawIntBits(fo[i]), "-" + fa[i]);
    double[] da = DOUBLE_EDGES.clone(), dout = new double[da.length];
    run(TestKernels.negate(Prim.DOUBLE), da.length, da, dout);
    for (int i = 0; i < da.length; i++) assertEquals(Double.doubleToRawLongBits(da[i]) ^ Long.MIN_VALUE, Double.doubleToRawLongBits(dout[i]));
  }
}
