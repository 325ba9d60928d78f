// Plain-Java baselines on every core: the workloads' loops as parallel streams, and the check every baseline passes before it is timed.
package dev.loopjit.bench;

import dev.loopjit.types.FloatArray;
import java.util.stream.IntStream;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The workloads as a Java programmer parallelises them without LoopJIT: {@code IntStream.parallel()}
 * over the same outer loop as the {@code @Parallel} one, each iteration the same Java code, so the
 * results are bit-identical to the sequential loop. {@link #check} runs a baseline once before
 * JMH times it and fails the benchmark on a wrong result.
 */
final class Baselines {
  private Baselines() {}

  static void vectorAdd(FloatArray a, FloatArray b, FloatArray c) {
    IntStream.range(0, c.getSize()).parallel().forEach(i -> c.set(i, a.get(i) + b.get(i)));
  }

  static void saxpy(float alpha, FloatArray x, FloatArray y) {
    IntStream.range(0, y.getSize()).parallel().forEach(i -> y.set(i, alpha * x.get(i) + y.get(i)));
  }

  static void gemv(FloatArray a, FloatArray x, FloatArray y, int rows, int cols) {
    IntStream.range(0, rows).parallel().forEach(i -> {
      float sum = 0f;
      for (int j = 0; j < cols; j++) sum += a.get(i * cols + j) * x.get(j);
      y.set(i, sum);
    });
  }

  static void gemm(FloatArray a, FloatArray b, FloatArray c, int n) {
    IntStream.range(0, n).parallel().forEach(i -> {
      for (int j = 0; j < n; j++) {
        float acc = 0f;
        for (int k = 0; k < n; k++) acc += a.get(i * n + k) * b.get(k * n + j);
        c.set(i * n + j, acc);
      }
    });
  }

  static void dense(FloatArray x, FloatArray w, FloatArray bias, FloatArray y, int batch, int in, int out) {
    IntStream.range(0, batch).parallel().forEach(b -> {
      for (int o = 0; o < out; o++) {
        float acc = bias.get(o);
        for (int i = 0; i < in; i++) acc += x.get(b * in + i) * w.get(o * in + i);
        y.set(b * out + o, acc);
      }
    });
  }

  /** In a workload's {@code @Setup}: when the running benchmark method is a plain-Java baseline, {@link #check} it. */
  static void checkIfTimed(Workload w, BenchmarkParams params) {
    String method = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
    if (method.equals("parallelStreams") || method.equals("vectorApi")) check(w, params);
  }

  /**
   * Runs the baseline the running benchmark method names ({@code parallelStreams}, {@code vectorApi})
   * once on the workload's initial data and compares its output with the sequential loop's: bit
   * for bit, or within the bound the workload gives for a baseline that adds in another order.
   */
  static void check(Workload w, BenchmarkParams params) {
    String method = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
    w.baseline(method);
    FloatArray e = w.expected(), a = w.output();
    float[] bound = w.bound(method);
    for (int i = 0; i < e.getSize(); i++) {
      float x = e.get(i), y = a.get(i);
      boolean ok = bound == null ? Float.floatToIntBits(x) == Float.floatToIntBits(y) : Math.abs(x - y) <= bound[i];
      if (!ok)
        throw new IllegalStateException(w.getClass().getName() + " " + method + " computed a wrong result: element " + i + " is " + y
            + ", the sequential loop gives " + x + (bound == null ? " (must be bit-identical)" : " (bound " + bound[i] + ")"));
    }
  }
}
