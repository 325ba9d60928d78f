// TornadoVM's list of a prebuilt task's arguments, each with how the kernel uses it.
package dev.loopjit.api;

import java.util.Objects;

/**
 * The arguments of a prebuilt task written as TornadoVM's programs write them:
 * {@code set(i, array, Access.READ_ONLY)} for each of the entry point's parameters, then
 * {@link TaskGraph#prebuiltTask(String, String, String, AccessorParameters)}.
 */
public class AccessorParameters {
  /** One argument and how the kernel uses it. */
  public record PairAccessor(Object object, Access access) {}

  private final PairAccessor[] accessors;

  /** Room for {@code numParameters} arguments, each to be {@link #set}. */
  public AccessorParameters(int numParameters) {
    if (numParameters < 0) throw new IllegalArgumentException("a negative number of parameters: " + numParameters);
    accessors = new PairAccessor[numParameters];
  }

  /** Argument {@code index} is {@code object}, used by the kernel as {@code access}. */
  public void set(int index, Object object, Access access) {
    Objects.checkIndex(index, accessors.length);
    accessors[index] = new PairAccessor(object, Objects.requireNonNull(access, "access"));
  }

  /** How many arguments there are. */
  public int numAccessors() {
    return accessors.length;
  }

  /** Argument {@code index} (null until set). */
  public PairAccessor getAccessor(int index) {
    return accessors[index];
  }
}
