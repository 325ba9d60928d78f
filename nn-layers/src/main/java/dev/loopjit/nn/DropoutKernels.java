// Dropout as @Parallel-loop kernels: a mask drawn on the device from a counter-based integer hash, so every device draws the same mask.
package dev.loopjit.nn;

import dev.loopjit.api.Parallel;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;

/**
 * Dropout over {@code n} elements (a batch, flattened): x, mask, y, dy, dx all (n); {@code step}
 * (1) counts the training steps on the device ({@link #dropoutTick}), so no step number crosses
 * the bus and each step draws a new mask. Element i of step t keeps its value when
 * {@code hash(seed, t, i) >>> 8 ≥ threshold} (24 uniform bits against {@code rate · 2²⁴}), and is
 * then scaled by {@code scale = 1 / (1 - rate)}; integer arithmetic, so the mask is the same bits
 * on every device.
 */
public final class DropoutKernels {
  private DropoutKernels() {}

  /** {@code step[0] += 1}: one work-item, before {@link #dropoutForward} in each step. */
  public static void dropoutTick(IntArray step) {
    step.set(0, step.get(0) + 1);
  }

  /** {@code mask = keep ? scale : 0; y = x · mask}. */
  public static void dropoutForward(FloatArray x, FloatArray mask, FloatArray y, IntArray step, int seed, int threshold, float scale, int n) {
    for (@Parallel int i = 0; i < n; i++) {
      int bits = hash(seed, step.get(0), i) >>> 8;
      float m = bits >= threshold ? scale : 0f;
      mask.set(i, m);
      y.set(i, x.get(i) * m);
    }
  }

  /** {@code dx = dy · mask}. */
  public static void dropoutBackward(FloatArray dy, FloatArray mask, FloatArray dx, int n) {
    for (@Parallel int i = 0; i < n; i++) dx.set(i, dy.get(i) * mask.get(i));
  }

  /** 32 well-mixed bits for element {@code i} of step {@code step}: MurmurHash3's finaliser, twice. Inlined. */
  static int hash(int seed, int step, int i) {
    return mix(i * 0x9E3779B9 + mix(step * 0x85EBCA6B + seed));
  }

  private static int mix(int h) {
    h ^= h >>> 16;
    h *= 0x85EBCA6B;
    h ^= h >>> 13;
    h *= 0xC2B2AE35;
    h ^= h >>> 16;
    return h;
  }
}
