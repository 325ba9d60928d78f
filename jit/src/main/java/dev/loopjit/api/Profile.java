// What one execute() cost: JIT and driver compile time, copies, kernel times and bytes moved.
package dev.loopjit.api;

import java.util.List;

/**
 * The cost of one {@link ExecutionPlan#execute()}. Times are nanoseconds. Kernel and copy times
 * come from device events (the wall time of the call on the {@code jvm} device) and are measured
 * only when the plan was made {@link ExecutionPlan#withProfiler() withProfiler()}; the other fields
 * are always filled.
 *
 * <pre>{@code
 * Profile p = plan.withProfiler().execute().profile();
 * System.out.println(p);                        // a small table
 * assert p.kernelsCompiled() == 0;              // second run: every kernel came from a cache
 * }</pre>
 *
 * @param compileNanos       time in the JIT (bytecode to device code), this execution
 * @param driverCompileNanos time in the driver building device code (OpenCL build, PTX load)
 * @param kernelNanos        sum of the kernels' times
 * @param copyInNanos        host-to-device copies
 * @param copyOutNanos       device-to-host copies
 * @param bytesIn            bytes copied host to device
 * @param bytesOut           bytes copied device to host
 * @param kernelsCompiled    kernels this execution had to JIT; 0 when all came from a cache
 * @param tasks              per task: its name and kernel time
 */
public record Profile(long compileNanos, long driverCompileNanos, long kernelNanos, long copyInNanos,
    long copyOutNanos, long bytesIn, long bytesOut, int kernelsCompiled, List<TaskTime> tasks) {

  /** Kernel time of one task, {@code "graph.task"}. */
  public record TaskTime(String task, long kernelNanos) {}

  public Profile {
    tasks = List.copyOf(tasks);
  }

  /** Sum of everything measured. */
  public long totalNanos() {
    return compileNanos + driverCompileNanos + kernelNanos + copyInNanos + copyOutNanos;
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    b.append(String.format("compile %s (driver %s, %d kernel(s) compiled)%n", ms(compileNanos), ms(driverCompileNanos), kernelsCompiled));
    b.append(String.format("copy in  %s (%d bytes)%n", ms(copyInNanos), bytesIn));
    b.append(String.format("kernels  %s%n", ms(kernelNanos)));
    for (TaskTime t : tasks) b.append(String.format("  %-30s %s%n", t.task(), ms(t.kernelNanos())));
    b.append(String.format("copy out %s (%d bytes)", ms(copyOutNanos), bytesOut));
    return b.toString();
  }

  private static String ms(long nanos) {
    return String.format("%.3f ms", nanos / 1e6);
  }
}
