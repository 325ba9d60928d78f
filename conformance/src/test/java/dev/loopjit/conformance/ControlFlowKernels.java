// Conformance kernels for control flow inside a work-item: if chains, nested loops with early exits, partial stores.
package dev.loopjit.conformance;

import dev.loopjit.api.Parallel;

/** Control-flow kernels, checked against the jvm by {@link ControlFlowKernelsTest}; Java's corner cases are in {@link SemanticsKernels}. */
public final class ControlFlowKernels {
  private ControlFlowKernels() {}

  public static void ifElseChain(int[] a, int[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      int x = a[i], r;
      if (x < -100) r = -2;
      else if (x < 0) r = -1;
      else if (x == 0) r = 0;
      else if (x <= 100) r = x % 2 == 0 ? 2 : 1;
      else r = 3;
      out[i] = r;
    }
  }

  public static void nestedIfs(float[] a, float[] b, int[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      int r = 0;
      if (a[i] > 0f) {
        if (b[i] > 0f) r = 1;
        else if (b[i] < -0.5f) r = 2;
        else r = 3;
      } else {
        if (b[i] > a[i]) {
          r = 4;
          if (b[i] > 0.9f) r += 10;
        }
      }
      out[i] = r;
    }
  }

  /** A sequential search per row that leaves its loop with break. */
  public static void findInRow(int[] table, int[] keys, int[] found, int cols) {
    for (@Parallel int r = 0; r < keys.length; r++) {
      int at = -1;
      for (int c = 0; c < cols; c++) {
        if (table[r * cols + c] == keys[r]) {
          at = c;
          break;
        }
      }
      found[r] = at;
    }
  }

  /** A row sum that skips elements with continue. */
  public static void sumSkipping(int[] a, int[] out, int cols) {
    for (@Parallel int r = 0; r < out.length; r++) {
      int s = 0;
      for (int c = 0; c < cols; c++) {
        int v = a[r * cols + c];
        if (v < 0) continue;
        if (v % 3 == 0) continue;
        s += v;
      }
      out[r] = s;
    }
  }

  /** A for loop with two variables and a compound condition. */
  public static void compoundLoopCondition(int[] a, int[] out) {
    for (@Parallel int i = 0; i < a.length; i++) {
      int k = 0;
      for (int x = a[i]; k < 32 && x != 0 && (x & 1) == 0; k++, x >>= 1) {}
      out[i] = k;
    }
  }

  /** Stores only some elements: the others must come back as they went in. */
  public static void conditionalStore(float[] a, float[] out) {
    for (@Parallel int i = 0; i < a.length; i++) if (a[i] > 0f) out[i] = a[i] * 2f;
  }
}
