// The KernelContext of one work-item on the JVM: its ids, its group's barrier and local arrays.
package dev.loopjit.backend.jvm;

import dev.loopjit.api.KernelContext;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Phaser;
import java.util.function.IntFunction;

/** One work-item's view: barriers wait for the group; local arrays are the group's. */
final class WorkItemContext extends KernelContext {
  /** What a work-group shares: its barrier (null when the kernel has none) and its local arrays, by allocation order. */
  record Group(Phaser phaser, List<Object> localArrays) {
    Group(Phaser phaser) {
      this(phaser, new ArrayList<>());
    }

    void leave() {
      if (phaser != null) phaser.arriveAndDeregister();
    }
  }

  private final Group group;
  private int allocations;

  WorkItemContext(int[] global, int[] local, int[] groupId, int[] globalSize, int[] localSize, Group group) {
    super(global, local, groupId, globalSize, localSize);
    this.group = group;
  }

  @Override
  public void localBarrier() {
    if (group.phaser() != null) group.phaser().arriveAndAwaitAdvance();
  }

  @Override
  public void globalBarrier() {
    localBarrier();
  }

  private <T> T local(int size, Class<T> type, IntFunction<T> make) {
    int k = allocations++;
    synchronized (group) {
      List<Object> arrays = group.localArrays();
      if (k == arrays.size()) arrays.add(make.apply(size));
      Object a = arrays.get(k);
      if (!type.isInstance(a) || java.lang.reflect.Array.getLength(a) != size)
        throw new IllegalStateException("work-items of one group allocated different local arrays at allocation " + k);
      return type.cast(a);
    }
  }

  @Override
  public int[] allocateIntLocalArray(int size) {
    return local(size, int[].class, int[]::new);
  }

  @Override
  public long[] allocateLongLocalArray(int size) {
    return local(size, long[].class, long[]::new);
  }

  @Override
  public float[] allocateFloatLocalArray(int size) {
    return local(size, float[].class, float[]::new);
  }

  @Override
  public double[] allocateDoubleLocalArray(int size) {
    return local(size, double[].class, double[]::new);
  }
}
