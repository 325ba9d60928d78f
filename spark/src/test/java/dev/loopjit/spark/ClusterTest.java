// On a real cluster: Spark's local-cluster master runs a standalone master, a worker and two executor JVMs, each with a GPU address.
package dev.loopjit.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.Devices;
import dev.loopjit.nn.Dataset;
import dev.loopjit.nn.Loss;
import dev.loopjit.nn.Optimizer;
import dev.loopjit.nn.Predictions;
import dev.loopjit.nn.Sequential;
import dev.loopjit.nn.TrainingStep;
import dev.loopjit.types.FloatArray;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What {@code local[N]} cannot show: tasks in other JVMs, so every closure, broadcast and result is
 * serialized, and each executor keeps its own workers; and Spark's GPU scheduling, which local mode
 * does not do. The worker's discovery script reports one GPU at address 7 on each executor; this
 * machine has no {@code cuda:7}.
 */
class ClusterTest {
  private static JavaSparkContext sc;

  @BeforeAll
  static void start() throws Exception {
    Path home = Path.of(System.getenv().getOrDefault("SPARK_HOME", "target/spark-home"));
    Files.createDirectories(home.resolve("jars"));   // empty: the executors get the tests' class path instead
    if (!Files.exists(home.resolve("RELEASE"))) Files.createFile(home.resolve("RELEASE"));
    Path script = home.resolve("gpus.sh");
    Files.writeString(script, "#!/bin/sh\necho '{\"name\": \"gpu\", \"addresses\": [\"7\"]}'\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    String ld = System.getenv("LD_PRELOAD");
    SparkConf conf = new SparkConf().setMaster("local-cluster[2,1,1024]").setAppName("ClusterTest").set("spark.ui.enabled", "false")
        .set("spark.driver.host", "127.0.0.1").set("spark.driver.bindAddress", "127.0.0.1")
        .set("spark.worker.resource.gpu.amount", "1").set("spark.worker.resource.gpu.discoveryScript", script.toAbsolutePath().toString())
        .set("spark.executor.resource.gpu.amount", "1").set("spark.task.resource.gpu.amount", "1")
        .set("spark.executor.extraClassPath", System.getProperty("java.class.path"))
        .set("spark.executor.extraJavaOptions", LoopJitSpark.JVM_OPTIONS + " -Dloopjit.verifyIr=true");
    if (ld != null) conf.set("spark.executorEnv.LD_PRELOAD", ld);
    sc = new JavaSparkContext(conf);
    sc.setLogLevel("ERROR");
  }

  @AfterAll
  static void stop() {
    if (sc != null) sc.stop();
  }

  @Test
  void tasksRunInTwoExecutorJvmsWithTheirGpuAddress() {
    List<String> seen = sc.parallelize(List.of(0, 1, 2, 3), 4).map(i -> org.apache.spark.TaskContext.get().resourcesJMap().get("gpu").addresses()[0]
        + "@" + ProcessHandle.current().pid()).collect();
    Set<String> jvms = new HashSet<>();
    for (String s : seen) {
      assertTrue(s.startsWith("7@"), s);
      jvms.add(s.substring(2));
    }
    assertTrue(!jvms.contains(String.valueOf(ProcessHandle.current().pid())), "the tasks ran outside the driver");
  }

  @Test
  void aTaskOnAGpuThatLoopJitCannotSeeFailsNamingIt() {
    assertTrue(Devices.all().stream().noneMatch(d -> d.id().equals("cuda:7")));
    SparkException e = assertThrows(SparkException.class,
        () -> LoopJitSpark.map(sc.parallelize(List.of(new float[] {1f, 2f}), 1), 1, LoopJitSparkTest::squaredNorms, null).collect());
    assertTrue(e.getMessage().contains("GPU 7, but LoopJIT sees no cuda:7"), e.getMessage());
    // A device named overrides Spark's assignment.
    assertEquals(5f, LoopJitSpark.map(sc.parallelize(List.of(new float[] {1f, 2f}), 1), 1, LoopJitSparkTest::squaredNorms, "jvm-mt").collect()
        .get(0)[0]);
  }

  @Test
  void gradientAveragingAcrossExecutorsEqualsOneProcess() {
    Dataset data = SparkTrainerTest.blobs(256, 10, 4);
    Sequential spark = SparkTrainerTest.mlp(10), local = SparkTrainerTest.mlp(10);
    new SparkTrainer(spark, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(1e-2f)).batch(16).epochs(2).shuffle(false).device("jvm")
        .fit(LoopJitSpark.rows(sc, data, 2), null);
    int[] order = new int[32];
    try (TrainingStep step = local.trainingStep(data, 32, Loss.SOFTMAX_CROSS_ENTROPY, Optimizer.adam(1e-2f), Devices.jvm())) {
      for (int s = 0; s < 16; s++) {
        for (int b = 0; b < 16; b++) {
          order[b] = (s % 8) * 16 + b;
          order[16 + b] = 128 + (s % 8) * 16 + b;
        }
        step.run(order, 0, 32);
      }
      step.pullParameters();
    }
    SparkTrainerTest.assertWithin1e5(local, spark, "after 16 steps across two executor JVMs");
  }

  @Test
  void predictAcrossExecutorsEqualsLocalPredict() {
    Sequential model = SparkTrainerTest.mlp(10);
    List<float[]> rows = LoopJitSparkTest.records(200, 10, 3);
    FloatArray all = new FloatArray(200 * 10);
    for (int i = 0; i < 200; i++) for (int j = 0; j < 10; j++) all.set(i * 10 + j, rows.get(i)[j]);
    Predictions local = model.predict(all, Devices.get("jvm-mt"));
    List<float[]> spark = LoopJitSpark.predict(model, sc.parallelize(rows, 4), "jvm-mt", 32).collect();
    for (int i = 0; i < 200; i++) assertArrayEquals(java.util.Arrays.copyOfRange(local.scores(), i * 4, i * 4 + 4), spark.get(i), "row " + i);
  }
}
