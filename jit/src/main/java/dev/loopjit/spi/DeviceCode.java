// A kernel as a device takes it: the lowered IR the runtime binds by, and the code in the target language.
package dev.loopjit.spi;

import dev.loopjit.ir.KernelIR;
import java.util.List;

/**
 * One kernel's code. {@code ir}'s {@code params}, {@code args} and {@code launch} tell the runtime
 * how to bind arguments and size the grid; {@code text} is the code (OpenCL C, PTX, or a readable
 * disassembly of a binary); {@code binary} is the module for binary languages (SPIR-V), else null.
 *
 * @param ir       the lowered kernel
 * @param language the recipe's language
 * @param text     the code as text
 * @param binary   the binary module, or null when {@code text} is what the driver takes
 * @param accesses how the kernel uses each parameter when the IR cannot say (a prebuilt kernel), else null
 */
public record DeviceCode(KernelIR ir, String language, String text, byte[] binary, List<DeviceKernel.Access> accesses) {
  /** Code that is text. */
  public static DeviceCode text(KernelIR ir, String language, String text) {
    return new DeviceCode(ir, language, text, null, null);
  }

  /** Code that is a binary module, with {@code text} its readable form. */
  public static DeviceCode binary(KernelIR ir, String language, String text, byte[] binary) {
    return new DeviceCode(ir, language, text, binary, null);
  }
}
