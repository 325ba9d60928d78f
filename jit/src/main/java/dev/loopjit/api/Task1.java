// A kernel of 1 parameter(s), given to TaskGraph.task as a method reference to a static method.
package dev.loopjit.api;

import java.io.Serializable;

/**
 * A task of 1 parameter(s): pass a method reference to a static method, such as
 * {@code Kernels::saxpy}. It is {@link Serializable} so that the JIT can find the method behind
 * the reference (from its {@code SerializedLambda}) and read its bytecode.
 */
@FunctionalInterface
public interface Task1<T1> extends Serializable {
  /** Runs the kernel on the JVM. */
  void apply(T1 a1);
}
