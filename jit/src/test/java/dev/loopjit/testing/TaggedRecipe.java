// A recipe whose code is another recipe's with a comment in front: code new to every cache, for cache tests.
package dev.loopjit.testing;

import dev.loopjit.api.Device;
import dev.loopjit.ir.Target;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.spi.DeviceCode;
import dev.loopjit.spi.Options;
import dev.loopjit.spi.Recipe;
import dev.loopjit.spi.TaskSpec;
import java.util.UUID;

/** {@code base}'s code with {@code "// <random UUID>"} as its first line, so that no cache has seen it. */
public record TaggedRecipe(Recipe base, String tag) implements Recipe {
  /** {@code base} with a fresh random tag. */
  public static TaggedRecipe fresh(Recipe base) {
    return new TaggedRecipe(base, "// " + UUID.randomUUID() + "\n");
  }

  @Override public String language() { return base.language(); }
  @Override public String displayName() { return base.displayName(); }
  @Override public Target target(Device device, String variant, Options options) { return base.target(device, variant, options); }

  @Override
  public DeviceCode generate(TaskSpec task, Target target, Options options) {
    DeviceCode c = base.generate(task, target, options);
    return DeviceCode.text(c.ir(), c.language(), tag + c.text());
  }

  @Override
  public DeviceCode emit(KernelIR ir, Target target) {
    DeviceCode c = base.emit(ir, target);
    return DeviceCode.text(c.ir(), c.language(), tag + c.text());
  }
}
