// What the group-mode code of a kernel with barriers calls: the work-items of a group must agree on the way around a barrier.
package dev.loopjit.backend.jvmmt;

/** Support for {@link Fission}'s group mode. */
final class Barriers {
  private Barriers() {}

  /**
   * The code every work-item still running left ({@code 0}: it ran to the region's end; {@code k}:
   * the k-th jump out of it; for a condition, 2 true and 1 false), or {@code -1} when every
   * work-item has returned. Work-items that disagree went different ways around a barrier, which
   * OpenCL leaves undefined and this device refuses.
   */
  static int agree(int[] codes, boolean[] done, int items) {
    int common = -1;
    for (int i = 0; i < items; i++) {
      if (done[i]) continue;
      if (common == -1) common = codes[i];
      else if (codes[i] != common)
        throw new IllegalStateException("work-items " + first(codes, done, common) + " and " + i + " of a work-group took different ways"
            + " around a barrier (a barrier must be reached by every work-item of the group or by none)");
    }
    return common;
  }

  private static int first(int[] codes, boolean[] done, int common) {
    for (int i = 0; i < codes.length; i++) if (!done[i] && codes[i] == common) return i;
    return 0;
  }
}
