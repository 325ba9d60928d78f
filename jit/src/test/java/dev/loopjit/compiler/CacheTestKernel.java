// A kernel class that CompileCacheTest loads through a class loader of its own.
package dev.loopjit.compiler;

import dev.loopjit.api.Parallel;

/** Compiled through a class loader of its own in {@link CompileCacheTest}. */
public final class CacheTestKernel {
  private CacheTestKernel() {}

  public static void scale(float[] x, float a) {
    for (@Parallel int i = 0; i < x.length; i++) x[i] = a * x[i];
  }
}
