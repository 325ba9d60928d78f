// The explicit kernel API: work-item ids, barriers, local memory and atomics, with real JVM semantics.
package dev.loopjit.api;

import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import dev.loopjit.types.LongArray;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The explicit kernel API, for kernels written per work-item rather than as {@code @Parallel}
 * loops. Pass one {@code new KernelContext()} as a task argument and launch the task with a
 * {@link GridScheduler}; each work-item then sees its own ids in the fields below.
 *
 * <pre>{@code
 * static void sumGroups(KernelContext ctx, FloatArray in, FloatArray partial) {
 *   float[] tile = ctx.allocateFloatLocalArray(256);
 *   int l = ctx.localIdx;
 *   tile[l] = in.get(ctx.globalIdx);
 *   for (int s = ctx.localGroupSizeX / 2; s > 0; s /= 2) {
 *     ctx.localBarrier();
 *     if (l < s) tile[l] += tile[l + s];
 *   }
 *   if (l == 0) partial.set(ctx.groupIdx, tile[0]);
 * }
 * }</pre>
 *
 * On the {@code jvm} device every work-item runs on its own virtual thread with these fields set,
 * local arrays are shared by the work-items of a group, and the barriers are real barriers over
 * the group, so a kernel that forgets a barrier gives a wrong answer on the JVM too.
 * {@link #globalBarrier()} has OpenCL's meaning: a barrier over the work-group that also orders
 * global memory; there is no barrier across work-groups.
 */
public class KernelContext {
  /** Global id of this work-item, in dimension x, y, z. */
  public final int globalIdx, globalIdy, globalIdz;
  /** Id of this work-item inside its work-group. */
  public final int localIdx, localIdy, localIdz;
  /** Id of this work-item's work-group. */
  public final int groupIdx, groupIdy, groupIdz;
  /** Global size (work-items launched, after rounding up to the local size). */
  public final int globalGroupSizeX, globalGroupSizeY, globalGroupSizeZ;
  /** Work-group size. */
  public final int localGroupSizeX, localGroupSizeY, localGroupSizeZ;

  /** A context to pass as a task argument: all ids 0, all sizes 1 until the kernel runs. */
  public KernelContext() {
    this(new int[3], new int[3], new int[3], new int[] {1, 1, 1}, new int[] {1, 1, 1});
  }

  /** The context of one work-item; used by backends. Arrays are x, y, z. */
  protected KernelContext(int[] global, int[] local, int[] group, int[] globalSize, int[] localSize) {
    globalIdx = global[0]; globalIdy = global[1]; globalIdz = global[2];
    localIdx = local[0]; localIdy = local[1]; localIdz = local[2];
    groupIdx = group[0]; groupIdy = group[1]; groupIdz = group[2];
    globalGroupSizeX = globalSize[0]; globalGroupSizeY = globalSize[1]; globalGroupSizeZ = globalSize[2];
    localGroupSizeX = localSize[0]; localGroupSizeY = localSize[1]; localGroupSizeZ = localSize[2];
  }

  /** Waits until every work-item of the group has reached this barrier; orders local memory. */
  public void localBarrier() {}

  /** Waits until every work-item of the group has reached this barrier; orders global and local memory. */
  public void globalBarrier() {}

  /** An int array of {@code size} elements shared by the work-group; {@code size} must be a constant. */
  public int[] allocateIntLocalArray(int size) {
    return new int[size];
  }

  /** A long array of {@code size} elements shared by the work-group; {@code size} must be a constant. */
  public long[] allocateLongLocalArray(int size) {
    return new long[size];
  }

  /** A float array of {@code size} elements shared by the work-group; {@code size} must be a constant. */
  public float[] allocateFloatLocalArray(int size) {
    return new float[size];
  }

  /** A double array of {@code size} elements shared by the work-group; {@code size} must be a constant. */
  public double[] allocateDoubleLocalArray(int size) {
    return new double[size];
  }

  private static final VarHandle INT_SEGMENT = ValueLayout.JAVA_INT.arrayElementVarHandle();
  private static final VarHandle LONG_SEGMENT = ValueLayout.JAVA_LONG.arrayElementVarHandle();
  private static final VarHandle INT_ARRAY = MethodHandles.arrayElementVarHandle(int[].class);

  /** Atomically adds {@code value} to {@code array[index]}; returns the old value. */
  public int atomicAdd(IntArray array, int index, int value) {
    java.util.Objects.checkIndex(index, array.getSize());
    return (int) INT_SEGMENT.getAndAdd(array.getSegment(), 0L, (long) index, value);
  }

  /** Atomically adds {@code value} to {@code array[index]}; returns the old value. */
  public long atomicAdd(LongArray array, int index, long value) {
    java.util.Objects.checkIndex(index, array.getSize());
    return (long) LONG_SEGMENT.getAndAdd(array.getSegment(), 0L, (long) index, value);
  }

  /** Atomically adds {@code value} to {@code array[index]}; returns the old value. */
  public float atomicAdd(FloatArray array, int index, float value) {
    java.util.Objects.checkIndex(index, array.getSize());
    while (true) {
      int old = (int) INT_SEGMENT.getVolatile(array.getSegment(), 0L, (long) index);
      int updated = Float.floatToRawIntBits(Float.intBitsToFloat(old) + value);
      if (INT_SEGMENT.compareAndSet(array.getSegment(), 0L, (long) index, old, updated)) return Float.intBitsToFloat(old);
    }
  }

  /** Atomically adds {@code value} to {@code array[index]}; returns the old value. */
  public int atomicAdd(int[] array, int index, int value) {
    return (int) INT_ARRAY.getAndAdd(array, index, value);
  }
}
