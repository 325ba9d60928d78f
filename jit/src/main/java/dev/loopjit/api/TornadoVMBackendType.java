// TornadoVM's backend names, for ExecutionPlan.withCompilerFlags(backend, flags): which devices a plan's flags are for.
package dev.loopjit.api;

/**
 * The kind of code a device runs, as TornadoVM names it, for
 * {@link ExecutionPlan#withCompilerFlags(TornadoVMBackendType, String)}: flags given for one apply
 * only when the plan runs on a device of it.
 */
public enum TornadoVMBackendType {
  /** {@code opencl:N} devices building from OpenCL C (the default). */
  OpenCL,
  /** {@code cuda:N} devices. */
  PTX,
  /** {@code opencl:N} devices building from SPIR-V (the plan's setting {@code opencl.program} is {@code spirv}). */
  SPIRV,
  /** {@code jvm} and {@code jvm-mt}: the kernels as Java bytecode. */
  JAVA,
  /** TornadoVM's simulated device; no LoopJIT device is of it, so its flags never apply. */
  VIRTUAL;

  /** The kind of code {@code device} runs under a plan whose own {@code opencl.program} setting is {@code program} (may be null). */
  static TornadoVMBackendType of(Device device, String program) {
    return switch (device.backend()) {
      case "cuda" -> PTX;
      case "opencl" -> "spirv".equals(program) ? SPIRV : OpenCL;
      default -> JAVA;
    };
  }
}
