// AtomicInteger kernel parameters (TornadoVM's atomics API) on every device: counts equal Java's, values handed out once each, refusals alike.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.types.DoubleArray;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * An {@code AtomicInteger} given to a task is one int in the device's memory: the plan copies its
 * value to the device and back as it copies an array, and its methods are atomic operations, so
 * every work-item's update counts. A count (an update whose value the kernel does not use) is
 * Java's on every device; the values handed out ({@code getAndIncrement}) are each handed out once,
 * in an order that depends on how the work-items ran — as with threads in Java — and the final
 * value is Java's.
 */
class AtomicIntegerTest {
  /** Counts the positive elements. */
  static void positives(float[] a, AtomicInteger count) {
    for (@Parallel int i = 0; i < a.length; i++) {
      if (a[i] > 0f) count.incrementAndGet();
    }
  }

  /** Each iteration takes a ticket. */
  static void tickets(int[] out, AtomicInteger next) {
    for (@Parallel int i = 0; i < out.length; i++) {
      out[i] = next.getAndIncrement();
    }
  }

  /** A helper given the AtomicInteger (TornadoVM's callAtomic): steps of {@code k}, and a count down beside it. */
  static int take(AtomicInteger a, int k) {
    return a.addAndGet(k);
  }

  static void steps(int[] in, int[] out, AtomicInteger up, AtomicInteger down) {
    for (@Parallel int i = 0; i < out.length; i++) {
      out[i] = in[i] + take(up, 3);
      down.decrementAndGet();
      down.getAndDecrement();
      down.getAndAdd(1);
    }
  }

  /** The first iteration to claim the flag wins; every iteration reads the flag once it is claimed. */
  static void claim(AtomicInteger flag, AtomicInteger winners, int[] seen) {
    for (@Parallel int i = 0; i < seen.length; i++) {
      if (flag.compareAndSet(0, i + 1)) winners.incrementAndGet();
      seen[i] = flag.get();
    }
  }

  /** KernelContext.atomicAdd on doubles: a histogram of weights. */
  static void weights(KernelContext context, int[] bins, double[] w, DoubleArray histogram) {
    for (@Parallel int i = 0; i < bins.length; i++) {
      context.atomicAdd(histogram, bins[i], w[i]);
    }
  }

  /** A KernelContext's ids in a @Parallel loop: the grid would be the loop's and the context's at once. */
  static void idsInALoop(KernelContext context, int[] out) {
    for (@Parallel int i = 0; i < out.length; i++) {
      out[i] = context.globalIdx;
    }
  }

  /** Made before the loop (TornadoVM's atomic04/atomic15): shared by every iteration, fresh at each execution; read again after the loop. */
  static void madeBeforeTheLoop(int[] out, int[] last, AtomicInteger given, int start) {
    AtomicInteger a = new AtomicInteger(start);
    AtomicInteger zero = new AtomicInteger();
    for (@Parallel int i = 0; i < out.length; i++) {
      out[i] = a.incrementAndGet() * 1000 + given.incrementAndGet() % 1000;
      zero.getAndAdd(2);
    }
    last[0] = a.get();
    last[1] = zero.get();
  }

  static void madeInTheLoop(int[] out) {
    for (@Parallel int i = 0; i < out.length; i++) {
      AtomicInteger a = new AtomicInteger(i);
      out[i] = a.incrementAndGet();
    }
  }

  static int bumped(int start) {
    AtomicInteger a = new AtomicInteger(start);
    return a.incrementAndGet();
  }

  static void madeInAHelper(int[] out) {
    for (@Parallel int i = 0; i < out.length; i++) {
      out[i] = bumped(i);
    }
  }

  static void madeInAContextKernel(KernelContext context, int[] out) {
    AtomicInteger a = new AtomicInteger(0);
    out[context.globalIdx] = a.incrementAndGet();
  }

  static void setInKernel(int[] out, AtomicInteger a) {
    for (@Parallel int i = 0; i < out.length; i++) {
      a.set(out[i]);
    }
  }

  private static float[] signs(int n) {
    float[] a = new float[n];
    for (int i = 0; i < n; i++) a[i] = (i * 7919 % 13) - 6.5f;
    return a;
  }

  @Test
  void aCountIsJavasOnEveryDevice() {
    float[] a = signs(1000);
    AtomicInteger expected = new AtomicInteger(5);
    positives(a, expected);
    for (Device d : Devices.all()) {
      AtomicInteger count = new AtomicInteger(5);
      PrintedKernels.run(new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a, count)
          .task("t", AtomicIntegerTest::positives, a, count).transferToHost(DataTransferMode.EVERY_EXECUTION, count), d);
      assertEquals(expected.get(), count.get(), d.id());
    }
  }

  /** An instance-method kernel counting into its object's AtomicInteger field (a field is an argument as a parameter is). */
  static final class Counter {
    final AtomicInteger seen = new AtomicInteger(3);

    void count(float[] a) {
      for (@Parallel int i = 0; i < a.length; i++) {
        if (a[i] < 0f) seen.incrementAndGet();
      }
    }
  }

  @Test
  void anObjectsAtomicIntegerFieldCountsToo() {
    float[] a = signs(500);
    Counter expected = new Counter();
    expected.count(a);
    for (Device d : Devices.all()) {
      Counter c = new Counter();
      PrintedKernels.run(new TaskGraph("g").task("t", c::count, a).transferToHost(DataTransferMode.EVERY_EXECUTION, c.seen), d);
      assertEquals(expected.seen.get(), c.seen.get(), d.id());
    }
  }

  @Test
  void everyTicketIsHandedOutOnceAndTheLastIsJavas() {
    int n = 777, start = 311;
    for (Device d : Devices.all()) {
      int[] out = new int[n];
      AtomicInteger next = new AtomicInteger(start);
      try (ExecutionPlan plan = new ExecutionPlan(new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, next)
          .task("t", AtomicIntegerTest::tickets, out, next).transferToHost(DataTransferMode.EVERY_EXECUTION, out, next).snapshot()).withDevice(d)) {
        for (int round = 0; round < 3; round++) {
          plan.execute();
          int[] sorted = out.clone();
          Arrays.sort(sorted);
          for (int i = 0; i < n; i++) assertEquals(start + round * n + i, sorted[i], d.id() + " round " + round + ": ticket " + i);
          assertEquals(start + (round + 1) * n, next.get(), d.id() + " round " + round + ": the value after");
        }
        // the host's own change reaches the device at the next execution
        next.set(-50);
        plan.execute();
        assertEquals(-50 + n, next.get(), d.id() + ": a value set on the host");
      }
    }
  }

  @Test
  void helpersAndEveryUpdateMethod() {
    int n = 300;
    int[] in = new int[n];
    for (int i = 0; i < n; i++) in[i] = i * 1000;
    for (Device d : Devices.all()) {
      int[] out = new int[n];
      AtomicInteger up = new AtomicInteger(7), down = new AtomicInteger(0);
      PrintedKernels.run(new TaskGraph("g").task("t", AtomicIntegerTest::steps, in, out, up, down)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, out, up, down), d);
      int[] got = new int[n];
      for (int i = 0; i < n; i++) got[i] = out[i] - in[i];
      Arrays.sort(got);
      for (int i = 0; i < n; i++) assertEquals(7 + 3 * (i + 1), got[i], d.id() + ": step " + i);
      assertEquals(7 + 3 * n, up.get(), d.id());
      assertEquals(-n, down.get(), d.id());
    }
  }

  @Test
  void compareAndSetHasOneWinner() {
    int n = 500;
    for (Device d : Devices.all()) {
      int[] seen = new int[n];
      AtomicInteger flag = new AtomicInteger(0), winners = new AtomicInteger(0);
      PrintedKernels.run(new TaskGraph("g").task("t", AtomicIntegerTest::claim, flag, winners, seen)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, flag, winners, seen), d);
      assertEquals(1, winners.get(), d.id() + ": one winner");
      assertTrue(flag.get() >= 1 && flag.get() <= n, d.id() + ": the winner's mark " + flag.get());
      for (int i = 0; i < n; i++) assertEquals(flag.get(), seen[i], d.id() + ": iteration " + i + " read the winner's mark");
    }
  }

  @Test
  void atomicAddOnDoublesIsJavasWhereTheDeviceHasThem() {
    int n = 400;
    int[] bins = new int[n];
    double[] w = new double[n];
    for (int i = 0; i < n; i++) {
      bins[i] = i % 5;
      w[i] = 0.25 * (i % 8);   // exact in binary: any order of the adds gives the same sums
    }
    DoubleArray expected = new DoubleArray(5);
    weights(new KernelContext(), bins, w, expected);
    for (Device d : Devices.all()) {
      if (!d.supportsFp64()) continue;
      DoubleArray histogram = new DoubleArray(5);
      PrintedKernels.run(new TaskGraph("g").task("t", AtomicIntegerTest::weights, new KernelContext(), bins, w, histogram)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, histogram), d);
      assertArrayEquals(expected.toHeapArray(), histogram.toHeapArray(), d.id());
    }
  }

  @Test
  void oneMadeBeforeTheLoopIsSharedByItsIterationsAndFreshAtEachExecution() {
    int n = 321, start = 200;
    for (Device d : Devices.all()) {
      int[] out = new int[n], last = new int[2];
      AtomicInteger given = new AtomicInteger(0);
      try (ExecutionPlan plan = new ExecutionPlan(new TaskGraph("g").task("t", AtomicIntegerTest::madeBeforeTheLoop, out, last, given, start)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, out, last, given).snapshot()).withDevice(d)) {
        for (int round = 0; round < 2; round++) {
          plan.execute();
          int[] made = new int[n];
          for (int i = 0; i < n; i++) made[i] = out[i] / 1000;
          Arrays.sort(made);
          for (int i = 0; i < n; i++) assertEquals(start + 1 + i, made[i], d.id() + " round " + round + ": value " + i);
          assertArrayEquals(new int[] {start + n, 2 * n}, last, d.id() + " round " + round + ": read after the loop");
          assertEquals((round + 1) * n, given.get(), d.id() + " round " + round);
        }
      }
    }
  }

  @Test
  void oneMadeElsewhereOrSetInTheKernelAndAContextsIdsInALoopAreRefusedAlikeEverywhere() {
    for (Device d : Devices.all()) {
      for (var made : java.util.List.<Runnable>of(
          () -> PrintedKernels.run(new TaskGraph("g").task("t", AtomicIntegerTest::madeInTheLoop, new int[4]), d),
          () -> PrintedKernels.run(new TaskGraph("g").task("t", AtomicIntegerTest::madeInAHelper, new int[4]), d))) {
        KernelCompilationException e = assertThrows(KernelCompilationException.class, made::run, d.id());
        assertTrue(e.getMessage().contains("AtomicIntegerTest.java:") && e.getMessage().contains("pass it to the task as a parameter"),
            d.id() + ": " + e.getMessage());
      }
      KernelCompilationException context = assertThrows(KernelCompilationException.class, () -> {
        try (ExecutionPlan plan = new ExecutionPlan(new TaskGraph("g").task("t", AtomicIntegerTest::madeInAContextKernel, new KernelContext(), new int[4])
            .snapshot()).withDevice(d).withGridScheduler(new GridScheduler("g.t", new WorkerGrid1D(4)))) {
          plan.execute();
        }
      }, d.id());
      assertTrue(context.getMessage().contains("each work-item would make its own"), d.id() + ": " + context.getMessage());
      KernelCompilationException set = assertThrows(KernelCompilationException.class, () -> PrintedKernels.run(
          new TaskGraph("g").task("t", AtomicIntegerTest::setInKernel, new int[4], new AtomicInteger()), d), d.id());
      assertTrue(set.getMessage().contains("'AtomicInteger.set' is not supported"), d.id() + ": " + set.getMessage());
      KernelCompilationException ids = assertThrows(KernelCompilationException.class, () -> PrintedKernels.run(
          new TaskGraph("g").task("t", AtomicIntegerTest::idsInALoop, new KernelContext(), new int[4]), d), d.id());
      assertTrue(ids.getMessage().contains("for its atomicAdd alone"), d.id() + ": " + ids.getMessage());
    }
  }
}
