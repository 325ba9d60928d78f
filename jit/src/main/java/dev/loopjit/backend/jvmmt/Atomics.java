// The atomic operations generated kernels call on the device's Java arrays: atomicAdd and the compare-and-set reductions combine with.
package dev.loopjit.backend.jvmmt;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * {@code ATOMIC_ADD} and {@code ATOMIC_CAS} of the IR on Java arrays, through array-element
 * {@link VarHandle}s (volatile semantics). Floating-point compare-and-set compares bit patterns,
 * as the IR defines it; a float add is Java's float add. An index out of bounds throws
 * {@link ArrayIndexOutOfBoundsException}, as a plain access does.
 */
final class Atomics {
  private static final VarHandle INT = MethodHandles.arrayElementVarHandle(int[].class);
  private static final VarHandle LONG = MethodHandles.arrayElementVarHandle(long[].class);
  private static final VarHandle FLOAT = MethodHandles.arrayElementVarHandle(float[].class);
  private static final VarHandle DOUBLE = MethodHandles.arrayElementVarHandle(double[].class);

  private Atomics() {}

  static int add(int[] a, int i, int v) {
    return (int) INT.getAndAdd(a, i, v);
  }

  static long add(long[] a, int i, long v) {
    return (long) LONG.getAndAdd(a, i, v);
  }

  static float add(float[] a, int i, float v) {
    while (true) {
      float old = (float) FLOAT.getVolatile(a, i);
      if (FLOAT.compareAndSet(a, i, old, old + v)) return old;
    }
  }

  static double add(double[] a, int i, double v) {
    while (true) {
      double old = (double) DOUBLE.getVolatile(a, i);
      if (DOUBLE.compareAndSet(a, i, old, old + v)) return old;
    }
  }

  static int cas(int[] a, int i, int expected, int v) {
    return (int) INT.compareAndExchange(a, i, expected, v);
  }

  static long cas(long[] a, int i, long expected, long v) {
    return (long) LONG.compareAndExchange(a, i, expected, v);
  }

  static float cas(float[] a, int i, float expected, float v) {
    return (float) FLOAT.compareAndExchange(a, i, expected, v);
  }

  static double cas(double[] a, int i, double expected, double v) {
    return (double) DOUBLE.compareAndExchange(a, i, expected, v);
  }
}
