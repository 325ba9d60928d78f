// A device that runs task graphs: the JVM itself, an OpenCL device or a CUDA GPU.
package dev.loopjit.api;

/**
 * A device that task graphs run on, as listed by {@link Devices#all()} and
 * {@code scripts/loopjit devices}. Ids are {@code "jvm"}, {@code "jvm-mt"}, {@code "opencl:N"} and {@code "cuda:N"}.
 * Every device is also a {@link TornadoDevice}, with TornadoVM's getters.
 *
 * <pre>{@code
 * Device d = Devices.get("opencl:0");
 * System.out.println(d.name() + ", " + d.computeUnits() + " compute units, fp64=" + d.supportsFp64());
 * }</pre>
 */
public non-sealed interface Device extends TornadoDevice {
  /** What a device is, for {@link Devices#best()} and listings. */
  enum Kind { GPU, CPU, ACCELERATOR, JVM }

  /** Stable id: {@code "jvm"}, {@code "jvm-mt"}, {@code "opencl:N"}, {@code "cuda:N"}. */
  String id();

  /** The driver's name for the device. */
  String name();

  /** The backend that drives it: {@code "jvm"}, {@code "jvm-mt"}, {@code "opencl"} or {@code "cuda"}. */
  String backend();

  /** GPU, CPU, accelerator or the JVM. */
  Kind kind();

  /** Compute units (streaming multiprocessors, cores). */
  int computeUnits();

  /** Global memory in bytes. */
  long memoryBytes();

  /** The largest single array the device allocates, in bytes (OpenCL's {@code CL_DEVICE_MAX_MEM_ALLOC_SIZE}); its memory where the driver sets no smaller limit. */
  default long maxAllocationBytes() {
    return memoryBytes();
  }

  /** Local (shared) memory per work-group in bytes. */
  long localMemoryBytes();

  /** Largest work-group. */
  int maxWorkGroupSize();

  /** Whether kernels may use {@code double}. */
  boolean supportsFp64();

  /** Whether the device has half-precision arithmetic (storage in {@code HalfFloatArray} works everywhere). */
  boolean supportsFp16();

  /**
   * Whether the device builds SPIR-V modules itself (an OpenCL device that lists SPIR-V in
   * {@code CL_DEVICE_IL_VERSION}), so that {@code "opencl:N/spirv"} runs without a bridge.
   */
  default boolean supportsSpirv() {
    return false;
  }

  /** Driver and platform version text. */
  String driverVersion();

  /** One line: id, name, kind, compute units, memory, fp64/fp16. */
  default String describe() {
    return String.format("%-10s %-44s %-4s %4d CU %9s  fp64=%s fp16=%s", id(), name(), kind(), computeUnits(),
        memoryBytes() <= 0 ? "-" : memoryBytes() / (1 << 20) + " MiB", supportsFp64() ? "yes" : "no",
        supportsFp16() ? "yes" : "no");
  }
}
