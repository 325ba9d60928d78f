// Runs a KernelContext kernel on the JVM: one call per work-item, real barriers per work-group.
package dev.loopjit.backend.jvm;

import dev.loopjit.spi.Grid;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Phaser;

/**
 * Work-groups run one after another. Inside a group, a kernel that uses barriers gets one
 * virtual thread per work-item, sharing a {@link Phaser}; one without barriers runs its items in
 * a loop (any order is a legal schedule when nothing synchronises). The global size is rounded
 * up to a multiple of the local size, as on a device, so kernels must guard their index.
 */
final class WorkItems {
  private WorkItems() {}

  /** Default local size when the grid gives none: 64 work-items, spread over the dimensions used. */
  static long[] defaultLocal(Grid grid) {
    long[] pick = switch (grid.dims()) {
      case 1 -> new long[] {64, 1, 1};
      case 2 -> new long[] {8, 8, 1};
      default -> new long[] {4, 4, 4};
    };
    for (int d = 0; d < 3; d++) pick[d] = Math.min(pick[d], grid.global()[d]);
    return pick;
  }

  static void run(JvmRuntime.JvmKernel k, Object[] args, Grid grid) {
    long[] local = grid.local() != null ? grid.local() : defaultLocal(grid);
    int[] l = new int[3], g = new int[3], groups = new int[3];
    for (int d = 0; d < 3; d++) {
      l[d] = (int) local[d];
      groups[d] = (int) ((grid.global()[d] + local[d] - 1) / local[d]);
      g[d] = groups[d] * l[d];
    }
    for (int gz = 0; gz < groups[2]; gz++)
      for (int gy = 0; gy < groups[1]; gy++)
        for (int gx = 0; gx < groups[0]; gx++) runGroup(k, args, new int[] {gx, gy, gz}, l, g);
  }

  private static void runGroup(JvmRuntime.JvmKernel k, Object[] args, int[] group, int[] l, int[] g) {
    int items = l[0] * l[1] * l[2];
    WorkItemContext.Group shared = new WorkItemContext.Group(k.usesBarriers() && items > 1 ? new Phaser(items) : null);
    List<Runnable> work = new ArrayList<>(items);
    for (int z = 0; z < l[2]; z++)
      for (int y = 0; y < l[1]; y++)
        for (int x = 0; x < l[0]; x++) {
          int[] local = {x, y, z};
          int[] global = {group[0] * l[0] + x, group[1] * l[1] + y, group[2] * l[2] + z};
          Object[] a = args.clone();
          a[k.contextParam()] = new WorkItemContext(global, local, group, g, l, shared);
          work.add(() -> {
            try {
              k.invoke(a);
            } finally {
              shared.leave();
            }
          });
        }
    if (shared.phaser() == null) {
      for (Runnable r : work) r.run();
      return;
    }
    Throwable[] failure = new Throwable[1];
    List<Thread> threads = new ArrayList<>(items);
    for (Runnable r : work)
      threads.add(Thread.ofVirtual().unstarted(() -> {
        try {
          r.run();
        } catch (Throwable t) {
          synchronized (failure) {
            if (failure[0] == null) failure[0] = t;
          }
        }
      }));
    threads.forEach(Thread::start);
    try {
      for (Thread t : threads) t.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running work-items", e);
    }
    if (failure[0] instanceof RuntimeException e) throw e;
    if (failure[0] instanceof Error e) throw e;
    if (failure[0] != null) throw new IllegalStateException(failure[0]);
  }
}
