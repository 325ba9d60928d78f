// LoopJIT inside Spark: datasets as RDDs of rows, kernels over each partition, and a model's predictions over an RDD.
package dev.loopjit.spark;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.Task4;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.nn.Dataset;
import dev.loopjit.nn.Predictions;
import dev.loopjit.nn.Predictor;
import dev.loopjit.nn.Sequential;
import dev.loopjit.nn.Weights;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.broadcast.Broadcast;

/**
 * Runs LoopJIT kernels where Spark runs tasks. Each Spark task packs its partition's records into
 * one {@link FloatArray}, runs the task graph on its device (the one named, else the GPU Spark
 * assigned the task, else {@link dev.loopjit.api.Devices#best()}) and unpacks the results, in the
 * partition's order. Compiled kernels are cached per executor JVM, so only the first task of a
 * kernel on an executor compiles it. A kernel that cannot be compiled fails the task with
 * LoopJIT's message (naming the line); nothing falls back silently. The {@code jvm-mt} device and
 * PoCL each run one thread pool per JVM sized to its cores, which the executor's task threads
 * share: {@code local[N]} with N ≤ cores does not oversubscribe them.
 *
 * <pre>{@code
 * JavaRDD<float[]> scores = LoopJitSpark.map(records, 1, MyKernels::score, null);   // score(in, out, rows, width)
 * JavaRDD<float[]> logits = LoopJitSpark.predict(model, images, null, 256);
 * }</pre>
 */
public final class LoopJitSpark {
  /**
   * The JVM options a driver and executors need for LoopJIT beyond Spark's own: native access
   * (OpenCL and CUDA through the FFM API) and the Vector API ({@code jvm-mt}'s lanes). Give them as
   * {@code spark.driver.extraJavaOptions} / {@code spark.executor.extraJavaOptions}; with PoCL on
   * the executors also {@code spark.executorEnv.LD_PRELOAD=$JAVA_HOME/lib/libjsig.so}.
   */
  public static final String JVM_OPTIONS = "--enable-native-access=ALL-UNNAMED --add-modules=jdk.incubator.vector";

  private LoopJitSpark() {}

  /**
   * A dataset's rows as an RDD of {@code partitions} partitions, contiguous and in order (partition
   * p holds rows p·N/P ..). The rows travel once per executor as a broadcast, not inside every task
   * (as {@code parallelize} would send them, with each round of training).
   */
  public static JavaRDD<LabeledRow> rows(JavaSparkContext sc, Dataset data, int partitions) {
    if (data.labels() == null) throw new IllegalArgumentException(data.name() + " has no labels");
    int n = data.size(), w = data.width();
    if (partitions < 1 || partitions > n) throw new IllegalArgumentException(partitions + " partitions for " + n + " rows: give 1.." + n);
    Broadcast<float[]> x = sc.broadcast(data.features().toArray());
    Broadcast<int[]> y = sc.broadcast(data.labels().toArray());
    List<Integer> slices = new ArrayList<>();
    for (int p = 0; p < partitions; p++) slices.add(p);
    return sc.parallelize(slices, partitions).flatMap(p -> {
      float[] features = x.value();
      int[] labels = y.value();
      int from = (int) ((long) p * n / partitions), to = (int) ((long) (p + 1) * n / partitions);
      List<LabeledRow> rows = new ArrayList<>(to - from);
      for (int i = from; i < to; i++) rows.add(new LabeledRow(Arrays.copyOfRange(features, i * w, (i + 1) * w), labels[i]));
      return rows.iterator();
    });
  }

  /**
   * Runs {@code kernel(in, out, rows, width)} once per partition: {@code in} the partition's
   * records (all of one width, row-major), {@code out} {@code outputWidth} floats per record. Returns
   * the results, one record per input record, in order. {@code device}: an id, or null as above.
   */
  public static JavaRDD<float[]> map(JavaRDD<float[]> records, int outputWidth, Task4<FloatArray, FloatArray, Integer, Integer> kernel,
      String device) {
    if (kernel == null) throw new IllegalArgumentException("a kernel is needed");
    return mapPartitions(records, outputWidth, (graph, in, out, rows, width) -> graph.task("map", kernel, in, out, rows, width), device);
  }

  /** As {@link #map}, with the partition's task graph wired by {@code graph} (kernels with parameters, several tasks). */
  public static JavaRDD<float[]> mapPartitions(JavaRDD<float[]> records, int outputWidth, PartitionGraph<FloatArray, FloatArray> graph,
      String device) {
    return run(records, outputWidth, graph, device, Element.FLOAT);
  }

  /** As {@link #map}, for {@code int[]} records and results: {@code kernel(in, out, rows, width)} over {@link IntArray}s. */
  public static JavaRDD<int[]> mapInts(JavaRDD<int[]> records, int outputWidth, Task4<IntArray, IntArray, Integer, Integer> kernel, String device) {
    if (kernel == null) throw new IllegalArgumentException("a kernel is needed");
    return mapIntPartitions(records, outputWidth, (graph, in, out, rows, width) -> graph.task("map", kernel, in, out, rows, width), device);
  }

  /** As {@link #mapPartitions}, for {@code int[]} records and results. */
  public static JavaRDD<int[]> mapIntPartitions(JavaRDD<int[]> records, int outputWidth, PartitionGraph<IntArray, IntArray> graph, String device) {
    return run(records, outputWidth, graph, device, Element.INT);
  }

  /** One partition of {@code R} records (float[] or int[]) packed into an array of {@code A}, the graph run, the results unpacked. */
  @SuppressWarnings("unchecked")
  private static <R, A> JavaRDD<R> run(JavaRDD<R> records, int outputWidth, PartitionGraph<A, A> graph, String device, Element element) {
    if (outputWidth < 1) throw new IllegalArgumentException("output width must be ≥ 1, not " + outputWidth);
    if (graph == null) throw new IllegalArgumentException("a graph is needed");
    if (device != null) dev.loopjit.api.Devices.get(device);   // an unknown id fails on the driver
    return records.mapPartitionsWithIndex((Function2<Integer, Iterator<R>, Iterator<R>>) (p, it) -> {
      Records in = Records.of(p, (Iterator<Object>) it, -1, null, element);
      int n = in.rows().size();
      if (n == 0) return java.util.Collections.emptyIterator();
      Object x = element.array(n * in.width()), y = element.array(n * outputWidth);
      in.pack(0, n, element.segment(x));
      TaskGraph g = new TaskGraph("partition" + p).transferToDevice(DataTransferMode.EVERY_EXECUTION, x);
      graph.wire(g, (A) x, (A) y, n, in.width());
      g.transferToHost(DataTransferMode.EVERY_EXECUTION, y);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(TaskDevice.of(device))) {
        plan.execute();
      }
      return (Iterator<R>) unpack(element.segment(y), n, outputWidth, element);
    }, true);
  }

  /**
   * The model's outputs (one record of {@code model.outputs()} scores per input record, in order)
   * for an RDD of inputs laid out as the model's input; each task runs {@code batch} records at a
   * time through a {@link Predictor} on its device. Equals {@link Sequential#predict} on the same
   * rows.
   */
  public static JavaRDD<float[]> predict(Sequential model, JavaRDD<float[]> inputs, String device, int batch) {
    if (batch < 1) throw new IllegalArgumentException("batch must be ≥ 1, not " + batch);
    if (device != null) dev.loopjit.api.Devices.get(device);
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(inputs.context());
    Broadcast<byte[]> bytes = sc.broadcast(Weights.toBytes(model));
    int width = model.inputs(), outputs = model.outputs();
    String shape = model.inputShape().toString();
    return inputs.mapPartitionsWithIndex((Function2<Integer, Iterator<float[]>, Iterator<float[]>>) (p, it) -> {
      @SuppressWarnings("unchecked")
      Records in = Records.of(p, (Iterator<Object>) (Iterator<?>) it, width, shape, Element.FLOAT);
      int rows = in.rows().size();
      if (rows == 0) return java.util.Collections.emptyIterator();
      Sequential m = Weights.fromBytes(bytes.value());
      List<float[]> out = new ArrayList<>(rows);
      try (Predictor predictor = m.predictor(Math.min(batch, rows), TaskDevice.of(device))) {
        for (int from = 0; from < rows; from += batch) {
          int n = Math.min(batch, rows - from);
          FloatArray x = new FloatArray(n * width);
          in.pack(from, n, x.getSegment());
          Predictions scores = predictor.predict(x);
          for (int r = 0; r < n; r++) out.add(Arrays.copyOfRange(scores.scores(), r * outputs, (r + 1) * outputs));
        }
      }
      return out.iterator();
    }, true);
  }

  /** The predicted class (highest score, first on ties) of each input record, in order. */
  public static JavaRDD<Integer> predictLabels(Sequential model, JavaRDD<float[]> inputs, String device, int batch) {
    int outputs = model.outputs();
    return predict(model, inputs, device, batch).map(s -> new Predictions(1, outputs, s).label(0));
  }

  /** The element types of records: how they pack into a kernel's array and back. */
  private enum Element {
    FLOAT(ValueLayout.JAVA_FLOAT, float[].class), INT(ValueLayout.JAVA_INT, int[].class);

    final ValueLayout layout;
    final Class<?> record;

    Element(ValueLayout layout, Class<?> record) {
      this.layout = layout;
      this.record = record;
    }

    Object array(int n) {
      return this == FLOAT ? new FloatArray(n) : new IntArray(n);
    }

    MemorySegment segment(Object array) {
      return array instanceof FloatArray f ? f.getSegment() : ((IntArray) array).getSegment();
    }

    Object record(int width) {
      return this == FLOAT ? new float[width] : new int[width];
    }
  }

  /** A partition's records, all of one width: that of the first, or {@code width} when ≥ 0; a bad one names its partition and index. */
  private record Records(List<Object> rows, int width, Element element) {
    static Records of(int partition, Iterator<Object> records, int width, String shape, Element element) {
      List<Object> rows = new ArrayList<>();
      int w = width;
      while (records.hasNext()) {
        Object r = records.next();
        int n = rows.size();
        if (r == null) throw new IllegalArgumentException("partition " + partition + ", record " + n + ": null");
        if (r.getClass() != element.record)
          throw new IllegalArgumentException("partition " + partition + ", record " + n + ": a " + r.getClass().getSimpleName() + ", not a "
              + element.record.getSimpleName());
        int length = java.lang.reflect.Array.getLength(r);
        if (w < 0) w = length;
        if (length != w)
          throw new IllegalArgumentException("partition " + partition + ", record " + n + ": " + length + " values, but "
              + (shape != null ? "the model takes " + w + " " + shape : "record 0 of the partition has " + w));
        rows.add(r);
      }
      if (w == 0 && !rows.isEmpty()) throw new IllegalArgumentException("partition " + partition + ": records of 0 values");
      return new Records(rows, Math.max(w, 0), element);
    }

    /** Records {@code from .. from+n-1} packed row-major into {@code into}, from its start. */
    void pack(int from, int n, MemorySegment into) {
      long bytes = element.layout.byteSize();
      for (int r = 0; r < n; r++) MemorySegment.copy(rows.get(from + r), 0, into, element.layout, r * width * bytes, width);
    }
  }

  /** {@code rows} records of {@code width} values read from {@code values}, row-major. */
  private static Iterator<Object> unpack(MemorySegment values, int rows, int width, Element element) {
    List<Object> out = new ArrayList<>(rows);
    long bytes = element.layout.byteSize();
    for (int r = 0; r < rows; r++) {
      Object y = element.record(width);
      MemorySegment.copy(values, element.layout, r * width * bytes, y, 0, width);
      out.add(y);
    }
    return out.iterator();
  }
}
