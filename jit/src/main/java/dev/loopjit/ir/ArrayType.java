// An array in a memory space: a kernel parameter (global), a work-group array (local) or a private one.
package dev.loopjit.ir;

/**
 * An array of {@code element}s in a memory space. Kernel parameters ({@code float[]},
 * {@code FloatArray}, …) are {@link Space#GLOBAL}; {@code KernelContext.allocate*LocalArray} gives
 * {@link Space#LOCAL}; {@code new float[8]} inside a kernel gives {@link Space#PRIVATE} with a
 * constant {@code length}.
 *
 * A LOCAL array whose length is known only at launch ({@code ctx.allocateFloatLocalArray(n)} with
 * {@code n} a parameter) has the length {@link #RUNTIME}; the host computes it from the
 * {@link KernelArg.Local} argument the {@code arguments} pass makes of it. So has a PRIVATE array
 * {@code new float[n]} with n known at launch, until the {@code launchSized} pass gives it a capacity.
 *
 * @param length the constant length of LOCAL and PRIVATE arrays; -1 for GLOBAL ones and for
 *               LOCAL ones sized at run time
 */
public record ArrayType(Prim element, Space space, int length) implements Type {
  /** Where an array lives. */
  public enum Space { GLOBAL, LOCAL, PRIVATE }

  /** The length of a LOCAL array sized at launch. */
  public static final int RUNTIME = -1;

  /** Whether this is a LOCAL array whose length the host gives at launch. */
  public boolean runtimeLength() {
    return space == Space.LOCAL && length < 0;
  }

  /**
   * Whether this is a PRIVATE array sized at launch ({@code new float[n]}, n known at launch): until
   * the pass {@code launchSized} declares it at the target's capacity and writes its length as n.
   */
  public boolean launchSized() {
    return space == Space.PRIVATE && length < 0;
  }

  public static ArrayType global(Prim element) {
    return new ArrayType(element, Space.GLOBAL, -1);
  }

  @Override
  public String toString() {
    return (space == Space.GLOBAL ? "" : space.name().toLowerCase() + " ") + element + "[" + (length < 0 ? "" : length) + "]";
  }
}
