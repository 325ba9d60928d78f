// Profiles added up: the parts of one execution that ran as several (devices, segments, copies).
package dev.loopjit.runtime;

import dev.loopjit.api.Profile;
import java.util.ArrayList;
import java.util.List;

/** Sums of {@link Profile}s. */
final class Profiles {
  private Profiles() {}

  /** Nothing done. */
  static final Profile EMPTY = new Profile(0, 0, 0, 0, 0, 0, 0, 0, List.of());

  /** {@code a} then {@code b}: times, bytes, device memory and kernels compiled added, the tasks of both in order. */
  static Profile plus(Profile a, Profile b) {
    if (b == EMPTY) return a;
    if (a == EMPTY) return b;
    List<Profile.TaskTime> tasks = new ArrayList<>(a.tasks());
    tasks.addAll(b.tasks());
    return new Profile(a.compileNanos() + b.compileNanos(), a.driverCompileNanos() + b.driverCompileNanos(), a.kernelNanos() + b.kernelNanos(),
        a.copyInNanos() + b.copyInNanos(), a.copyOutNanos() + b.copyOutNanos(), a.bytesIn() + b.bytesIn(), a.bytesOut() + b.bytesOut(),
        a.kernelsCompiled() + b.kernelsCompiled(), tasks, a.copyDispatchNanos() + b.copyDispatchNanos(),
        a.kernelDispatchNanos() + b.kernelDispatchNanos(), a.deviceMemoryBytes() + b.deviceMemoryBytes());
  }
}
