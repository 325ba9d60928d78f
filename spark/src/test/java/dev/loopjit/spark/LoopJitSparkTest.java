// Kernels over Spark partitions and a model's predictions over an RDD equal the same work done locally, on every CPU device.
package dev.loopjit.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.Device;
import dev.loopjit.api.Parallel;
import dev.loopjit.nn.Layer;
import dev.loopjit.nn.Predictions;
import dev.loopjit.nn.Sequential;
import dev.loopjit.nn.Shape;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class LoopJitSparkTest {
  private static JavaSparkContext sc;

  @BeforeAll
  static void start() {
    sc = SparkSession.start("LoopJitSparkTest");
  }

  @AfterAll
  static void stop() {
    if (sc != null) sc.stop();
  }

  /** out[r] = Σ_j in[r, j]² : one record in, one float out. */
  public static void squaredNorms(FloatArray in, FloatArray out, int rows, int width) {
    for (@Parallel int r = 0; r < rows; r++) {
      float s = 0;
      for (int j = 0; j < width; j++) s += in.get(r * width + j) * in.get(r * width + j);
      out.set(r, s);
    }
  }

  /** Builds a string per row: no device can run it, so LoopJIT refuses it. */
  public static void refused(FloatArray in, FloatArray out, int rows, int width) {
    for (@Parallel int r = 0; r < rows; r++) out.set(r, String.valueOf(in.get(r * width)).length());
  }

  static List<float[]> records(int n, int width, long seed) {
    Random random = new Random(seed);
    List<float[]> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      float[] x = new float[width];
      for (int j = 0; j < width; j++) x[j] = random.nextFloat() * 2 - 1;
      rows.add(x);
    }
    return rows;
  }

  @Test
  void aKernelOverEachPartitionEqualsTheJavaLoop() {
    List<float[]> rows = records(1000, 17, 1);
    for (Device device : SparkTrainerTest.devices()) {
      List<float[]> out = LoopJitSpark.map(sc.parallelize(rows, 3), 1, LoopJitSparkTest::squaredNorms, device.id()).collect();
      assertEquals(rows.size(), out.size());
      for (int i = 0; i < rows.size(); i++) {
        float s = 0;
        for (float v : rows.get(i)) s += v * v;
        assertEquals(s, out.get(i)[0], device.id() + ": record " + i);
      }
    }
  }

  @Test
  void aGraphWithParametersOverEachPartition() {
    int width = 12, outputs = 5;
    List<float[]> rows = records(300, width, 2);
    float[] w = records(1, width * outputs, 3).get(0), b = records(1, outputs, 4).get(0);
    for (Device device : SparkTrainerTest.devices()) {
      List<float[]> out = LoopJitSpark.mapPartitions(sc.parallelize(rows, 4), outputs,
          (graph, in, y, n, k) -> graph.task("dense", SparkBench::dense, in, FloatArray.fromArray(w), FloatArray.fromArray(b), y, n, k, outputs),
          device.id()).collect();
      for (int i = 0; i < rows.size(); i++)
        for (int o = 0; o < outputs; o++) {
          float s = b[o];
          for (int j = 0; j < width; j++) s += w[o * width + j] * rows.get(i)[j];
          assertEquals(s, out.get(i)[o], device.id() + ": record " + i + ", output " + o);
        }
    }
  }

  /** out[r] = the histogram bucket (value ÷ 10, at most 9) counts of record r: int records in, int records out. */
  public static void buckets(IntArray in, IntArray out, int rows, int width) {
    for (@Parallel int r = 0; r < rows; r++) {
      for (int b = 0; b < 10; b++) out.set(r * 10 + b, 0);
      for (int j = 0; j < width; j++) {
        int b = Math.min(in.get(r * width + j) / 10, 9);
        out.set(r * 10 + b, out.get(r * 10 + b) + 1);
      }
    }
  }

  @Test
  void intRecordsToo() {
    Random random = new Random(3);
    List<int[]> rows = new ArrayList<>();
    for (int i = 0; i < 500; i++) rows.add(random.ints(13, 0, 120).toArray());
    for (Device device : SparkTrainerTest.devices()) {
      List<int[]> out = LoopJitSpark.mapInts(sc.parallelize(rows, 3), 10, LoopJitSparkTest::buckets, device.id()).collect();
      for (int i = 0; i < rows.size(); i++) {
        int[] expected = new int[10];
        for (int v : rows.get(i)) expected[Math.min(v / 10, 9)]++;
        assertArrayEquals(expected, out.get(i), device.id() + ": record " + i);
      }
    }
  }

  @Test
  void aKernelThatCannotCompileFailsTheJobWithLoopJitsMessage() {
    List<float[]> rows = records(10, 3, 5);
    SparkException e = assertThrows(SparkException.class,
        () -> LoopJitSpark.map(sc.parallelize(rows, 2), 1, LoopJitSparkTest::refused, "jvm-mt").collect());
    assertTrue(e.getMessage().contains("KernelCompilationException") && e.getMessage().contains("refused"), e.getMessage());
  }

  @Test
  void raggedRecordsAreNamed() {
    List<float[]> rows = records(6, 4, 6);
    rows.set(4, new float[3]);
    SparkException e = assertThrows(SparkException.class,
        () -> LoopJitSpark.map(sc.parallelize(rows, 2), 1, LoopJitSparkTest::squaredNorms, "jvm").collect());
    assertTrue(e.getMessage().contains("partition 1, record 1: 3 values, but record 0 of the partition has 4"), e.getMessage());
  }

  @Test
  void predictOverAnRddEqualsLocalPredict() {
    Sequential model = Sequential.of(Shape.of(1, 8, 8), Layer.conv(4, 3), Layer.relu(), Layer.maxPool(2), Layer.flatten(), Layer.dense(5))
        .initialize(9);
    List<float[]> rows = records(300, 64, 7);
    FloatArray all = new FloatArray(300 * 64);
    for (int i = 0; i < 300; i++) for (int j = 0; j < 64; j++) all.set(i * 64 + j, rows.get(i)[j]);
    for (Device device : SparkTrainerTest.devices()) {
      Predictions local = model.predict(all, device);
      List<float[]> spark = LoopJitSpark.predict(model, sc.parallelize(rows, 3), device.id(), 64).collect();
      List<Integer> labels = LoopJitSpark.predictLabels(model, sc.parallelize(rows, 3), device.id(), 64).collect();
      for (int i = 0; i < 300; i++) {
        float[] expected = java.util.Arrays.copyOfRange(local.scores(), i * 5, i * 5 + 5);
        assertArrayEquals(expected, spark.get(i), device.id() + ": row " + i);
        assertEquals(local.label(i), labels.get(i));
      }
    }
  }

  @Test
  void predictNamesARecordOfTheWrongWidth() {
    Sequential model = Sequential.of(6, Layer.dense(2)).initialize(1);
    List<float[]> rows = records(5, 6, 8);
    rows.set(0, new float[7]);
    SparkException e = assertThrows(SparkException.class, () -> LoopJitSpark.predict(model, sc.parallelize(rows, 1), "jvm", 4).collect());
    assertTrue(e.getMessage().contains("partition 0, record 0: 7 values, but the model takes 6 (6)"), e.getMessage());
  }
}
