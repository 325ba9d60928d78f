// TornadoVM's backend names, for ExecutionPlan.withCompilerFlags(backend, flags): which devices a plan's flags are for.
package dev.loopjit.api;

/**
 * The kind of code a device runs, as TornadoVM names it, for
 * {@link ExecutionPlan#withCompilerFlags(TornadoVMBackendType, String)}: flags given for one apply
 * only when the plan runs on a device of it.
 */
public enum TornadoVMBackendType {
  /** {@code opencl:N} devices building from OpenCL C (the default). */
  OPENCL("OpenCL"),
  /** Apple's Metal, TornadoVM's backend for Apple GPUs; no LoopJIT device is of it, so its flags never apply. */
  METAL("Metal"),
  /** {@code cuda:N} devices (LoopJIT compiles PTX for them); what {@link #of} gives a CUDA device. */
  PTX("PTX"),
  /** TornadoVM 6's name for its CUDA backend: flags given for it apply to {@code cuda:N} devices, as {@link #PTX}'s do. */
  CUDA("CUDA"),
  /** {@code opencl:N} devices building from SPIR-V (the plan's setting {@code opencl.program} is {@code spirv}). */
  SPIRV("SPIRV"),
  /** {@code jvm} and {@code jvm-mt}: the kernels as Java bytecode. */
  JAVA("Java"),
  /** TornadoVM's simulated device; no LoopJIT device is of it, so its flags never apply. */
  VIRTUAL("Virtual");

  private final String name;

  TornadoVMBackendType(String name) {
    this.name = name;
  }

  /** TornadoVM's display name: {@code "OpenCL"}, {@code "PTX"}, … */
  public String getName() {
    return name;
  }

  /** The kind of code {@code device} runs under a plan whose own {@code opencl.program} setting is {@code program} (may be null). */
  static TornadoVMBackendType of(Device device, String program) {
    return switch (device.backend()) {
      case "cuda" -> PTX;
      case "opencl" -> "spirv".equals(program) ? SPIRV : OPENCL;
      default -> JAVA;
    };
  }

  /** Whether flags given for this backend apply to a device of {@code kind} (as {@link #of} gives it): the same, or CUDA for PTX. */
  boolean covers(TornadoVMBackendType kind) {
    return this == kind || this == CUDA && kind == PTX;
  }
}
