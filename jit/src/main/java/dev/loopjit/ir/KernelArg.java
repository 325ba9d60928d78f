// One argument of a generated device kernel; emitters declare them and runtimes bind them in this order.
package dev.loopjit.ir;

/** A device kernel argument. {@link #var()} is the name the body uses for it. */
public sealed interface KernelArg {
  Var var();

  /** The buffer of array parameter {@code param} (a global pointer). */
  record Array(int param, Var var) implements KernelArg {}

  /** The length (elements, INT) of array parameter {@code param}. */
  record Length(int param, Var var) implements KernelArg {}

  /** The value of primitive parameter {@code param}. */
  record Scalar(int param, Var var) implements KernelArg {}

  /** The trip count (INT) of parallel loop {@code dim} (0 = x), which guards extra work-items. */
  record Count(int dim, Var var) implements KernelArg {}
}
