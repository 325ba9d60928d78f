// The geometry a generated kernel reads (ids and sizes in x, y, z), and its work-group's barrier and local arrays.
package dev.loopjit.backend.jvmmt;

import java.util.concurrent.Phaser;

/**
 * One work-item's view, as plain fields the generated code reads with {@code getfield}. For a
 * {@code @Parallel} kernel a work-item is a chunk of the range: its global id is the chunk's
 * index and the global size the number of chunks. A work-item that runs a whole group in a loop
 * ({@link GeneratedKernel#run}) has its local and global ids rewritten for each item.
 */
final class WorkItem {
  /** Global id, local id, group id, global size and local size in x, y, z. */
  int g0, g1, g2, l0, l1, l2, w0, w1, w2, n0, n1, n2, s0, s1, s2;
  private Group group;

  WorkItem(Group group) {
    this.group = group;
  }

  /** Starts work-group {@code (x, y, z)} of a launch with global size {@code n} and local size {@code s}, with fresh local arrays. */
  void startGroup(int x, int y, int z, long[] n, long[] s, Group g) {
    w0 = x; w1 = y; w2 = z;
    n0 = (int) n[0]; n1 = (int) n[1]; n2 = (int) n[2];
    s0 = (int) s[0]; s1 = (int) s[1]; s2 = (int) s[2];
    l0 = l1 = l2 = 0;
    g0 = x * s0; g1 = y * s1; g2 = z * s2;
    group = g;
  }

  /** Makes this the work-item with local id {@code (x, y, z)} of its group. */
  void local(int x, int y, int z) {
    l0 = x; l1 = y; l2 = z;
    g0 = w0 * s0 + x; g1 = w1 * s1 + y; g2 = w2 * s2 + z;
  }

  /** KernelContext.localBarrier / globalBarrier: waits for the group (a work-group barrier that also orders memory). */
  void barrier() {
    group.await();
  }

  int[] localInt(int k, int size) {
    return (int[]) group.local(k, size, int[].class);
  }

  long[] localLong(int k, int size) {
    return (long[]) group.local(k, size, long[].class);
  }

  float[] localFloat(int k, int size) {
    return (float[]) group.local(k, size, float[].class);
  }

  double[] localDouble(int k, int size) {
    return (double[]) group.local(k, size, double[].class);
  }

  short[] localShort(int k, int size) {
    return (short[]) group.local(k, size, short[].class);
  }

  byte[] localByte(int k, int size) {
    return (byte[]) group.local(k, size, byte[].class);
  }

  char[] localChar(int k, int size) {
    return (char[]) group.local(k, size, char[].class);
  }

  boolean[] localBoolean(int k, int size) {
    return (boolean[]) group.local(k, size, boolean[].class);
  }

  /** What the work-items of one group share: their local arrays (by allocation site), and a barrier when they run as threads. */
  static final class Group {
    private final Phaser phaser;
    private Object[] locals = new Object[4];

    /** A group whose items run one after another (no barrier), or as {@code parties} threads meeting at barriers. */
    Group(int parties) {
      phaser = parties > 1 ? new Phaser(parties) : null;
    }

    void await() {
      if (phaser != null) phaser.arriveAndAwaitAdvance();
    }

    /** A work-item is done (or failed): the others no longer wait for it at barriers. */
    void leave() {
      if (phaser != null) phaser.arriveAndDeregister();
    }

    synchronized Object local(int k, int size, Class<?> type) {
      if (k >= locals.length) locals = java.util.Arrays.copyOf(locals, Math.max(k + 1, 2 * locals.length));
      Object a = locals[k];
      if (a == null) locals[k] = a = java.lang.reflect.Array.newInstance(type.getComponentType(), size);
      return a;
    }
  }
}
