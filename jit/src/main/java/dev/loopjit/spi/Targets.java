// Compile targets for a device or for no device, from what the device reports and the settings.
package dev.loopjit.spi;

import dev.loopjit.api.Device;
import dev.loopjit.ir.Target;
import dev.loopjit.ir.Intrinsic;
import java.util.Set;

/** The {@link Target}s recipes build: a device's capabilities, or every capability when reading code offline. */
public final class Targets {
  private Targets() {}

  /**
   * The target of {@code language} for {@code device}, or for no device ({@code null}: every
   * capability, a GPU-shaped kernel). {@code natives} are the intrinsics the language computes
   * exactly itself (null: all); the others are compiled from the JDK's own Java code.
   */
  public static Target of(String language, String variant, Device device, boolean int64Atomics, Set<Intrinsic> natives, Options options) {
    if (device == null) {
      Target t = Target.offline(language, variant, natives, options.fastMath());
      return t.withBoundsChecks(t.boundsChecks() && options.boundsChecks()).withReduceReset(options.flag("reduceReset"));
    }
    return Target.of(language).withVariant(variant).withFp64(device.supportsFp64()).withFp16(device.supportsFp16())
        .withInt64Atomics(int64Atomics).withLocalMemoryBytes(device.localMemoryBytes()).withMaxWorkGroupSize(device.maxWorkGroupSize())
        .withFastMath(options.fastMath()).withNatives(natives).withCpu(device.kind() == Device.Kind.CPU).withBoundsChecks(options.boundsChecks())
        .withReduceReset(options.flag("reduceReset"));
  }
}
