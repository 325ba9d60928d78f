// What a build adds to every KernelCheck, found with ServiceLoader: offline checks of each kernel's generated code.
package dev.loopjit.testing;

import java.util.List;

/**
 * Checks every {@link KernelCheck} runs besides comparing devices with the jvm, contributed by
 * whatever is on the test class path. Implementations are found with {@link java.util.ServiceLoader}
 * (a line naming the class in {@code META-INF/services/dev.loopjit.testing.KernelCheckExtension})
 * once, when {@code KernelCheck} is first used. LoopJIT's own build adds one that assembles each
 * kernel's PTX with {@code ptxas} and validates its SPIR-V with {@code spirv-val}; a project could
 * add, say, a check that its kernels compile for a device it does not have.
 *
 * <pre>{@code
 * public final class MyChecks implements KernelCheckExtension {
 *   public List<KernelCheck.OfflineEmitter> offlineEmitters() {
 *     return List.of(new KernelCheck.OfflineEmitter("opencl C", k ->
 *         KernelCode.of(k.kernel(), "opencl").text().contains("double") ? "uses double" : null));
 *   }
 * }
 * }</pre>
 */
public interface KernelCheckExtension {
  /** The offline checks to give every checked kernel; each returns null when it passes, else why. */
  List<KernelCheck.OfflineEmitter> offlineEmitters();
}
