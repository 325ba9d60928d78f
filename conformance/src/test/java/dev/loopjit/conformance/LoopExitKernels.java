// Conformance kernels for loops left in more than one place: do-while with a break, breaks in a switch arm.
package dev.loopjit.conformance;

import dev.loopjit.api.Parallel;

/**
 * Loops with several exits, checked against the jvm by {@link LoopExitKernelsTest}. Each was
 * miscompiled or refused once (issue 12): the do-while's jump back to its body from its own
 * condition was emitted as a {@code continue} that ran the condition again (a PTX kernel that never
 * ended, OpenCL C that did not build), and loops whose exits all reach a switch's end were refused.
 */
public final class LoopExitKernels {
  private LoopExitKernels() {}

  /** The kernel: a do-while with a break out of its body. */
  public static void doWhileWithBreak(int[] a, int[] o) {
    for (@Parallel int i = 0; i < o.length; i++) {
      int s = 0, u = 5;
      do {
        u--;
        if (a[i] > 100) break;
        s += u;
      } while (u > 0);
      o[i] = s;
    }
  }

  /** A do-while with a break and a continue, and statements after it in the same iteration. */
  public static void doWhileBreakContinue(int[] a, int[] o) {
    for (@Parallel int i = 0; i < o.length; i++) {
      int s = a[i], n = 0;
      do {
        n++;
        if ((s & 7) == 3) break;
        if ((s & 1) == 0) {
          s >>= 1;
          continue;
        }
        s = 3 * s + 1;
      } while (n < 40 && s != 1);
      o[i] = s * 100 + n;
    }
  }

  /** Nested do-whiles, the inner one leaving both loops with a labelled break. */
  public static void nestedDoWhileLabelledBreak(int[] a, int[] o) {
    for (@Parallel int i = 0; i < o.length; i++) {
      int s = 0, x = 0;
      outer:
      do {
        int y = 0;
        do {
          s += a[i] ^ (x * 7 + y);
          if (s > 1000) break outer;
          if (s < -1000) break;
          y++;
        } while (y < 4);
        x++;
      } while (x < 4);
      o[i] = s;
    }
  }

  /** Issue 7: a while loop with two breaks, the last statement of a switch arm. */
  public static void whileTwoBreaksInSwitchArm(int[] a, int[] o) {
    for (@Parallel int i = 0; i < o.length; i++) {
      int s = 0;
      switch (a[i] & 3) {
        case 0:
          int k = 0;
          while (k < 10) {
            if (a[i] > 50) break;
            k++;
            if (k == a[i]) break;
            s += k;
          }
          break;
        case 1:
          s = -1;
          break;
        default:
          s = 7;
      }
      o[i] = s;
    }
  }

  /** An endless loop left by two breaks, the last statement of the parallel loop's body. */
  public static void foreverWithTwoBreaks(int[] a, int[] o) {
    for (@Parallel int i = 0; i < o.length; i++) {
      int k = 0, s = 0;
      for (;;) {
        s += k * a[i];
        if (s > 500) break;
        k++;
        if (k > 20) break;
      }
      o[i] = s;
    }
  }

  /** A do-while inside a switch arm: its break and its condition both lead to the switch's end. */
  public static void doWhileInSwitchArm(int[] a, int[] o) {
    for (@Parallel int i = 0; i < o.length; i++) {
      int s = 1, u = 6;
      switch (a[i] % 3) {
        case 0 -> {
          do {
            u--;
            if (s > a[i]) break;
            s *= 3;
          } while (u > 0);
        }
        case 1 -> s = 2;
        default -> {
          do {
            s += u;
            if (s == 13) s = 0;
          } while (--u > 0);
        }
      }
      o[i] = s + u * 1000;
    }
  }

  /**
   * Fuzzer seed 300566: a do-while whose break has no statement before it, followed by more code.
   * The empty block javac makes for that break was taken for the loop's end, the real end was
   * structured again inside the loop, copying the parallel loop's increment into it, and the
   * kernel was refused ("the @Parallel variable 'i' is assigned inside its loop").
   */
  public static void doWhileBreakingAtOnce(double[] d, int[] o) {
    for (@Parallel int i = 0; i < o.length; i++) {
      int k = 0, s = 0;
      do {
        if (d[i] > 10) break;
        s += k;
      } while (++k < 4 && d[i] < 0.5 * k);
      for (int j = 0; j < 3; j++) s += j * k;
      o[i] = s;
    }
  }

  /**
   * Fuzzer seed 300566, the whole kernel: a do-while whose first statement is an if that does some
   * work and breaks. The structurer took the header's exit (that break) for the loop's end, not the
   * test's; the code after the loop was copied into it, with the parallel loop's increment, and refused.
   */
  public static void doWhileBreakingFromItsFirstIf(int[] a, int[] o) {
    for (@Parallel int i = 0; i < o.length; i++) {
      int k = 0, s = a[i], t = 0;
      do {
        if (s % 5 == 0) {
          t = s * 3;
          s++;
          break;
        }
        s += 7;
      } while (++k < 4 && s < 100);
      for (int j = 0; j < 2; j++) t += j + s;
      o[i] = t * 1000 + s;
    }
  }

  /**
   * Fuzzer seed 502171: a loop in a switch arm, with a case of an inner switch falling through into
   * a {@code break} of the outer switch. Every way out of the loop leaves the outer switch too; the
   * loop was refused ("a loop with several exits").
   */
  public static void loopLeavingItsSwitchFromACase(int[] a, int[] o) {
    for (@Parallel int i = 0; i < o.length; i++) {
      int s = a[i];
      outer:
      switch (s & 3) {
        case 1: {
          for (int k = 2; k > 0 && s != 7; k--) {
            switch (s % 3) {
              case 0:
                if (s > 3) s += 5;
              case -1:
                s *= 3;
                break outer;
              case 1:
                s--;
            }
            s ^= k;
          }
        }
      }
      o[i] = s;
    }
  }
}
