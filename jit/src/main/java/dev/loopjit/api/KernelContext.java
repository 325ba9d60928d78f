// The explicit kernel API: work-item ids, barriers, local memory and atomics, with real JVM semantics.
package dev.loopjit.api;

import dev.loopjit.types.DoubleArray;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import dev.loopjit.types.LongArray;
import java.lang.foreign.MemorySegment;
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

  /*
   * Local arrays: each {@code allocate…LocalArray(size)} gives an array shared by the work-items of
   * the work-group, not initialised on devices. {@code size} is a constant, or an expression of the
   * kernel's scalar parameters, array lengths, collection shapes and {@code localGroupSizeX/Y/Z}
   * (the same for every work-item, known at launch): then the host sizes the array at each launch
   * (an OpenCL {@code __local} argument, CUDA dynamic shared memory), no recompilation per size, and
   * checks it against the device's local memory before anything runs.
   */
  /** An int array of {@code size} elements shared by the work-group. */
  public int[] allocateIntLocalArray(int size) {
    return new int[size];
  }

  /** A long array of {@code size} elements shared by the work-group. */
  public long[] allocateLongLocalArray(int size) {
    return new long[size];
  }

  /** A float array of {@code size} elements shared by the work-group. */
  public float[] allocateFloatLocalArray(int size) {
    return new float[size];
  }

  /** A double array of {@code size} elements shared by the work-group. */
  public double[] allocateDoubleLocalArray(int size) {
    return new double[size];
  }

  /** A byte array of {@code size} elements shared by the work-group. */
  public byte[] allocateByteLocalArray(int size) {
    return new byte[size];
  }

  /** A short array of {@code size} elements shared by the work-group. */
  public short[] allocateShortLocalArray(int size) {
    return new short[size];
  }

  /**
   * A half-precision array of {@code size} elements shared by the work-group (2 bytes each on a
   * device). On the JVM its elements start as {@code null}, as a Java array of objects does: write
   * before reading, as on a device, whose local memory starts undefined.
   */
  public dev.loopjit.types.HalfFloat[] allocateHalfFloatLocalArray(int size) {
    return new dev.loopjit.types.HalfFloat[size];
  }

  // ---- SIMD groups (sub-groups, warps) -------------------------------------------------------

  /**
   * Work-items per SIMD group: 32 on every device. A SIMD group is 32 consecutive work-items of the
   * work-group in linear order ({@code localIdx + localGroupSizeX * (localIdy + localGroupSizeY * localIdz)});
   * the last group of a work-group whose size is not a multiple of 32 is shorter. This is a CUDA
   * warp exactly; the jvm device and devices without 32-wide sub-group shuffles (PoCL, SPIR-V)
   * compute the same results through work-group memory.
   *
   * <p>The SIMD-group operations below must be called by every work-item of the work-group, at the
   * same point, as {@link #localBarrier()} must (they synchronise the group on some devices).
   * Results are exact and equal on every device: sums and maxima are folded from lane 0 upwards
   * in order, with Java's arithmetic of the type.
   */
  public static final int SIMD_WIDTH = 32;

  private int linearLocalId() {
    return localIdx + localGroupSizeX * (localIdy + localGroupSizeY * localIdz);
  }

  /** This work-item's SIMD group within its work-group: the linear local id divided by {@link #SIMD_WIDTH}. */
  public int simdGroupId() {
    return linearLocalId() / SIMD_WIDTH;
  }

  /** This work-item's lane in its SIMD group: the linear local id modulo {@link #SIMD_WIDTH}. */
  public int simdLaneId() {
    return linearLocalId() % SIMD_WIDTH;
  }

  /** Work-items in this work-item's SIMD group: 32, or fewer in the last group of a work-group of another size. */
  public int simdGroupSize() {
    int items = localGroupSizeX * localGroupSizeY * localGroupSizeZ;
    return Math.min(SIMD_WIDTH, items - simdGroupId() * SIMD_WIDTH);
  }

  /**
   * {@code value} as the work-item in lane {@code lane} of this SIMD group passed it; a lane outside
   * {@code 0 .. simdGroupSize() - 1} gives this work-item's own {@code value}. (This context stands
   * for a work-group of one work-item, so it returns {@code value}; the devices' contexts exchange.)
   */
  public int simdShuffle(int value, int lane) {
    return value;
  }

  /** {@link #simdShuffle(int, int)} for longs. */
  public long simdShuffle(long value, int lane) {
    return value;
  }

  /** {@link #simdShuffle(int, int)} for floats (the bits move unchanged). */
  public float simdShuffle(float value, int lane) {
    return value;
  }

  /** {@link #simdShuffle(int, int)} for doubles (the bits move unchanged). */
  public double simdShuffle(double value, int lane) {
    return value;
  }

  /** The value of the lane {@code delta} above this one: {@code simdShuffle(value, simdLaneId() + delta)}. */
  public int simdShuffleDown(int value, int delta) {
    return simdShuffle(value, simdLaneId() + delta);
  }

  /** {@link #simdShuffleDown(int, int)} for longs. */
  public long simdShuffleDown(long value, int delta) {
    return simdShuffle(value, simdLaneId() + delta);
  }

  /** {@link #simdShuffleDown(int, int)} for floats (TornadoVM's name and shape). */
  public float simdShuffleDown(float value, int delta) {
    return simdShuffle(value, simdLaneId() + delta);
  }

  /** {@link #simdShuffleDown(int, int)} for doubles. */
  public double simdShuffleDown(double value, int delta) {
    return simdShuffle(value, simdLaneId() + delta);
  }

  /** Lane {@code lane}'s value, for every lane: {@code simdShuffle(value, lane)} with the same lane everywhere. */
  public int simdBroadcast(int value, int lane) {
    return simdShuffle(value, lane);
  }

  /** {@link #simdBroadcast(int, int)} for longs. */
  public long simdBroadcast(long value, int lane) {
    return simdShuffle(value, lane);
  }

  /** {@link #simdBroadcast(int, int)} for floats. */
  public float simdBroadcast(float value, int lane) {
    return simdShuffle(value, lane);
  }

  /** {@link #simdBroadcast(int, int)} for doubles. */
  public double simdBroadcast(double value, int lane) {
    return simdShuffle(value, lane);
  }

  /** Lane 0's value, for every lane (TornadoVM's name). */
  public float simdBroadcastFirst(float value) {
    return simdShuffle(value, 0);
  }

  /** Lane 0's value, for every lane. */
  public int simdBroadcastFirst(int value) {
    return simdShuffle(value, 0);
  }

  /** The sum of {@code value} over this SIMD group, lane 0 first, for every lane (ints wrap, as Java's +). */
  public int simdSum(int value) {
    return value;
  }

  /** {@link #simdSum(int)} for longs. */
  public long simdSum(long value) {
    return value;
  }

  /** {@link #simdSum(int)} for floats: {@code ((v0 + v1) + v2) + …}, in lane order, so the result is the same everywhere. */
  public float simdSum(float value) {
    return value;
  }

  /** {@link #simdSum(float)} for doubles. */
  public double simdSum(double value) {
    return value;
  }

  /** {@code Math.max} of {@code value} over this SIMD group, folded from lane 0, for every lane. */
  public int simdMax(int value) {
    return value;
  }

  /** {@link #simdMax(int)} for longs. */
  public long simdMax(long value) {
    return value;
  }

  /** {@link #simdMax(int)} for floats: NaN if any lane has one, and 0.0f above -0.0f, as {@code Math.max}. */
  public float simdMax(float value) {
    return value;
  }

  /** {@link #simdMax(float)} for doubles. */
  public double simdMax(double value) {
    return value;
  }

  private static final VarHandle INT_SEGMENT = ValueLayout.JAVA_INT.arrayElementVarHandle();
  private static final VarHandle LONG_SEGMENT = ValueLayout.JAVA_LONG.arrayElementVarHandle();
  private static final VarHandle INT_ARRAY = MethodHandles.arrayElementVarHandle(int[].class);
  private static final VarHandle LONG_ARRAY = MethodHandles.arrayElementVarHandle(long[].class);

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
    return addFloat(array.getSegment(), index, value);
  }

  /** Atomically adds {@code value} to {@code array[index]}; returns the old value. */
  public double atomicAdd(DoubleArray array, int index, double value) {
    java.util.Objects.checkIndex(index, array.getSize());
    return addDouble(array.getSegment(), index, value);
  }

  /** A float add as a compare-and-set loop on the element's bits (a NaN ends it too); the old value. */
  private static float addFloat(MemorySegment memory, int index, float value) {
    while (true) {
      int old = (int) INT_SEGMENT.getVolatile(memory, 0L, (long) index);
      int updated = Float.floatToRawIntBits(Float.intBitsToFloat(old) + value);
      if (INT_SEGMENT.compareAndSet(memory, 0L, (long) index, old, updated)) return Float.intBitsToFloat(old);
    }
  }

  /** A double add as a compare-and-set loop on the element's bits; the old value. */
  private static double addDouble(MemorySegment memory, int index, double value) {
    while (true) {
      long old = (long) LONG_SEGMENT.getVolatile(memory, 0L, (long) index);
      long updated = Double.doubleToRawLongBits(Double.longBitsToDouble(old) + value);
      if (LONG_SEGMENT.compareAndSet(memory, 0L, (long) index, old, updated)) return Double.longBitsToDouble(old);
    }
  }

  /** Atomically adds {@code value} to {@code array[index]}; returns the old value. */
  public int atomicAdd(int[] array, int index, int value) {
    return (int) INT_ARRAY.getAndAdd(array, index, value);
  }

  /** Atomically adds {@code value} to {@code array[index]}; returns the old value. */
  public long atomicAdd(long[] array, int index, long value) {
    return (long) LONG_ARRAY.getAndAdd(array, index, value);
  }

  /** Atomically adds {@code value} to {@code array[index]}; returns the old value. */
  public float atomicAdd(float[] array, int index, float value) {
    java.util.Objects.checkIndex(index, array.length);
    return addFloat(MemorySegment.ofArray(array), index, value);
  }

  /** Atomically adds {@code value} to {@code array[index]}; returns the old value. */
  public double atomicAdd(double[] array, int index, double value) {
    java.util.Objects.checkIndex(index, array.length);
    return addDouble(MemorySegment.ofArray(array), index, value);
  }
}
