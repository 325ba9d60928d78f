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

  /**
   * A work-group (local) array whose length the host computes at launch from {@code length}, an
   * INT expression of the scalar parameters, array lengths, collection shapes and the launch's
   * {@code LOCAL_SIZE}s (as it computes trip counts), so a new size never recompiles: an OpenCL
   * {@code __local} pointer argument set with {@code clSetKernelArg(size, NULL)}, a slice of PTX
   * dynamic shared memory (the parameter holds its byte offset), a SPIR-V {@code Workgroup} pointer.
   */
  record Local(Var var, Expr length) implements KernelArg {}

  /**
   * An INT the host computes at launch from {@code value}, an expression of the task's arguments
   * (a collection's shape, {@code Intrinsic.SHAPE}), passed like a length.
   */
  record Computed(Var var, Expr value) implements KernelArg {}
}
