// A kernel of 20 parameter(s), given to TaskGraph.task as a method reference to a static method.
package dev.loopjit.api;

import java.io.Serializable;

/**
 * A task of 20 parameter(s): pass a method reference to a static method, such as
 * {@code Kernels::saxpy}. It is {@link Serializable} so that the JIT can find the method behind
 * the reference (from its {@code SerializedLambda}) and read its bytecode.
 */
@FunctionalInterface
public interface Task20<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15, T16, T17, T18, T19, T20> extends Serializable {
  /** Runs the kernel on the JVM. */
  void apply(T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9, T10 a10, T11 a11, T12 a12, T13 a13, T14 a14, T15 a15, T16 a16, T17 a17, T18 a18, T19 a19, T20 a20);
}
