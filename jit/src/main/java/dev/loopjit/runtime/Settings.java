// The one table of LoopJIT settings: each a -Dloopjit.* system property or a LOOPJIT_* environment variable.
package dev.loopjit.runtime;

import dev.loopjit.spi.Options;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Every setting, read here and nowhere else. A system property wins over the environment
 * variable. Read on each use, so a test may change a property between plans.
 *
 * <table>
 * <tr><th>property</th><th>environment</th><th>meaning</th></tr>
 * <tr><td>loopjit.device</td><td>LOOPJIT_DEVICE</td><td>device {@code Devices.best()} returns, e.g. {@code opencl:0}</td></tr>
 * <tr><td>loopjit.backends</td><td>LOOPJIT_BACKENDS</td><td>comma list of backends to load (default: all found)</td></tr>
 * <tr><td>loopjit.dump</td><td>LOOPJIT_DUMP</td><td>comma list of what to print as kernels compile: {@code ir}, a pass name, {@code opencl}, {@code ptx}, {@code spirv}, {@code all}</td></tr>
 * <tr><td>loopjit.fastMath</td><td>LOOPJIT_FAST_MATH</td><td>{@code true}: relax strict Java float semantics (FMA contraction, fast math functions)</td></tr>
 * <tr><td>loopjit.cacheDir</td><td>LOOPJIT_CACHE_DIR</td><td>on-disk kernel cache (default {@code ~/.cache/loopjit}); {@code off} disables it</td></tr>
 * <tr><td>loopjit.opencl.library</td><td>LOOPJIT_OPENCL_LIBRARY</td><td>the OpenCL ICD loader (default {@code libOpenCL.so.1})</td></tr>
 * <tr><td>loopjit.cuda.library</td><td>LOOPJIT_CUDA_LIBRARY</td><td>the CUDA driver (default {@code libcuda.so.1}; {@code java:ClassName}: a driver written in Java)</td></tr>
 * <tr><td>loopjit.opencl.program</td><td>LOOPJIT_OPENCL_PROGRAM</td><td>what OpenCL devices build: {@code source} (OpenCL C, the default) or {@code spirv} (SPIR-V, through clCreateProgramWithIL)</td></tr>
 * <tr><td>loopjit.spirv.bridge</td><td>LOOPJIT_SPIRV_BRIDGE</td><td>{@code llvm-spirv}: with {@code opencl.program=spirv}, a device without IL support but with {@code cl_khr_spir} gets the SPIR-V translated to SPIR bitcode by llvm-spirv-15</td></tr>
 * <tr><td>loopjit.requireDevices</td><td>LOOPJIT_REQUIRE_DEVICES</td><td>tests: backends whose devices must exist (a kernel check fails rather than pass on the jvm alone)</td></tr>
 * <tr><td>loopjit.requireSignalChaining</td><td>LOOPJIT_REQUIRE_SIGNAL_CHAINING</td><td>{@code true}: refuse to load OpenCL drivers in a JVM without {@code libjsig.so} preloaded (default: warn once)</td></tr>
 * <tr><td>loopjit.boundsChecks</td><td>LOOPJIT_BOUNDS_CHECKS</td><td>{@code false}: compiled kernels do not check array indices (an out-of-bounds index then touches other memory, as in C); default {@code true}: the first out-of-bounds access ends the execution with {@code KernelIndexOutOfBoundsException}</td></tr>
 * <tr><td>loopjit.signedIndices</td><td>LOOPJIT_SIGNED_INDICES</td><td>{@code false}: kernels proven in range at launch keep Java's wrap-around index arithmetic; default {@code true}: their proven indices are computed as plain signed int, which device compilers vectorise better</td></tr>
 * <tr><td>loopjit.lanes</td><td>LOOPJIT_LANES</td><td>CPU OpenCL devices: iterations of the innermost {@code @Parallel} dimension one work-item computes side by side, where the kernel allows it (a power of two up to 64; default 16; {@code 1}: one iteration per work-item)</td></tr>
 * <tr><td>loopjit.vectorLanes</td><td>LOOPJIT_VECTOR_LANES</td><td>{@code false}: jvm-mt keeps float lane iterations scalar; default {@code true}: where the JVM has the Vector API ({@code --add-modules jdk.incubator.vector}), it runs them as vectors</td></tr>
 * <tr><td>loopjit.jvm.asWritten</td><td>LOOPJIT_JVM_AS_WRITTEN</td><td>{@code true}: the {@code jvm} device runs a kernel's Java method as written even where the compiled devices refuse it (what a plan's fallback does); default: it refuses what they refuse</td></tr>
 * <tr><td>loopjit.reduceReset</td><td>LOOPJIT_REDUCE_RESET</td><td>{@code true}: TornadoVM's reductions: each {@code @Reduce} element a kernel updates is set to its operator's neutral element before every execution (default: it starts from the array's value, as Java's loop does)</td></tr>
 * <tr><td>loopjit.printSchedule</td><td>LOOPJIT_PRINT_SCHEDULE</td><td>{@code true}: every plan prints each step of its executions, headed by its device (as {@code withPrintSchedule()})</td></tr>
 * <tr><td>GRAPH.TASK.device</td><td></td><td>TornadoVM's property: the device of one task, {@code B:D} (backend B's device D, as {@code TornadoRuntime} numbers them) or a LoopJIT id ({@code opencl:0}); a plan's {@code withDevice("graph.task", d)} wins</td></tr>
 * <tr><td>tornado.concurrent.devices</td><td></td><td>TornadoVM's property: {@code True} makes every plan over several devices run them concurrently (as {@code withConcurrentDevices()})</td></tr>
 * <tr><td>loopjit.probe</td><td>LOOPJIT_PROBE</td><td>{@code off}: never measure a device's limits for {@code Profile} (cached ones are still used); default: measure once per device</td></tr>
 * </table>
 */
public final class Settings {
  /** Every setting's key; {@link #options()} reads these, plus any other {@code -Dloopjit.*} property. */
  static final List<String> KEYS = List.of("device", "backends", "dump", "fastMath", "cacheDir", "opencl.library",
      "cuda.library", "opencl.program", "spirv.bridge", "requireDevices", "verifyIr", "timeout", "requireSignalChaining", "probe", "boundsChecks", "lanes", "signedIndices",
      "vectorLanes", "jvm.asWritten", "printSchedule", "reduceReset");

  private Settings() {}

  /** Every setting as it is now, for the backends and the compiler: the edge reads the environment, nothing below it does. */
  public static Options options() {
    Map<String, String> m = new HashMap<>();
    for (String k : KEYS) {
      String v = get(k);
      if (v != null) m.put(k, v);
    }
    for (String p : System.getProperties().stringPropertyNames())
      if (p.startsWith("loopjit.") && !m.containsKey(p.substring(8))) {
        String v = get(p.substring(8));
        if (v != null) m.put(p.substring(8), v);
      }
    return new Options(m);
  }

  /** The raw value of a setting, or null. {@code name} is the part after {@code loopjit.}. */
  public static String get(String name) {
    String v = System.getProperty("loopjit." + name);
    if (v == null) v = System.getenv("LOOPJIT_" + name.replaceAll("([a-z])([A-Z])", "$1_$2").replace('.', '_').toUpperCase(Locale.ROOT));
    return v == null || v.isBlank() ? null : v.trim();
  }

  /**
   * TornadoVM's {@code -Dgraph.task.device=B:D} for task {@code "graph.task"}: the property's
   * value ({@code "0:1"} or a device id), or null.
   */
  public static String taskDevice(String task) {
    String v = System.getProperty(task + ".device");
    return v == null || v.isBlank() ? null : v.trim();
  }

  /** TornadoVM's {@code -Dtornado.concurrent.devices=True} (its {@code --enableConcurrentDevices}): plans over several devices run them concurrently. */
  public static boolean tornadoConcurrentDevices() {
    return Boolean.parseBoolean(System.getProperty("tornado.concurrent.devices", "false").trim());
  }

  /** The forced device id, or null. */
  public static String device() {
    return get("device");
  }

  /** Backends to load, or null for all. */
  public static List<String> backends() {
    String v = get("backends");
    return v == null ? null : Arrays.stream(v.split(",")).map(String::trim).toList();
  }
}
