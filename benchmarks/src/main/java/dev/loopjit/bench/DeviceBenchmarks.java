// The benchmark methods of every workload, written once: the plain Java loop, and the kernel on the @Param devices with transfers and resident.
package dev.loopjit.bench;

import dev.loopjit.api.ExecutionResult;
import dev.loopjit.types.FloatArray;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Base of the workload benchmarks ({@link VectorAdd}, {@link MatMul}, …). JMH runs inherited
 * benchmark methods under the subclass's name ({@code VectorAdd.kernelOnly}), so a workload class is
 * its data alone: a {@code @State} {@link WorkloadData} that its {@code @Setup} hands to {@link #use}.
 * {@code jvm} times the plain Java method; {@code withTransfers} and {@code kernelOnly} the task graph
 * on each {@code @Param} device ({@link Plan}), copying in and out every execution or with the
 * inputs resident and the output left on the device. The JMH options of {@link Timed} hold for
 * every workload.
 */
@State(Scope.Benchmark)
public abstract class DeviceBenchmarks extends Timed {
  /** The workload of the running benchmark. */
  WorkloadData data;

  /** Called by the subclass's {@code @Setup} with its data. */
  protected void use(WorkloadData d) {
    data = d;
  }

  /**
   * The device plan of the running benchmark method, opened by its first execution — in JMH's
   * warm-up, and checked against plain Java there ({@link DevicePlan#open}) — because one state class
   * serves every workload: JMH cannot hand a shared {@code @Setup} each workload's own data type.
   */
  @State(Scope.Benchmark)
  public static class Plan extends DevicePlan {
    private boolean opened;

    /** One execution with {@code transfers}; the first opens and checks the plan. */
    ExecutionResult execute(Workload w, Transfers transfers) {
      return once(() -> open(w, transfers));
    }

    /** The first execution of a plan not yet run (JIT, driver compile, copies, kernel): checked after it ({@link DevicePlan#close}). */
    ExecutionResult first(Workload w) {
      return once(() -> openCold(w));
    }

    private ExecutionResult once(Runnable open) {
      if (!opened) {
        open.run();
        opened = true;
      }
      return execute();
    }
  }

  /** The baseline: the plain Java loop, called directly. */
  @Benchmark
  public FloatArray jvm() {
    data.sequential();
    return data.output;
  }

  @Benchmark
  public ExecutionResult withTransfers(Plan p) {
    return p.execute(data, Transfers.EVERY_EXECUTION);
  }

  @Benchmark
  public ExecutionResult kernelOnly(Plan p) {
    return p.execute(data, Transfers.RESIDENT);
  }

  /** The workloads compared with every other way to run them: parallel streams, the Vector API, Aparapi, and a fresh process's first call. */
  public abstract static class Compared extends DeviceBenchmarks {
    /** Plain Java on every core: the same loop as a parallel stream ({@link Baselines}). */
    @Benchmark
    public FloatArray parallelStreams() {
      data.parallelStreams();
      return data.output;
    }

    /** Plain Java on one core with SIMD: the Vector API by hand ({@link VectorBaselines}). */
    @Benchmark
    public FloatArray vectorApi() {
      data.vectorApi();
      return data.output;
    }

    /** Aparapi 3.0.2, the same loop written its way, inputs resident on its OpenCL device ({@link AparapiPeer}). */
    @Benchmark
    public Object aparapi() {
      return data.aparapi.run();
    }

    /** A fresh process's first execution: JIT, driver compile, copies and kernel; one fork per sample. */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @Warmup(iterations = 0)
    @Measurement(iterations = 1)
    @Fork(value = 5, jvmArgsAppend = {DevicePlan.NATIVE_ACCESS, DevicePlan.VECTOR})
    public ExecutionResult firstCall(Plan p) {
      return p.first(data);
    }
  }
}
