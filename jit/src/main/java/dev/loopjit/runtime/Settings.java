// The one table of LoopJIT settings: each a -Dloopjit.* system property or a LOOPJIT_* environment variable.
package dev.loopjit.runtime;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

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
 * </table>
 */
public final class Settings {
  private Settings() {}

  /** The raw value of a setting, or null. {@code name} is the part after {@code loopjit.}. */
  public static String get(String name) {
    String v = System.getProperty("loopjit." + name);
    if (v == null) v = System.getenv("LOOPJIT_" + name.replaceAll("([a-z])([A-Z])", "$1_$2").replace('.', '_').toUpperCase(Locale.ROOT));
    return v == null || v.isBlank() ? null : v.trim();
  }

  private static boolean flag(String name) {
    return Boolean.parseBoolean(get(name));
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

  /** Whether {@code what} (a pass name, {@code ir}, {@code opencl}, {@code ptx}, {@code spirv}) is to be printed. */
  public static boolean dump(String what) {
    String v = get("dump");
    if (v == null) return false;
    for (String s : v.split(",")) if (s.trim().equals(what) || s.trim().equals("all")) return true;
    return false;
  }

  public static boolean fastMath() {
    return flag("fastMath");
  }

  /** The kernel cache directory, or null when disabled. */
  public static Path cacheDir() {
    String v = get("cacheDir");
    if ("off".equals(v)) return null;
    return v != null ? Path.of(v) : Path.of(System.getProperty("user.home"), ".cache", "loopjit");
  }

  public static String openclLibrary() {
    String v = get("opencl.library");
    return v == null ? "libOpenCL.so.1" : v;
  }

  /** {@code "source"} (the default) or {@code "spirv"}: the program form OpenCL devices build. */
  public static String openclProgram() {
    String v = get("opencl.program");
    if (v == null) return "source";
    if (!v.equals("source") && !v.equals("spirv"))
      throw new IllegalArgumentException("loopjit.opencl.program is \"" + v + "\"; use source (OpenCL C) or spirv");
    return v;
  }

  /** The SPIR-V bridge allowed for devices without IL ({@code "llvm-spirv"}), or null for none. */
  public static String spirvBridge() {
    String v = get("spirv.bridge");
    if (v == null || v.equals("off")) return null;
    if (!v.equals("llvm-spirv"))
      throw new IllegalArgumentException("loopjit.spirv.bridge is \"" + v + "\"; use llvm-spirv (SPIR-V to SPIR bitcode with llvm-spirv-15) or off");
    return v;
  }

  public static String cudaLibrary() {
    String v = get("cuda.library");
    return v == null ? "libcuda.so.1" : v;
  }
}
