// Runs every ArrayKernels kernel on the jvm and on every device and compares: all exact (reductions use exact sums).
package dev.loopjit.conformance;

import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.ByteArray;
import dev.loopjit.types.DoubleArray;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.HalfFloatArray;
import dev.loopjit.types.IntArray;
import dev.loopjit.types.LongArray;
import dev.loopjit.types.ShortArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ArrayKernelsTest {
  private static final int N = 997;

  @Test
  void heapAndOffHeap() {
    KernelCheck.of("ArrayKernels.heapAndOffHeap", ArrayKernels::heapAndOffHeap)
        .args(() -> { Inputs in = new Inputs(161);
          return new Object[] {in.anyFloats(N), FloatArray.fromArray(in.anyFloats(N)), new float[N], new FloatArray(N)}; }).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 997})
  void everyOffHeapType(int n) {
    KernelCheck.of("ArrayKernels.everyOffHeapType", ArrayKernels::everyOffHeapType)
        .args(() -> { Inputs in = new Inputs(162);
          return new Object[] {in.doubleArray(n, -1e3, 1e3), in.intArray(n, -1000, 1000), LongArray.fromArray(in.longs(n, -1000, 1000)),
              ShortArray.fromArray(in.shorts(n)), ByteArray.fromArray(in.bytes(n)), HalfFloatArray.fromArray(in.floats(n, -100, 100)),
              new FloatArray(n)}; }).run();
  }

  @Test
  void halfFloat() {
    KernelCheck.of("ArrayKernels.halfFloat", ArrayKernels::halfFloat)
        .args(() -> { Inputs in = new Inputs(163);
          return new Object[] {HalfFloatArray.fromArray(in.anyFloats(N)), in.floatArray(N, -30000, 30000), new HalfFloatArray(N)}; }).run();
  }

  /** Arrays made in the kernel at a size known at launch: n = 40 and n = 700 (rooms of 64 and 1,024 reserved). */
  @Test
  void sizedAtLaunch() {
    for (int n : new int[] {40, 700})
      KernelCheck.of("ArrayKernels.sizedAtLaunch n=" + n, ArrayKernels::sizedAtLaunch)
          .args(() -> { Inputs in = new Inputs(168 + n);
            return new Object[] {in.floats(997, -2f, 2f), FloatArray.fromArray(in.floats(13, -3f, 3f)), new float[N], new long[N], new int[N], n, 5}; }).run();
  }

  /** Counters: AtomicIntegers every work-item updates; their final values are Java's on every device. */
  @Test
  void atomicCounts() {
    KernelCheck.of("ArrayKernels.atomicCounts", ArrayKernels::atomicCounts)
        .args(() -> new Object[] {new Inputs(170).floats(N, -2f, 2f), new java.util.concurrent.atomic.AtomicInteger(7),
            new java.util.concurrent.atomic.AtomicInteger(0), new java.util.concurrent.atomic.AtomicInteger(-100), new int[1]}).run();
  }

  @Test
  void lengthAndGetSize() {
    KernelCheck.of("ArrayKernels.lengthAndGetSize", ArrayKernels::lengthAndGetSize)
        .args(() -> { Inputs in = new Inputs(164); return new Object[] {in.ints(N), in.intArray(31, -9, 9), new int[N]}; }).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 7, 997})
  void privateWindowMedian(int n) {
    KernelCheck.of("ArrayKernels.privateWindowMedian", ArrayKernels::privateWindowMedian)
        .args(() -> new Object[] {new Inputs(165).floats(n, -1, 1), new float[n]}).run();
  }

  @ParameterizedTest
  @CsvSource({"1, 1", "31, 97"})
  void privateHistogram(int rows, int cols) {
    KernelCheck.of("ArrayKernels.privateHistogram", ArrayKernels::privateHistogram)
        .args(() -> new Object[] {new Inputs(166).ints(rows * cols), new int[16 * rows], cols}).run();
  }

  @Test
  void privateArrayStartsZeroed() {
    KernelCheck.of("ArrayKernels.privateArrayStartsZeroed", ArrayKernels::privateArrayStartsZeroed)
        .args(() -> new Object[] {new Inputs(167).ints(N), new int[N]}).run();
  }

  @Test
  void inPlace() {
    KernelCheck.of("ArrayKernels.inPlace", ArrayKernels::inPlace).args(() -> new Object[] {new Inputs(168).anyFloats(N)}).run();
  }

  @Test
  void sameArrayTwice() {
    KernelCheck.of("ArrayKernels.sameArrayTwice", ArrayKernels::sameArrayTwice)
        .args(() -> { int[] a = new Inputs(169).ints(N); return new Object[] {a, a}; }).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 97, 4099, 100_003})
  void reduceSumInt(int n) {
    // The initial out[0] is part of the result.
    KernelCheck.of("ArrayKernels.reduceSumInt", ArrayKernels::reduceSumInt)
        .args(() -> new Object[] {new Inputs(170).ints(n), new int[] {12345}}).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 97, 4099, 100_003})
  void reduceSumFloat(int n) {
    // Multiples of 1/64 below 1 with a total below 2^18: every partial sum is exact, so any order gives the same bits.
    KernelCheck.of("ArrayKernels.reduceSumFloat", ArrayKernels::reduceSumFloat)
        .args(() -> { int[] k = new Inputs(171).ints(n, 0, 64); float[] v = new float[n];
          for (int i = 0; i < n; i++) v[i] = k[i] / 64f;
          return new Object[] {FloatArray.fromArray(v), FloatArray.fromElements(0.5f)}; }).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4099})
  void reduceMax(int n) {
    KernelCheck.of("ArrayKernels.reduceMax", ArrayKernels::reduceMax)
        .args(() -> new Object[] {new Inputs(172).floats(n, -1e6f, 1e6f), new float[] {Float.NEGATIVE_INFINITY}}).run();
  }

  @Test
  void reduceMaxKeepsTheInitialValueWhenItIsLargest() {
    KernelCheck.of("ArrayKernels.reduceMax", ArrayKernels::reduceMax)
        .args(() -> new Object[] {new Inputs(173).floats(997, -1, 1), new float[] {2f}}).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1})
  void pingPong(int step) {
    KernelCheck.of("ArrayKernels.pingPong", ArrayKernels::pingPong)
        .args(() -> { Inputs in = new Inputs(174);
          return new Object[] {in.floatArray(N, -1, 1), in.floatArray(N, -1, 1), new FloatArray(N), step}; }).run();
  }

  @Test
  void chosenPerItem() {
    KernelCheck.of("ArrayKernels.chosenPerItem", ArrayKernels::chosenPerItem)
        .args(() -> { Inputs in = new Inputs(175);
          return new Object[] {in.ints(7, -9, 9), in.ints(13, -9, 9), in.ints(29, -9, 9), in.ints(N, -100, 100), new int[N], new int[N],
              new int[N]}; }).run();
  }
}
