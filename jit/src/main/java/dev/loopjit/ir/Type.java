// The types of the IR: a primitive, or an array in some memory space.
package dev.loopjit.ir;

/** A value's type: a {@link Prim} or an {@link ArrayType}. */
public sealed interface Type permits Prim, ArrayType {}
