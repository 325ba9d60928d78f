// Runs every SemanticsKernels kernel on the jvm and on every device, on inputs chosen to hit each corner; all exact.
package dev.loopjit.conformance;

import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SemanticsKernelsTest {
  private static final int N = 997;

  // Each corner case first, then random values of the same kind.
  private static int[] head(int[] tail, int... head) {
    System.arraycopy(head, 0, tail, 0, head.length);
    return tail;
  }

  private static long[] head(long[] tail, long... head) {
    System.arraycopy(head, 0, tail, 0, head.length);
    return tail;
  }

  private static float[] head(float[] tail, float... head) {
    System.arraycopy(head, 0, tail, 0, head.length);
    return tail;
  }

  private static double[] head(double[] tail, double... head) {
    System.arraycopy(head, 0, tail, 0, head.length);
    return tail;
  }

  private static final float[] SPECIAL = {0f, -0f, Float.NaN, 1f, -1f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MIN_VALUE};

  /** Every ordered pair of SPECIAL values: first operands in [0], second in [1]. */
  private static float[][] specialPairs() {
    float[] a = new float[SPECIAL.length * SPECIAL.length], b = new float[a.length];
    for (int i = 0; i < SPECIAL.length; i++)
      for (int j = 0; j < SPECIAL.length; j++) {
        a[i * SPECIAL.length + j] = SPECIAL[i];
        b[i * SPECIAL.length + j] = SPECIAL[j];
      }
    return new float[][] {a, b};
  }

  private static double[] widen(float[] a) {
    double[] d = new double[a.length];
    for (int i = 0; i < a.length; i++) d[i] = a[i];
    return d;
  }

  @Test
  void intOverflowWraps() {
    KernelCheck.of("SemanticsKernels.intOverflowWraps", SemanticsKernels::intOverflowWraps)
        .args(() -> new Object[] {new Inputs(201).ints(N), new int[4 * N]}).run();
  }

  @Test
  void longOverflowWraps() {
    KernelCheck.of("SemanticsKernels.longOverflowWraps", SemanticsKernels::longOverflowWraps)
        .args(() -> new Object[] {new Inputs(202).longs(N), new long[4 * N]}).run();
  }

  @Test
  void constantShiftDistances() {
    KernelCheck.of("SemanticsKernels.constantShiftDistances", SemanticsKernels::constantShiftDistances)
        .args(() -> { Inputs in = new Inputs(203); return new Object[] {in.ints(N), in.longs(N), new int[4 * N], new long[4 * N]}; }).run();
  }

  @Test
  void divisionCorners() {
    int min = Integer.MIN_VALUE, max = Integer.MAX_VALUE;
    long lmin = Long.MIN_VALUE, lmax = Long.MAX_VALUE;
    KernelCheck.of("SemanticsKernels.divisionCorners", SemanticsKernels::divisionCorners)
        .args(() -> { Inputs in = new Inputs(204);
          return new Object[] {
              head(in.ints(N), 7, -7, 7, -7, min, min, min, 5, -5, max, max, 0, 1, -1),
              head(in.nonZeroInts(N), 2, 2, -2, -2, -1, 1, min, -1, 8, -1, min, 5, min, max),
              head(in.longs(N), 7, -7, 7, -7, lmin, lmin, lmin, 5, -5, lmax, lmax, 0, 1, -1),
              head(in.nonZeroLongs(N), 2, 2, -2, -2, -1, 1, lmin, -1, 8, -1, lmin, 5, lmin, lmax),
              new int[2 * N], new long[2 * N]}; }).run();
  }

  @Test
  void divisionByConstants() {
    KernelCheck.of("SemanticsKernels.divisionByConstants", SemanticsKernels::divisionByConstants)
        .args(() -> { Inputs in = new Inputs(205);
          return new Object[] {head(in.ints(N), -1, -7, -8, -9, -15, -16, -17, 7, 8, 9), in.longs(N), new int[8 * N], new long[3 * N]}; })
        .run();
  }

  @Test
  void floatToIntSaturates() {
    KernelCheck.of("SemanticsKernels.floatToIntSaturates", SemanticsKernels::floatToIntSaturates)
        .args(() -> new Object[] {head(new Inputs(206).anyFloats(N), Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 3e9f, -3e9f,
            1e19f, -1e19f, 2147483520f, 2147483648f, -2147483648f, -2147483904f, 9.223371E18f, 9.223372E18f, -9.223372E18f, -0.99f, 0.99f),
            new int[N], new long[N]}).run();
  }

  @Test
  void doubleToIntSaturates() {
    KernelCheck.of("SemanticsKernels.doubleToIntSaturates", SemanticsKernels::doubleToIntSaturates)
        .args(() -> new Object[] {head(new Inputs(207).anyDoubles(N), Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1e19,
            -1e19, 2147483647.9, -2147483648.9, 2147483648.0, -2147483649.0, 9.223372036854775E18, 9.223372036854776E18,
            -9.223372036854776E18, -9.223372036854778E18, 3e9, -3e9), new int[N], new long[N]}).run();
  }

  @Test
  void minMaxNaNAndSignedZero() {
    KernelCheck.of("SemanticsKernels.minMaxNaNAndSignedZero", SemanticsKernels::minMaxNaNAndSignedZero)
        .args(() -> { Inputs in = new Inputs(208); float[][] p = specialPairs();
          return new Object[] {head(in.anyFloats(N), p[0]), head(in.anyFloats(N), p[1]), new float[2 * N], new double[2 * N]}; }).run();
  }

  @Test
  void comparisonsWithNaN() {
    KernelCheck.of("SemanticsKernels.comparisonsWithNaN", SemanticsKernels::comparisonsWithNaN)
        .args(() -> { Inputs in = new Inputs(209); float[][] p = specialPairs();
          float[] a = head(in.anyFloats(N), p[0]), b = head(in.anyFloats(N), p[1]);
          return new Object[] {a, b, widen(b), widen(a), new int[N]}; }).run();
  }

  @Test
  void nanInLoopConditions() {
    KernelCheck.of("SemanticsKernels.nanInLoopConditions", SemanticsKernels::nanInLoopConditions)
        .args(() -> new Object[] {new Inputs(210).anyFloats(N), new int[3 * N]}).run();
  }

  @Test
  void noFmaContractionFloat() {
    float a = 1.0000001f, c = 1.0000002f; // a*a = 1 + 2^-22 + 2^-46: the last term survives only when fused
    KernelCheck.of("SemanticsKernels.noFmaContractionFloat", SemanticsKernels::noFmaContractionFloat)
        .args(() -> { Inputs in = new Inputs(211);
          return new Object[] {head(in.floats(N, -10, 10), a, a, -a), head(in.floats(N, -10, 10), a, a, -a),
              head(in.floats(N, -10, 10), -c, c, c), new float[4 * N]}; }).run();
  }

  @Test
  void noFmaContractionDouble() {
    double a = Math.nextUp(1.0), c = 1.0 + 0x1p-51;
    KernelCheck.of("SemanticsKernels.noFmaContractionDouble", SemanticsKernels::noFmaContractionDouble)
        .args(() -> { Inputs in = new Inputs(212);
          return new Object[] {head(in.doubles(N, -10, 10), a, a), head(in.doubles(N, -10, 10), a, a), head(in.doubles(N, -10, 10), -c, c),
              new double[3 * N]}; }).run();
  }

  @Test
  void charWraps() {
    KernelCheck.of("SemanticsKernels.charWraps", SemanticsKernels::charWraps)
        .args(() -> new Object[] {new Inputs(213).chars(N), new char[N], new int[2 * N]}).run();
  }

  @Test
  void longNarrowing() {
    KernelCheck.of("SemanticsKernels.longNarrowing", SemanticsKernels::longNarrowing)
        .args(() -> new Object[] {new Inputs(214).longs(N), new int[N], new short[N], new byte[N], new char[N]}).run();
  }

  @Test
  void integerToFloatRounding() {
    KernelCheck.of("SemanticsKernels.integerToFloatRounding", SemanticsKernels::integerToFloatRounding)
        .args(() -> { Inputs in = new Inputs(215);
          return new Object[] {
              head(in.ints(N), 16777217, 16777219, -16777217, -16777219, Integer.MAX_VALUE, Integer.MIN_VALUE, 16777216, 33554435,
                  (1 << 30) + 64, (1 << 30) + 192),
              head(in.longs(N), (1L << 53) + 1, (1L << 53) + 3, (1L << 24) + 1, Long.MAX_VALUE, Long.MIN_VALUE, -(1L << 53) - 1,
                  (1L << 62) + (1L << 38), (1L << 62) + 3 * (1L << 38), (1L << 62) + (1L << 38) + 1),
              new float[N], new float[N], new double[N]}; }).run();
  }

  @Test
  void doubleToFloatRounding() {
    double maxFloat = Float.MAX_VALUE, minFloat = Float.MIN_VALUE;
    KernelCheck.of("SemanticsKernels.doubleToFloatRounding", SemanticsKernels::doubleToFloatRounding)
        .args(() -> new Object[] {head(new Inputs(216).anyDoubles(N), 1 + 0x1p-24, 1 + 3 * 0x1p-24, 1 + 0x1p-24 + 0x1p-50,
            maxFloat + 0x1p103, maxFloat + 0x1p102, -(maxFloat + 0x1p103), minFloat / 2, minFloat * 1.5, minFloat * 0.5000001, 1e-50,
            -1e-50, Double.MIN_VALUE, Float.MIN_NORMAL * (1 - 0x1p-25), Double.NaN, Double.NEGATIVE_INFINITY), new float[N]}).run();
  }

  @Test
  void denseSwitch() {
    KernelCheck.of("SemanticsKernels.denseSwitch", SemanticsKernels::denseSwitch)
        .args(() -> new Object[] {new Inputs(217).ints(N, -2, 9), new int[N]}).run();
  }

  @Test
  void sparseSwitch() {
    KernelCheck.of("SemanticsKernels.sparseSwitch", SemanticsKernels::sparseSwitch)
        .args(() -> { int[] keys = {-1000000, -5, 10, 100, 1000, Integer.MAX_VALUE, 0, 7, -1, Integer.MIN_VALUE};
          int[] a = new Inputs(218).ints(N, 0, keys.length);
          for (int i = 0; i < N; i++) a[i] = keys[a[i]];
          return new Object[] {a, new int[N]}; }).run();
  }

  @Test
  void switchExpression() {
    KernelCheck.of("SemanticsKernels.switchExpression", SemanticsKernels::switchExpression)
        .args(() -> new Object[] {new Inputs(219).ints(N), new int[N]}).run();
  }

  @ParameterizedTest
  @CsvSource({"1, 1", "31, 17"})
  void labelledBreakContinue(int rows, int cols) {
    KernelCheck.of("SemanticsKernels.labelledBreakContinue", SemanticsKernels::labelledBreakContinue)
        .args(() -> new Object[] {new Inputs(220).ints(rows * cols, -1, 20), new int[rows], cols}).run();
  }

  @Test
  void whileAndDoWhile() {
    KernelCheck.of("SemanticsKernels.whileAndDoWhile", SemanticsKernels::whileAndDoWhile)
        .args(() -> new Object[] {new Inputs(221).ints(N), new int[2 * N]}).run();
  }

  @Test
  void nestedConditionals() {
    KernelCheck.of("SemanticsKernels.nestedConditionals", SemanticsKernels::nestedConditionals)
        .args(() -> { Inputs in = new Inputs(222); return new Object[] {in.anyFloats(N), in.ints(N, -8, 8), new float[N]}; }).run();
  }

  @Test
  void shortCircuitGuards() {
    KernelCheck.of("SemanticsKernels.shortCircuitGuards", SemanticsKernels::shortCircuitGuards)
        .args(() -> { Inputs in = new Inputs(223); return new Object[] {in.ints(97, -3, 3), in.ints(N, -5, 102), new int[N]}; }).run();
  }

  @Test
  void booleanLocals() {
    KernelCheck.of("SemanticsKernels.booleanLocals", SemanticsKernels::booleanLocals)
        .args(() -> new Object[] {new Inputs(224).anyFloats(N), new int[N]}).run();
  }

  @Test
  void compoundAssignments() {
    KernelCheck.of("SemanticsKernels.compoundAssignments", SemanticsKernels::compoundAssignments)
        .args(() -> { Inputs in = new Inputs(225); return new Object[] {in.ints(N), in.anyFloats(N), in.longs(N), new int[N]}; }).run();
  }

  @ParameterizedTest
  @CsvSource({"1, 1", "31, 17"})
  void postIncrementIndices(int rows, int cols) {
    KernelCheck.of("SemanticsKernels.postIncrementIndices", SemanticsKernels::postIncrementIndices)
        .args(() -> { Inputs in = new Inputs(226); return new Object[] {in.ints(rows * cols), in.ints(rows * cols, -9, 9), cols}; }).run();
  }

  @Test
  void minMaxWithConstants() {
    float[] f = {Float.NaN, 0f, -0f, 1f, -1f, 2.5f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MIN_VALUE, -Float.MIN_VALUE};
    double[] d = {Double.NaN, 0.0, -0.0, 1e300, -1e300, -2e300, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 5, -5};
    KernelCheck.of("SemanticsKernels.minMaxWithConstants", SemanticsKernels::minMaxWithConstants)
        .args(() -> new Object[] {f.clone(), new float[f.length * 5], d.clone(), new double[d.length * 2]}).run();
  }
}
