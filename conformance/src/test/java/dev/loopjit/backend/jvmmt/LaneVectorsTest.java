// jvm-mt's vector lanes: float lane iterations in Vector API registers, bit-identical to the jvm, failing as Java does; the rest left scalar.
package dev.loopjit.backend.jvmmt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Devices;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.KernelCode;
import dev.loopjit.api.KernelIndexOutOfBoundsException;
import dev.loopjit.api.Parallel;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.conformance.LaneKernels;
import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.FloatArray;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The build runs tests with {@code --add-modules jdk.incubator.vector}, so jvm-mt takes the vector
 * form wherever {@link LaneVectors} qualifies an iteration; each kernel here is checked to take it
 * (its bytecode calls {@link VectorOps}) or not, and run on every device against the jvm. Sizes
 * cover no full vector group, exactly some, and some with a scalar tail.
 */
class LaneVectorsTest {
  /** Naive matmul: one lane array (the sum), B read along x, C written along x. */
  private static final dev.loopjit.api.Task6<FloatArray, FloatArray, FloatArray, Integer, Integer, Integer> MATMUL = LaneKernels::matmul;

  @BeforeAll
  static void vectorApiIsThere() {
    assertTrue(LaneVectors.available(), "tests run with --add-modules jdk.incubator.vector (the pom's loopjit.jvmArgs)");
  }

  /** Every vector operation: two lane arrays, subtraction, division by a parameter, negation, a lane-independent value. */
  static void mixed(float[] a, float[] b, float[] out, float s, int n, int k) {
    for (@Parallel int i = 0; i < 3; i++)
      for (@Parallel int j = 0; j < n; j++) {
        float acc = 0f, run = 1f;
        for (int p = 0; p < k; p++) {
          float u = a[i * k + p];
          acc = acc - u * b[p * n + j] / s;
          run = -run * 0.5f + b[p * n + j];
        }
        out[i * n + j] = acc + run * u0(a);
      }
  }

  /** Branches the same for every lane, on a parameter and on the row, which Simplify writes as {@code ?:}: one side per vector. */
  static void branches(float[] a, float[] b, float[] out, int n, int k, int t) {
    for (@Parallel int i = 0; i < 40; i++)
      for (@Parallel int j = 0; j < n; j++) {
        float acc = 0f;
        for (int p = 0; p < k; p++) {
          float u = a[i * k + p], v = b[p * n + j];
          if (t > 3) acc = acc + u * v; else acc = acc - v;
          if ((i & 1) == 1) acc = acc * 0.5f; else acc = acc + v / u;
        }
        out[i * n + j] = acc;
      }
  }

  /** Double lanes: a matmul with a bias per row, a division and a negation, in doubles. */
  static void doubles(double[] a, double[] b, double[] bias, double[] out, int m, int n, int k) {
    for (@Parallel int i = 0; i < m; i++)
      for (@Parallel int j = 0; j < n; j++) {
        double acc = bias[i];
        for (int p = 0; p < k; p++) acc = acc + a[i * k + p] * b[p * n + j] / 3.0 - (-b[p * n + j]);
        out[i * n + j] = acc;
      }
  }

  /** Square roots in float lanes (Java's (float) Math.sqrt, correctly rounded), in a product's inner loop. */
  static void roots(float[] a, float[] b, float[] out, int n, int k) {
    for (@Parallel int i = 0; i < 3; i++)
      for (@Parallel int j = 0; j < n; j++) {
        float acc = 0f;
        for (int p = 0; p < k; p++) {
          float v = b[p * n + j];
          acc = acc + a[i * k + p] / ((float) Math.sqrt(v * v + 0.25f) + 1e-8f) - (float) Math.sqrt(v);
        }
        out[i * n + j] = acc;
      }
  }

  /** Square roots in double lanes. */
  static void doubleRoots(double[] a, double[] b, double[] out, int n, int k) {
    for (@Parallel int i = 0; i < 3; i++)
      for (@Parallel int j = 0; j < n; j++) {
        double acc = 0.0;
        for (int p = 0; p < k; p++) acc = acc + Math.sqrt(b[p * n + j]) * a[i * k + p] + Math.sqrt(b[p * n + j] * b[p * n + j]);
        out[i * n + j] = acc;
      }
  }

  private static float u0(float[] a) {
    return a[0] + 1f;
  }

  /** An int sum, products that overflow and a negation: int lanes, wrapping as Java's do. */
  static void counts(int[] a, int[] out, int n, int k) {
    for (@Parallel int j = 0; j < n; j++) {
      int acc = 0;
      for (int p = 0; p < k; p++) acc += a[p * n + j] * 65599 - (-a[p * n + j]);
      out[j] = acc;
    }
  }

  /** A long sum: no vector form for long lanes, so left to the scalar form. */
  static void longCounts(long[] a, long[] out, int n, int k) {
    for (@Parallel int j = 0; j < n; j++) {
      long acc = 0;
      for (int p = 0; p < k; p++) acc += a[p * n + j];
      out[j] = acc;
    }
  }

  private static String jvmCode(java.io.Serializable kernel) {
    return KernelCode.of(kernel, "jvm").text();
  }

  @ParameterizedTest
  @CsvSource({"1, 1, 1", "3, 7, 5", "2, 128, 3", "2, 129, 4", "5, 300, 17", "1, 1024, 2"})
  void matmulIsBitIdenticalOnEveryDevice(int m, int n, int k) {
    assertTrue(jvmCode(MATMUL).contains("VectorOps.load"));
    KernelCheck.Result r = KernelCheck.of("matmul/" + m + "x" + n + "x" + k, MATMUL)
        .args(() -> new Object[] {floats(1, m * k), floats(2, k * n), new FloatArray(m * n), m, n, k}).run();
    assertTrue(r.ranOn("jvm-mt"), r.devices().toString());
  }

  /**
   * Four rows at a time in strips of 64 lanes (the chunk pass, {@code Chunks.ROWS}): chunks of four
   * rows and more (8 chunks of 32 to 64 rows), a strip narrower than a vector group (16, 100 = 64 + 36),
   * rows left over (37, 45), and one row per chunk (5: no rows form).
   */
  @ParameterizedTest
  @CsvSource({"32, 64, 3", "37, 100, 5", "45, 200, 17", "64, 16, 2", "33, 130, 1", "5, 64, 4"})
  void matmulFourRowsAtATimeIsBitIdenticalOnEveryDevice(int m, int n, int k) {
    String code = jvmCode(MATMUL);
    assertTrue(code.contains("lanes = min(64") && code.contains("item_y + 3") && code.contains("VectorOps.load"), code);
    KernelCheck.Result r = KernelCheck.of("matmul4/" + m + "x" + n + "x" + k, MATMUL)
        .args(() -> new Object[] {floats(1, m * k), floats(2, k * n), new FloatArray(m * n), m, n, k}).run();
    assertTrue(r.ranOn("jvm-mt"), r.devices().toString());
  }

  @ParameterizedTest
  @CsvSource({"5, 3", "200, 9", "256, 1"})
  void subtractionDivisionNegationAndBroadcastsAreBitIdentical(int n, int k) {
    String code = jvmCode((dev.loopjit.api.Task6<float[], float[], float[], Float, Integer, Integer>) LaneVectorsTest::mixed);
    for (String op : new String[] {"VectorOps.sub", "VectorOps.div", "VectorOps.neg", "VectorOps.broadcast", "VectorOps.store"})
      assertTrue(code.contains(op), op + " in\n" + code);
    KernelCheck.Result r = KernelCheck.of("mixed/" + n + "x" + k, LaneVectorsTest::mixed)
        .args(() -> new Object[] {new Inputs(3).floats(3 * k, -2f, 2f), new Inputs(4).anyFloats(k * n), new float[3 * n], 0.37f, n, k}).run();
    assertTrue(r.ranOn("jvm-mt"), r.devices().toString());
  }

  /**
   * A kernel's vector calls stay within {@link LaneVectors#BUDGET} (past it, C2 leaves some as calls
   * and boxes their vectors): a matmul with a bias per row, four rows at a time, runs its rows with
   * fewer vectors per lane array instead of more calls, and still as vectors, bit-identical.
   */
  @Test
  void aKernelsVectorCallsStayWithinTheBudget() {
    for (java.io.Serializable kernel : new java.io.Serializable[] {MATMUL, (dev.loopjit.api.Task7<float[], float[], float[], float[], Integer, Integer, Integer>) ChunkKernels::matmulRowBias,
        (dev.loopjit.api.Task6<float[], float[], float[], Float, Integer, Integer>) LaneVectorsTest::mixed}) {
      String code = jvmCode(kernel);
      long calls = code.lines().filter(l -> l.contains("invokestatic") && l.contains("VectorOps.")).count();
      assertTrue(calls > 0 && calls <= LaneVectors.BUDGET, calls + " vector calls in\n" + code);
    }
    int rows = 37, inner = 29, cols = 150;
    KernelCheck.Result r = KernelCheck.of("matmulRowBias/budget", ChunkKernels::matmulRowBias).args(() -> new Object[] {
        new Inputs(1).floats(rows * inner, -1f, 1f), new Inputs(2).floats(inner * cols, -1f, 1f), new Inputs(3).floats(rows, -1f, 1f),
        new float[rows * cols], rows, inner, cols}).run();
    assertTrue(r.ranOn("jvm-mt"), r.devices().toString());
  }

  @ParameterizedTest
  @CsvSource({"100, 7, 5", "64, 3, 2", "200, 1, 4"})
  void choicesTheSameForEveryLaneRunAsVectorsBitIdentical(int n, int k, int t) {
    dev.loopjit.api.Task6<float[], float[], float[], Integer, Integer, Integer> kernel = LaneVectorsTest::branches;
    String code = jvmCode(kernel);
    assertTrue(code.contains("VectorOps.div") && code.contains("item_y + 3"), code);
    KernelCheck.Result r = KernelCheck.of("branches/" + n + "x" + k + "/" + t, kernel)
        .args(() -> new Object[] {new Inputs(6).floats(40 * k, 0.5f, 2f), new Inputs(7).anyFloats(k * n), new float[40 * n], n, k, t}).run();
    assertTrue(r.ranOn("jvm-mt"), r.devices().toString());
  }

  /** Double lanes run as {@code DoubleVector}s (8 a vector with AVX-512), four rows at a time and one, a vector group's tail scalar. */
  @ParameterizedTest
  @CsvSource({"37, 100, 5", "3, 70, 2", "40, 64, 9", "1, 1, 1"})
  void doubleLanesRunAsVectorsBitIdentical(int m, int n, int k) {
    dev.loopjit.api.Task7<double[], double[], double[], double[], Integer, Integer, Integer> kernel = LaneVectorsTest::doubles;
    String code = jvmCode(kernel);
    assertTrue(code.contains("DoubleVectorOps.load") && code.contains("DoubleVectorOps.div") && code.contains("item_y + 3"), code);
    KernelCheck.Result r = KernelCheck.of("doubles/" + m + "x" + n + "x" + k, kernel).args(() -> new Object[] {
        new Inputs(8).doubles(m * k, -1, 1), new Inputs(9).doubles(k * n, -1, 1), new Inputs(10).doubles(m, -1, 1), new double[m * n], m, n, k}).run();
    assertTrue(r.ranOn("jvm-mt"), r.devices().toString());
  }

  @ParameterizedTest
  @CsvSource({"5, 3", "200, 9", "256, 1"})
  void squareRootsRunAsVectorsBitIdentical(int n, int k) {
    dev.loopjit.api.Task5<float[], float[], float[], Integer, Integer> kernel = LaneVectorsTest::roots;
    String code = jvmCode(kernel);
    assertTrue(code.contains("VectorOps.sqrt"), code);
    KernelCheck.Result r = KernelCheck.of("roots/" + n + "x" + k, kernel)
        .args(() -> new Object[] {new Inputs(11).floats(3 * k, -2f, 2f), new Inputs(12).anyFloats(k * n), new float[3 * n], n, k}).run();
    assertTrue(r.ranOn("jvm-mt"), r.devices().toString());
    dev.loopjit.api.Task5<double[], double[], double[], Integer, Integer> doubles = LaneVectorsTest::doubleRoots;
    code = jvmCode(doubles);
    assertTrue(code.contains("DoubleVectorOps.sqrt"), code);
    r = KernelCheck.of("doubleRoots/" + n + "x" + k, doubles)
        .args(() -> new Object[] {new Inputs(13).doubles(3 * k, -1, 1), new Inputs(14).doubles(k * n, -1, 4), new double[3 * n], n, k}).run();
    assertTrue(r.ranOn("jvm-mt"), r.devices().toString());
  }

  @Test
  void theScalarVariantHasNoVectors() {
    assertFalse(KernelCode.of(MATMUL, "jvm:scalar").text().contains("VectorOps"));
    assertTrue(KernelCode.of(MATMUL, "jvm:vector").text().contains("VectorOps"));
  }

  @Test
  void intLanesRunAsVectorsAndLongLanesStayScalar() {
    assertTrue(jvmCode((dev.loopjit.api.Task4<int[], int[], Integer, Integer>) LaneVectorsTest::counts).contains("IntVectorOps.mul"));
    KernelCheck.Result r = KernelCheck.of("counts", LaneVectorsTest::counts).args(() -> new Object[] {new Inputs(5).ints(300 * 4), new int[300], 300, 4}).run();
    assertTrue(r.ranOn("jvm-mt"), r.devices().toString());
    assertFalse(jvmCode((dev.loopjit.api.Task4<long[], long[], Integer, Integer>) LaneVectorsTest::longCounts).contains("VectorOps"));
    r = KernelCheck.of("longCounts", LaneVectorsTest::longCounts).args(() -> new Object[] {new Inputs(6).longs(300 * 4), new long[300], 300, 4}).run();
    assertTrue(r.ranOn("jvm-mt"), r.devices().toString());
  }

  /** Int matmul four rows at a time, sums that overflow (LaneKernels.matmulInt), bit-identical on every device. */
  @ParameterizedTest
  @CsvSource({"37, 100, 5", "3, 70, 2"})
  void intMatmulRunsAsVectorsBitIdentical(int m, int n, int k) {
    dev.loopjit.api.Task6<int[], int[], int[], Integer, Integer, Integer> kernel = LaneKernels::matmulInt;
    String code = jvmCode(kernel);
    assertTrue(code.contains("IntVectorOps.load") && code.contains("item_y + 3"), code);
    KernelCheck.Result r = KernelCheck.of("matmulInt/" + m + "x" + n + "x" + k, kernel).args(() -> new Object[] {
        new Inputs(11).ints(m * k), new Inputs(12).ints(k * n), new int[m * n], m, n, k}).run();
    assertTrue(r.ranOn("jvm-mt"), r.devices().toString());
  }

  /** A vector load past the end (B one element short) or a vector store past it (C one short) fails as Java does, the host arrays unchanged. */
  @ParameterizedTest
  @CsvSource({"2", "40"})   // one row at a time; four rows at a time
  void anAccessOutOfRangeFailsWithJavasExceptionForThatArray(int m) {
    int n = 256, k = 3;
    FloatArray a = floats(1, m * k);
    for (String which : new String[] {"b", "c"}) {
      FloatArray b = floats(2, k * n - (which.equals("b") ? 1 : 0)), c = new FloatArray(m * n - (which.equals("c") ? 1 : 0));
      c.init(42f);
      TaskGraph g = new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a, b)
          .task("mm", LaneKernels::matmul, a, b, c, m, n, k).transferToHost(DataTransferMode.EVERY_EXECUTION, c);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(Devices.get("jvm-mt"))) {
        KernelIndexOutOfBoundsException e = assertThrows(KernelIndexOutOfBoundsException.class, plan::execute, which);
        assertEquals(which, e.array(), e.getMessage());
        assertEquals(which.equals("b") ? k * n - 1 : m * n - 1, e.index(), e.getMessage());   // the one element missing
        assertTrue(e.getMessage().contains("LaneKernels.matmul (LaneKernels.java:"), e.getMessage());
      }
      for (int i = 0; i < c.getSize(); i++) assertEquals(42f, c.get(i), "host array changed");
    }
  }

  private static FloatArray floats(long seed, int n) {
    return FloatArray.fromArray(new Inputs(seed).floats(n, -1f, 1f));
  }
}
