// The jvm recipe: the target of the jvm-mt device (or none) and the JVM bytecode a task becomes.
package dev.loopjit.backend.jvmmt;

import dev.loopjit.api.Device;
import dev.loopjit.api.KernelCompilationException;
import dev.loopjit.ir.Target;
import dev.loopjit.ir.KernelIR;
import dev.loopjit.spi.DeviceCode;
import dev.loopjit.spi.Options;
import dev.loopjit.spi.Recipe;
import dev.loopjit.spi.Targets;

/**
 * JVM bytecode from {@link BytecodeEmitter}. The target is {@link Target#chunked() chunked} (a
 * work-item runs a chunk of the {@code @Parallel} range as loops), not CPU-shaped (no {@code uniform}
 * pass: the JVM's JIT, not PoCL, vectorises), and every intrinsic is native: Java's own
 * {@link Math} is what defines them. Its variant says whether float lane iterations run as Vector API
 * vectors ({@code vector}, {@link LaneVectors}) or scalar ({@code scalar}).
 */
public final class JvmMtRecipe implements Recipe {
  /** The one instance. */
  public static final JvmMtRecipe INSTANCE = new JvmMtRecipe();

  private JvmMtRecipe() {}

  @Override
  public String language() {
    return "jvm";
  }

  @Override
  public String displayName() {
    return "JVM bytecode";
  }

  /** The variant whose float lanes run as vectors ({@link LaneVectors}); the other is {@code scalar}. */
  static final String VECTOR = "vector";

  /**
   * The target: variant {@code vector} where the JVM has the Vector API and {@code loopjit.vectorLanes}
   * is not false, else {@code scalar}; a variant asked for ({@code "jvm:scalar"}) is taken as it is.
   */
  @Override
  public Target target(Device device, String variant, Options options) {
    String v = !variant.isEmpty() ? variant : options.vectorLanes() && LaneVectors.available() ? VECTOR : "scalar";
    if (!v.equals(VECTOR) && !v.equals("scalar")) throw new IllegalArgumentException("JVM target \"" + v + "\" is neither vector nor scalar");
    if (v.equals(VECTOR) && !LaneVectors.available())
      throw new IllegalArgumentException("JVM target \"vector\" needs the Vector API: run with --add-modules jdk.incubator.vector");
    // JVM bytecode gets Java's own bounds checks (an ArrayIndexOutOfBoundsException the runtime names): no bounds pass
    return Targets.of("jvm", v, device, true, null, options).withBoundsChecks(false);
  }

  @Override
  public DeviceCode emit(KernelIR ir, Target target) {
    byte[] bytes;
    try {
      bytes = BytecodeEmitter.emit(ir, target.variant().equals(VECTOR));
    } catch (IllegalArgumentException e) {
      // the class file format's limits: 64 KiB of code per method, 65535 constants
      throw new KernelCompilationException(ir.source().className(), ir.source().method(), -1, "kernel size",
          ir.source().describe() + ": the kernel is too large for one JVM method (" + e.getMessage() + "); split it into several tasks");
    }
    return DeviceCode.binary(ir, "jvm", Listing.of(ir, bytes), bytes);
  }
}
