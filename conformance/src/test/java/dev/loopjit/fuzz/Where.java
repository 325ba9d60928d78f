// Where the fuzzer runs a kernel: a device, and for an OpenCL device the program it builds (OpenCL C or SPIR-V).
package dev.loopjit.fuzz;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.api.ExecutionPlan;
import java.util.ArrayList;
import java.util.List;

/**
 * One place a kernel is compared with the jvm. An OpenCL device runs the kernel built from OpenCL C
 * (the default form, or whatever {@code loopjit.opencl.program} says) and, when asked, again built
 * from SPIR-V ({@code opencl:0+spirv}: the plan's {@code opencl.program=spirv}, through the
 * llvm-spirv bridge where the driver takes no IL, as docs/guide/spirv.md says).
 *
 * @param device the device
 * @param spirv  whether this run builds the kernel from SPIR-V for this plan
 */
record Where(Device device, boolean spirv) {
  private static final String SPIRV = "+spirv";

  /** Every one of {@code devices}, and with {@code spirv} each OpenCL device a second time, built from SPIR-V. */
  static List<Where> of(List<Device> devices, boolean spirv) {
    List<Where> all = new ArrayList<>();
    for (Device d : devices) {
      all.add(new Where(d, false));
      if (spirv && d.backend().equals("opencl")) all.add(new Where(d, true));
    }
    return List.copyOf(all);
  }

  /** The place an {@link #id()} names. */
  static Where parse(String id) {
    boolean spirv = id.endsWith(SPIRV);
    return new Where(Devices.get(spirv ? id.substring(0, id.length() - SPIRV.length()) : id), spirv);
  }

  /** The device's id, with {@code +spirv} for a SPIR-V run. */
  String id() {
    return device.id() + (spirv ? SPIRV : "");
  }

  /** Points {@code plan} here. */
  void apply(ExecutionPlan plan) {
    plan.withDevice(device);
    if (spirv) plan.withSetting("opencl.program", "spirv").withSetting("spirv.bridge", "llvm-spirv");
  }
}
