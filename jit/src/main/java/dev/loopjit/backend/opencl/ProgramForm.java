// How a kernel reaches an OpenCL device: OpenCL C source, SPIR-V through clCreateProgramWithIL, or SPIR-V bridged to SPIR bitcode.
package dev.loopjit.backend.opencl;

import dev.loopjit.backend.spirv.SpirvBridge;
import dev.loopjit.backend.spirv.SpirvEmitter;
import dev.loopjit.spi.Options;
import java.util.Set;

/**
 * The program form a device builds, chosen from the settings and what the device reports.
 * {@code -Dloopjit.opencl.program=source} (the default) builds OpenCL C. {@code =spirv} builds the
 * SPIR-V module: a device whose CL_DEVICE_IL_VERSION lists SPIR-V takes it through
 * clCreateProgramWithIL ({@link #SPIRV_IL}); a device without IL takes it only when the bridge is
 * allowed ({@code -Dloopjit.spirv.bridge=llvm-spirv}) and it has {@code cl_khr_spir}: the module
 * is translated to SPIR 1.2 bitcode ({@link SpirvBridge}) and built from that
 * ({@link #SPIRV_BRIDGE}). Otherwise asking for SPIR-V is an error that names the device and what
 * it lacks; no form is ever substituted silently.
 */
enum ProgramForm {
  SOURCE("OpenCL C"), SPIRV_IL("SPIR-V"), SPIRV_BRIDGE("SPIR-V via SPIR bitcode");

  /** For messages. */
  final String description;

  ProgramForm(String description) {
    this.description = description;
  }

  /** Whether the device builds the SPIR-V module (in either form). */
  boolean isSpirv() {
    return this != SOURCE;
  }

  /** The form {@code device} builds under {@code options}; throws IllegalStateException when SPIR-V is asked for and the device cannot take it. */
  static ProgramForm of(OpenClDevice device, Options options) {
    String program = options.get("opencl.program", "source");
    if (!program.equals("source") && !program.equals("spirv"))
      throw new IllegalArgumentException("loopjit.opencl.program is \"" + program + "\"; use source (OpenCL C) or spirv");
    String bridge = options.get("spirv.bridge", "off");
    if (!bridge.equals("off") && !bridge.equals("llvm-spirv"))
      throw new IllegalArgumentException("loopjit.spirv.bridge is \"" + bridge + "\"; use llvm-spirv (SPIR-V to SPIR bitcode with llvm-spirv-15) or off");
    if (program.equals("source")) return SOURCE;
    if (spirvVersion(device.ilVersion()) != null) return SPIRV_IL;
    boolean spir = Set.of(device.extensions().split("\\s+")).contains("cl_khr_spir");
    String il = device.ilVersion().isBlank() ? "reports no intermediate language (CL_DEVICE_IL_VERSION is empty)"
        : "takes no SPIR-V (CL_DEVICE_IL_VERSION is \"" + device.ilVersion() + "\")";
    if (bridge.equals("off"))
      throw new IllegalStateException("loopjit.opencl.program=spirv, but " + device + " " + il + "; "
          + (spir ? "it takes SPIR bitcode (cl_khr_spir): allow the bridge with -Dloopjit.spirv.bridge=llvm-spirv (Debian package "
              + SpirvBridge.PACKAGE + "), or " : "") + "build OpenCL C with -Dloopjit.opencl.program=source");
    if (!spir)
      throw new IllegalStateException("loopjit.opencl.program=spirv with the llvm-spirv bridge, but " + device + " " + il
          + " and has no cl_khr_spir for the bridge's SPIR bitcode; build OpenCL C with -Dloopjit.opencl.program=source");
    String missing = SpirvBridge.problem();
    if (missing != null) throw new IllegalStateException("loopjit.spirv.bridge=llvm-spirv for " + device + ": " + missing);
    return SPIRV_BRIDGE;
  }

  /**
   * The SPIR-V version to write for a device: the newest it lists in CL_DEVICE_IL_VERSION (e.g.
   * {@code "SPIR-V_1.0 SPIR-V_1.2"}) up to {@link SpirvEmitter#DEFAULT_VERSION}, or null when it
   * lists none. The bridge's translator reads the default.
   */
  static String spirvVersion(String ilVersion) {
    String best = null;
    for (String il : ilVersion.trim().split("\\s+")) {
      if (!il.matches("SPIR-V_1\\.[0-9]+")) continue;
      String v = il.substring("SPIR-V_".length());
      if (v.compareTo(SpirvEmitter.DEFAULT_VERSION) > 0) v = SpirvEmitter.DEFAULT_VERSION;
      if (best == null || v.compareTo(best) > 0) best = v;
    }
    return best;
  }
}
