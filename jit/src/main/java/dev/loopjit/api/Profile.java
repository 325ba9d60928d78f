// What one execute() cost: JIT and driver compile time, copies, kernel times and bytes moved; per kernel, how well it used the device.
package dev.loopjit.api;

import java.util.List;

/**
 * The cost of one {@link ExecutionPlan#execute()}. Times are nanoseconds. Kernel and copy times
 * come from device events (the wall time of the call on the {@code jvm} device) and are measured
 * only when the plan was made {@link ExecutionPlan#withProfiler() withProfiler()}; the other fields
 * are always filled.
 *
 * <p>With the profiler each task also says how well it used the device: its {@link Work} (bytes
 * its loads and stores of global arrays touch and its floating-point operations, counted from the
 * lowered kernel: exact for straight-line code and counted loops, else marked estimated), the
 * achieved GB/s and GFLOP/s, and their share of the device's {@link Limits} (copy bandwidth and
 * multiply-add rate, measured once per device by small built-in probe kernels and cached under the
 * kernel cache directory; {@code -Dloopjit.probe=off} never measures, and then only cached limits
 * are shown).
 *
 * <pre>{@code
 * Profile p = plan.withProfiler().execute().profile();
 * System.out.println(p);                        // a small table, with GB/s and GFLOP/s per kernel
 * assert p.kernelsCompiled() == 0;              // second run: every kernel came from a cache
 * double share = p.tasks().getFirst().bandwidthShare();   // 0.61: 61 % of the measured copy bandwidth
 * }</pre>
 *
 * @param compileNanos       time in the JIT (bytecode to device code), this execution
 * @param driverCompileNanos time in the driver building device code (OpenCL build, PTX load)
 * @param kernelNanos        sum of the kernels' times
 * @param copyInNanos        host-to-device copies
 * @param copyOutNanos       device-to-host copies
 * @param bytesIn            bytes copied host to device
 * @param bytesOut           bytes copied device to host
 * @param kernelsCompiled    programs this execution had to build (every variant of a kernel with
 *                           {@code withPreCompilation}); 0 when all came from a cache
 * @param tasks              per task: its name and kernel time
 * @param copyDispatchNanos  host time in the calls that hand copies to the driver (on the {@code jvm}
 *                           devices, which copy in the call, the copies themselves); under the profiler
 * @param kernelDispatchNanos host time in the calls that hand launches to the driver (on the
 *                           {@code jvm} devices, which run kernels in the call, the kernels); under the profiler
 * @param deviceMemoryBytes  the plan's device memory when the execution ended (its buffers; arrays used
 *                           in place count nothing); under the profiler
 */
public record Profile(long compileNanos, long driverCompileNanos, long kernelNanos, long copyInNanos,
    long copyOutNanos, long bytesIn, long bytesOut, int kernelsCompiled, List<TaskTime> tasks, long copyDispatchNanos,
    long kernelDispatchNanos, long deviceMemoryBytes) implements TornadoProfilerResult {

  /**
   * Kernel time of one task, {@code "graph.task"}, with (under the profiler) the work it did and
   * the device's limits; {@code work} and {@code limits} are null when not known (a prebuilt kernel,
   * a device not yet probed with probing off). {@code variant} names which of its kernel's variants
   * ran and how many it has ({@code "unchecked, lanes 16 × 8 (3 of 4)"}: docs/guide/how-it-works.md),
   * empty where the kernel has one.
   */
  public record TaskTime(String task, long kernelNanos, Work work, Limits limits, String variant) {
    public TaskTime {
      variant = variant == null ? "" : variant;
    }

    /** A task's time alone. */
    public TaskTime(String task, long kernelNanos) {
      this(task, kernelNanos, null, null, "");
    }

    /** A task's time and work, on a device with one code per kernel. */
    public TaskTime(String task, long kernelNanos, Work work, Limits limits) {
      this(task, kernelNanos, work, limits, "");
    }

    /** Bytes read and written per second, in GB/s (10^9), or NaN when not known. */
    public double gigabytesPerSecond() {
      return work == null || kernelNanos <= 0 ? Double.NaN : work.bytes() / kernelNanos;
    }

    /** Floating-point operations per second, in GFLOP/s, or NaN when not known. */
    public double gigaflopsPerSecond() {
      return work == null || kernelNanos <= 0 ? Double.NaN : work.flops() / kernelNanos;
    }

    /** {@link #gigabytesPerSecond()} as a share of the device's measured copy bandwidth (0.5 = half), or NaN. */
    public double bandwidthShare() {
      return limits == null ? Double.NaN : gigabytesPerSecond() / limits.copyGigabytesPerSecond();
    }

    /** {@link #gigaflopsPerSecond()} as a share of the device's measured multiply-add rate, or NaN. */
    public double computeShare() {
      return limits == null ? Double.NaN : gigaflopsPerSecond() / limits.gigaflopsPerSecond();
    }
  }

  /**
   * What one launch of a kernel did, counted from its lowered code for the launch's arguments:
   * bytes its loads and stores (and atomics) of global arrays touch, and floating-point operations
   * ({@code float}/{@code double} {@code + - * / %} one each, {@code Math.fma} two, {@code sqrt},
   * {@code exp} and the other Math functions one each). These are the accesses the code makes,
   * not DRAM traffic: caches may serve repeated reads.
   *
   * @param bytesRead    bytes read
   * @param bytesWritten bytes written
   * @param flops        floating-point operations
   * @param workItems    work-items counted (the loop iterations, or the explicit grid)
   * @param estimate     null when the count is exact, else why it is estimated (a branch on data, a
   *                     loop whose trip count the host cannot tell, …)
   */
  public record Work(double bytesRead, double bytesWritten, double flops, long workItems, String estimate) {
    /** Bytes read plus bytes written. */
    public double bytes() {
      return bytesRead + bytesWritten;
    }

    /** Whether the counts are exact. */
    public boolean exact() {
      return estimate == null;
    }

    /** Floating-point operations per byte moved. */
    public double intensity() {
      return bytes() == 0 ? Double.NaN : flops / bytes();
    }
  }

  /**
   * What a device was measured to do by LoopJIT's probe kernels: a copy kernel's bytes read plus
   * written per second, and a multiply-add kernel's floating-point operations per second
   * ({@code float}, eight independent chains per work-item, no FMA, as strict Java semantics
   * compile).
   *
   * @param device                  the device's id when measured
   * @param copyGigabytesPerSecond  copy bandwidth, GB/s
   * @param gigaflopsPerSecond      multiply-add rate, GFLOP/s
   * @param measured                when (ISO-8601)
   */
  public record Limits(String device, double copyGigabytesPerSecond, double gigaflopsPerSecond, String measured) {
    @Override
    public String toString() {
      return String.format("copy %.1f GB/s, multiply-add %.1f GFLOP/s (measured %s)", copyGigabytesPerSecond, gigaflopsPerSecond, measured);
    }
  }

  public Profile {
    tasks = List.copyOf(tasks);
  }

  /** A profile without dispatch times or device memory (the fields of the first versions). */
  public Profile(long compileNanos, long driverCompileNanos, long kernelNanos, long copyInNanos, long copyOutNanos, long bytesIn,
      long bytesOut, int kernelsCompiled, List<TaskTime> tasks) {
    this(compileNanos, driverCompileNanos, kernelNanos, copyInNanos, copyOutNanos, bytesIn, bytesOut, kernelsCompiled, tasks, 0, 0, 0);
  }

  /** The device's measured limits, when a task carries them; else null. */
  public Limits limits() {
    for (TaskTime t : tasks) if (t.limits() != null) return t.limits();
    return null;
  }

  /** Sum of everything measured. */
  public long totalNanos() {
    return compileNanos + driverCompileNanos + kernelNanos + copyInNanos + copyOutNanos;
  }

  // ---- TornadoVM's profiler names (TornadoProfilerResult), in nanoseconds, for programs written against them ----

  /** {@link #totalNanos()}. */
  public long getTotalTime() {
    return totalNanos();
  }

  /** JIT and driver compilation: {@code compileNanos + driverCompileNanos}. */
  public long getCompileTime() {
    return compileNanos + driverCompileNanos;
  }

  /** {@link #compileNanos()}: bytecode to device code. */
  public long getTornadoCompilerTime() {
    return compileNanos;
  }

  /** {@link #driverCompileNanos()}: the driver building device code. */
  public long getDriverInstallTime() {
    return driverCompileNanos;
  }

  /** Both ways' copies: {@code copyInNanos + copyOutNanos}. */
  public long getDataTransfersTime() {
    return copyInNanos + copyOutNanos;
  }

  /** {@link #copyInNanos()}: host to device. */
  public long getDeviceWriteTime() {
    return copyInNanos;
  }

  /** {@link #copyOutNanos()}: device to host. */
  public long getDeviceReadTime() {
    return copyOutNanos;
  }

  /** {@link #kernelNanos()}. */
  public long getDeviceKernelTime() {
    return kernelNanos;
  }

  /** {@link #copyDispatchNanos()}. */
  @Override
  public long getDataTransferDispatchTime() {
    return copyDispatchNanos;
  }

  /** {@link #kernelDispatchNanos()}. */
  @Override
  public long getKernelDispatchTime() {
    return kernelDispatchNanos;
  }

  /** {@link #deviceMemoryBytes()}. */
  @Override
  public long getTotalDeviceMemoryUsage() {
    return deviceMemoryBytes;
  }

  /** {@link #bytesIn()}. */
  @Override
  public long getTotalBytesCopyIn() {
    return bytesIn;
  }

  /** {@link #bytesOut()}. */
  @Override
  public long getTotalBytesCopyOut() {
    return bytesOut;
  }

  /** The profile as JSON: the times above, the bytes copied, and each task's kernel time, e.g. for a log file. */
  public String getProfileLog() {
    StringBuilder b = new StringBuilder("{\"compileNanos\": ").append(compileNanos).append(", \"driverCompileNanos\": ").append(driverCompileNanos)
        .append(", \"kernelNanos\": ").append(kernelNanos).append(", \"copyInNanos\": ").append(copyInNanos).append(", \"copyOutNanos\": ")
        .append(copyOutNanos).append(", \"bytesIn\": ").append(bytesIn).append(", \"bytesOut\": ").append(bytesOut)
        .append(", \"kernelsCompiled\": ").append(kernelsCompiled).append(", \"tasks\": [");
    for (int i = 0; i < tasks.size(); i++) {
      TaskTime t = tasks.get(i);
      b.append(i == 0 ? "" : ", ").append("{\"task\": \"").append(t.task().replace("\\", "\\\\").replace("\"", "\\\""))
          .append("\", \"kernelNanos\": ").append(t.kernelNanos());
      if (!t.variant().isEmpty()) b.append(", \"variant\": \"").append(t.variant()).append('"');
      b.append('}');
    }
    return b.append("]}").toString();
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    b.append(String.format("compile %s (driver %s, %d kernel(s) compiled)%n", ms(compileNanos), ms(driverCompileNanos), kernelsCompiled));
    b.append(String.format("copy in  %s (%d bytes)%n", ms(copyInNanos), bytesIn));
    b.append(String.format("kernels  %s%n", ms(kernelNanos)));
    for (TaskTime t : tasks) {
      b.append(String.format("  %-30s %s", t.task(), ms(t.kernelNanos())));
      if (!t.variant().isEmpty()) b.append("  [").append(t.variant()).append(']');
      if (t.work() != null && t.kernelNanos() > 0) {
        b.append(String.format("  %8.2f GB/s%s  %8.2f GFLOP/s%s", t.gigabytesPerSecond(), share(t.bandwidthShare()),
            t.gigaflopsPerSecond(), share(t.computeShare())));
        if (!t.work().exact()) b.append("  (estimated: ").append(t.work().estimate()).append(')');
      }
      b.append(String.format("%n"));
    }
    Limits l = limits();
    if (l != null) b.append(String.format("  shares of %s: %s%n", l.device(), l));
    b.append(String.format("copy out %s (%d bytes)", ms(copyOutNanos), bytesOut));
    return b.toString();
  }

  private static String share(double s) {
    return Double.isNaN(s) ? "" : String.format(" (%3.0f%%)", 100 * s);
  }

  private static String ms(long nanos) {
    return String.format("%.3f ms", nanos / 1e6);
  }
}
