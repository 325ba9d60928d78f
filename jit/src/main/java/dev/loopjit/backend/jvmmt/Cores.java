// The machine's cores: one ForkJoinPool, a launch split into chunks or work-groups over it, the first failure rethrown.
package dev.loopjit.backend.jvmmt;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/**
 * Runs a launch on a {@link ForkJoinPool} with one thread per available processor (daemon
 * threads, so an idle pool never keeps a program alive). A {@code @Parallel} kernel's range is cut
 * into chunks — about four per thread, whole rows first (the outer dimensions), so that each chunk
 * runs the innermost dimension as one counted loop — that the calling thread and the pool's
 * threads take in turn ({@link #forEach}). A
 * {@code KernelContext} kernel's work-groups are its tasks: a group whose work-items never meet at
 * a barrier runs them in a loop; one with barriers runs each work-item on a virtual thread of its
 * own, meeting at a {@link java.util.concurrent.Phaser}. The first failure stops the chunks not yet
 * started and is rethrown to the caller once the others have finished.
 */
final class Cores {
  /** Chunks per pool thread, so that a thread that finishes early can take another's work. */
  static final int CHUNKS_PER_THREAD = 4;

  private static final ForkJoinPool POOL = new ForkJoinPool(Runtime.getRuntime().availableProcessors(), pool -> {
    ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
    t.setName("loopjit-jvm-mt-" + t.getPoolIndex());
    t.setDaemon(true);
    return t;
  }, null, false);

  private Cores() {}

  /** Threads of the pool: the device's compute units. */
  static int parallelism() {
    return POOL.getParallelism();
  }

  /**
   * The number of chunks in x, y, z for a range of {@code counts} iterations (x first): about
   * {@link #CHUNKS_PER_THREAD} per thread, cut from the outermost dimension inwards, never more
   * than there are iterations.
   */
  static long[] chunkGrid(long[] counts, int threads) {
    long target = (long) CHUNKS_PER_THREAD * Math.max(1, threads), have = 1;
    long[] g = {1, 1, 1};
    for (int d = counts.length - 1; d >= 0; d--) {
      long want = (target + have - 1) / have;
      g[d] = Math.max(1, Math.min(counts[d], want));
      have *= g[d];
    }
    return g;
  }

  /** Runs a {@code @Parallel} kernel (or a single work-item) over {@code counts} iterations, chunk by chunk. */
  static void chunks(GeneratedKernel kernel, Object[] args, long[] counts) {
    long[] grid = chunkGrid(counts, parallelism());
    long[] one = {1, 1, 1};
    int gx = (int) grid[0], gy = (int) grid[1];
    forEach((int) (grid[0] * grid[1] * grid[2]), c -> {
      WorkItem item = new WorkItem(null);
      item.startGroup(c % gx, (c / gx) % gy, c / (gx * gy), grid, one, null);
      kernel.run(args, item);
    });
  }

  /**
   * Runs a {@code KernelContext} kernel: {@code groups} work-groups of {@code size} work-items in
   * a launch of global size {@code global} (x, y, z). With {@code barriers} the items of a group
   * run as threads that meet at its barriers; otherwise one after another.
   */
  static void groups(GeneratedKernel kernel, Object[] args, long[] groups, long[] size, long[] global, boolean barriers) {
    int gx = (int) groups[0], gy = (int) groups[1];
    long total = groups[0] * groups[1] * groups[2];
    if (total > Integer.MAX_VALUE) throw new IllegalArgumentException(total + " work-groups; at most " + Integer.MAX_VALUE + " are supported");
    forEach((int) total, c -> {
      int x = c % gx, y = (c / gx) % gy, z = c / (gx * gy);
      if (!barriers) {
        WorkItem item = new WorkItem(null);
        item.startGroup(x, y, z, global, size, new WorkItem.Group(1));
        kernel.run(args, item);
      } else {
        threads(kernel, args, x, y, z, size, global);
      }
    });
  }

  /** One work-group, one virtual thread per work-item; a failing item leaves the barrier so that the others finish. */
  private static void threads(GeneratedKernel kernel, Object[] args, int x, int y, int z, long[] size, long[] global) {
    int items = (int) (size[0] * size[1] * size[2]);
    WorkItem.Group group = new WorkItem.Group(items);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>(items);
    for (int lz = 0; lz < size[2]; lz++)
      for (int ly = 0; ly < size[1]; ly++)
        for (int lx = 0; lx < size[0]; lx++) {
          WorkItem item = new WorkItem(group);
          item.startGroup(x, y, z, global, size, group);
          item.local(lx, ly, lz);
          threads.add(Thread.ofVirtual().unstarted(() -> {
            try {
              kernel.item(args, item);
            } catch (Throwable t) {
              failure.compareAndSet(null, t);
            } finally {
              group.leave();
            }
          }));
        }
    threads.forEach(Thread::start);
    try {
      for (Thread t : threads) t.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running a work-group", e);
    }
    rethrow(failure.get());
  }

  /**
   * Runs {@code body} for 0 … {@code count - 1}: the calling thread and up to {@code parallelism - 1}
   * of the pool's threads take indices in turn until none is left, and the call returns once every
   * index taken has finished; rethrows the first failure (indices not yet started are skipped). The
   * caller always takes part, so a launch makes progress even while the pool's threads are busy
   * with a kernel that a plan abandoned after its timeout.
   */
  static void forEach(int count, IntConsumer body) {
    if (count <= 0) return;
    if (count == 1) {
      body.accept(0);
      return;
    }
    Shared work = new Shared(count, body);
    int helpers = Math.min(parallelism(), count) - 1;
    for (int h = 0; h < helpers; h++) POOL.execute(work::run);
    work.run();
    work.await();
    rethrow(work.failure.get());
  }

  private static void rethrow(Throwable t) {
    if (t == null) return;
    if (t instanceof RuntimeException e) throw e;
    if (t instanceof Error e) throw e;
    throw new IllegalStateException(t);
  }

  /** Indices shared by the threads of one {@link #forEach}; a failure stops the indices not yet started. */
  private static final class Shared {
    private final int count;
    private final IntConsumer body;
    private final AtomicInteger next = new AtomicInteger();
    private final CountDownLatch finished;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    Shared(int count, IntConsumer body) {
      this.count = count;
      this.body = body;
      this.finished = new CountDownLatch(count);
    }

    /** Takes indices until none is left (a helper that starts late finds none and returns at once). */
    void run() {
      for (int c; (c = next.getAndIncrement()) < count; ) {
        try {
          if (failure.get() == null) body.accept(c);
        } catch (Throwable t) {
          failure.compareAndSet(null, t);
        } finally {
          finished.countDown();
        }
      }
    }

    /** Waits for every index (the caller took the last ones, so only running ones are left), interrupts deferred. */
    void await() {
      boolean interrupted = false;
      while (true) {
        try {
          finished.await();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) Thread.currentThread().interrupt();
    }
  }
}
