// The KernelContext of one work-item on the JVM: its ids, its group's barrier and local arrays.
package dev.loopjit.backend.jvm;

import dev.loopjit.api.KernelContext;
import dev.loopjit.types.HalfFloat;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Phaser;
import java.util.function.IntFunction;

/** One work-item's view: barriers wait for the group; local arrays are the group's. */
final class WorkItemContext extends KernelContext {
  /**
   * What a work-group shares: its barrier (null when the kernel has none), its local arrays by
   * allocation order, and the slots SIMD-group operations exchange values through (one per work-item).
   */
  record Group(Phaser phaser, List<Object> localArrays, long[] slots) {
    Group(Phaser phaser, int items) {
      this(phaser, new ArrayList<>(), new long[items]);
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

  @Override
  public byte[] allocateByteLocalArray(int size) {
    return local(size, byte[].class, byte[]::new);
  }

  @Override
  public short[] allocateShortLocalArray(int size) {
    return local(size, short[].class, short[]::new);
  }

  @Override
  public HalfFloat[] allocateHalfFloatLocalArray(int size) {
    return local(size, HalfFloat[].class, HalfFloat[]::new);
  }

  // ---- SIMD groups: every work-item publishes its value's bits, the group meets, each reads what it needs, the group meets again.

  /** The bits every lane of this work-item's SIMD group published, in lane order, with this operation's value. */
  private long[] exchange(long bits) {
    int me = localIdx + localGroupSizeX * (localIdy + localGroupSizeY * localIdz);
    int base = me - simdLaneId(), size = simdGroupSize();
    long[] lanes = new long[size];
    if (group.phaser() == null) {   // a group of one work-item: nothing to wait for
      lanes[0] = bits;
      return lanes;
    }
    group.slots()[me] = bits;
    group.phaser().arriveAndAwaitAdvance();
    System.arraycopy(group.slots(), base, lanes, 0, size);
    group.phaser().arriveAndAwaitAdvance();   // nobody publishes the next value before everyone has read this one
    return lanes;
  }

  private long shuffled(long bits, int lane) {
    long[] lanes = exchange(bits);
    return lane >= 0 && lane < lanes.length ? lanes[lane] : bits;
  }

  @Override
  public int simdShuffle(int value, int lane) {
    return (int) shuffled(value, lane);
  }

  @Override
  public long simdShuffle(long value, int lane) {
    return shuffled(value, lane);
  }

  @Override
  public float simdShuffle(float value, int lane) {
    return Float.intBitsToFloat((int) shuffled(Float.floatToRawIntBits(value), lane));
  }

  @Override
  public double simdShuffle(double value, int lane) {
    return Double.longBitsToDouble(shuffled(Double.doubleToRawLongBits(value), lane));
  }

  @Override
  public int simdSum(int value) {
    int s = 0;
    for (long v : exchange(value)) s += (int) v;
    return s;
  }

  @Override
  public long simdSum(long value) {
    long s = 0;
    for (long v : exchange(value)) s += v;
    return s;
  }

  @Override
  public float simdSum(float value) {
    long[] lanes = exchange(Float.floatToRawIntBits(value));
    float s = Float.intBitsToFloat((int) lanes[0]);
    for (int k = 1; k < lanes.length; k++) s += Float.intBitsToFloat((int) lanes[k]);
    return s;
  }

  @Override
  public double simdSum(double value) {
    long[] lanes = exchange(Double.doubleToRawLongBits(value));
    double s = Double.longBitsToDouble(lanes[0]);
    for (int k = 1; k < lanes.length; k++) s += Double.longBitsToDouble(lanes[k]);
    return s;
  }

  @Override
  public int simdMax(int value) {
    long[] lanes = exchange(value);
    int m = (int) lanes[0];
    for (int k = 1; k < lanes.length; k++) m = Math.max(m, (int) lanes[k]);
    return m;
  }

  @Override
  public long simdMax(long value) {
    long[] lanes = exchange(value);
    long m = lanes[0];
    for (int k = 1; k < lanes.length; k++) m = Math.max(m, lanes[k]);
    return m;
  }

  @Override
  public float simdMax(float value) {
    long[] lanes = exchange(Float.floatToRawIntBits(value));
    float m = Float.intBitsToFloat((int) lanes[0]);
    for (int k = 1; k < lanes.length; k++) m = Math.max(m, Float.intBitsToFloat((int) lanes[k]));
    return m;
  }

  @Override
  public double simdMax(double value) {
    long[] lanes = exchange(Double.doubleToRawLongBits(value));
    double m = Double.longBitsToDouble(lanes[0]);
    for (int k = 1; k < lanes.length; k++) m = Math.max(m, Double.longBitsToDouble(lanes[k]));
    return m;
  }
}
