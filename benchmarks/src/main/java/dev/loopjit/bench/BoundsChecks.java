// JMH: what bounds checks cost: vector add and naive matmul with loopjit.boundsChecks on and off, side by side in one run.
package dev.loopjit.bench;

import dev.loopjit.api.ExecutionResult;
import dev.loopjit.api.TaskGraph;
import dev.loopjit.tasks.Blas;
import dev.loopjit.tasks.Seeds;
import dev.loopjit.types.FloatArray;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The cost of bounds checks ({@code boundsChecks} = {@code true}, the default, or {@code false}) on
 * the device: vector add over 4M floats (c = a + b: c[i] is proven, a[i] and b[i] are checked, and
 * the host rules both out at launch), with transfers every execution and with resident data; naive
 * matmul 512x512 (every index {@code i*n+k} checked). Not in the default run: {@code scripts/bench BoundsChecks}.
 */
public class BoundsChecks extends Timed {
  /** Vector add's arrays. */
  @State(Scope.Benchmark)
  public static class Add implements Workload {
    FloatArray a, b, c, expected;

    @Setup
    public void setup() {
      int n = 1 << 22;
      a = Workload.random(n, 1);
      b = Workload.random(n, 2);
      c = new FloatArray(n);
      expected = new FloatArray(n);
      Seeds.vectorAdd(a, b, expected);
    }

    @Override public TaskGraph graph(Transfers t) {
      return t.around("vectorAdd", new Object[] {a, b}, c, g -> g.task("add", Seeds::vectorAdd, a, b, c));
    }

    @Override public FloatArray output() { return c; }

    @Override public FloatArray expected() { return expected; }
  }

  /** Naive matmul's arrays. */
  @State(Scope.Benchmark)
  public static class Gemm implements Workload {
    static final int N = 512;
    FloatArray a, b, c, expected;

    @Setup
    public void setup() {
      a = Workload.random(N * N, 7);
      b = Workload.random(N * N, 8);
      c = new FloatArray(N * N);
      expected = new FloatArray(N * N);
      Blas.gemmNaive(a, b, expected, N);
    }

    @Override public TaskGraph graph(Transfers t) {
      return t.around("matmul", new Object[] {a, b}, c, g -> g.task("gemm", Blas::gemmNaive, a, b, c, N));
    }

    @Override public FloatArray output() { return c; }

    @Override public FloatArray expected() { return expected; }
  }

  /** The plans, with checks on or off (the setting is read when a plan opens its device). */
  @State(Scope.Benchmark)
  public static class Plans {
    @Param({"true", "false"})
    public String boundsChecks;

    @Param("opencl:0")
    public String device;

    final DevicePlan addCopying = new DevicePlan() {}, addResident = new DevicePlan() {}, gemm = new DevicePlan() {};

    @Setup
    public void setup(Add add, Gemm g) {
      System.setProperty("loopjit.boundsChecks", boundsChecks);
      for (DevicePlan p : new DevicePlan[] {addCopying, addResident, gemm}) p.device = device;
      addCopying.open(add, Transfers.EVERY_EXECUTION);
      addResident.open(add, Transfers.RESIDENT);
      gemm.open(g, Transfers.RESIDENT);
    }

    @TearDown
    public void tearDown() {
      addCopying.close();
      addResident.close();
      gemm.close();
    }
  }

  @Benchmark
  public ExecutionResult vectorAddWithTransfers(Plans p) {
    return p.addCopying.execute();
  }

  @Benchmark
  public ExecutionResult vectorAddKernelOnly(Plans p) {
    return p.addResident.execute();
  }

  @Benchmark
  public ExecutionResult matmulKernelOnly(Plans p) {
    return p.gemm.execute();
  }
}
