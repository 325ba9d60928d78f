// Arrays made in a kernel with a size known at launch (new float[n]): Java's results, length and checks on every device, and what is refused.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.types.Float4;
import dev.loopjit.types.Int2;
import dev.loopjit.types.VectorDouble;
import dev.loopjit.types.VectorFloat4;
import dev.loopjit.types.VectorInt2;
import org.junit.jupiter.api.Test;

/**
 * {@code new float[n]} inside a kernel, n a parameter or an array's length: each work-item gets its
 * own array of n zeros, whose {@code length} is n and whose indices from n up fail as in Java —
 * whatever room the device reserved for it (the next power of two of n, at least 16, up to 16,384). A negative n is Java's NegativeArraySizeException, a size past 16,384 a clear refusal,
 * both before anything runs and alike on every device; a size the host cannot know before the
 * launch (read from an array) is refused at its line.
 */
class LaunchSizedArraysTest {
  /** Each work-item doubles its row of n into its own array, sums it backwards, and reports its length. */
  static void reversedRowSums(float[] a, float[] out, int[] lengths, int n) {
    for (@Parallel int i = 0; i < out.length; i++) {
      float[] t = new float[n];
      for (int k = 0; k < n; k++) t[k] = a[i * n + k] * 2f;
      float s = 0f;
      for (int k = t.length - 1; k >= 0; k--) s += t[k];
      out[i] = s;
      lengths[i] = t.length;
    }
  }

  /** A size from an array's length, through a variable; ints and doubles too. */
  static void halves(float[] a, int[] counts, double[] sums) {
    for (@Parallel int i = 0; i < counts.length; i++) {
      int half = a.length / 2;
      int[] c = new int[half];
      double[] d = new double[half + 1];
      for (int k = 0; k < half; k++) {
        c[k] = k % 3 == 0 ? 1 : 0;
        d[k + 1] = d[k] + a[k] * (i + 1);
      }
      int total = 0;
      for (int k = 0; k < c.length; k++) total += c[k];
      counts[i] = total;
      sums[i] = d[half];
    }
  }

  /** Made anew in every round: Java's zeros each time, whatever the last round wrote. */
  static void freshEachRound(float[] out, int n) {
    for (@Parallel int i = 0; i < out.length; i++) {
      float s = 0f;
      for (int r = 0; r < 3; r++) {
        float[] t = new float[n];
        s += t[r % n];
        t[r % n] = 5f;
      }
      out[i] = s;
    }
  }

  /** One work-item, no parallel loop: a scratch row as long as the output (TornadoVM's flash attention's accumulator). */
  static void prefixSums(float[] in, float[] out) {
    float[] acc = new float[out.length];
    float s = 0f;
    for (int k = 0; k < acc.length; k++) {
      s += in[k];
      acc[k] = s;
    }
    for (int k = 0; k < acc.length; k++) out[k] = acc[k];
  }

  /**
   * Vector collections made in the kernel, as TornadoVM's tests write them: n Float4s (n known at
   * launch), summed; three Int2s (a constant length); a VectorDouble of n, its length read back.
   */
  static void privateVectors(VectorFloat4 out, VectorInt2 pairs, double[] lengths) {
    VectorFloat4 v = new VectorFloat4(out.getLength());
    for (int i = 0; i < v.getLength(); i++) v.set(i, new Float4(i, i * 2, -i, 0.5f * i));
    Float4 sum = new Float4(0, 0, 0, 0);
    for (int i = 0; i < v.getLength(); i++) sum = Float4.add(v.get(i), sum);
    out.set(0, sum);
    out.set(1, v.get(v.getLength() - 1));
    VectorInt2 c = new VectorInt2(3);
    for (int i = 0; i < c.getLength(); i++) c.set(i, new Int2(i, i * i));
    pairs.set(0, Int2.add(c.get(1), c.get(2)));
    VectorDouble d = new VectorDouble(out.getLength() + 1);
    d.set(d.getLength() - 1, 2.5);
    lengths[0] = d.getLength() + d.get(d.getLength() - 1) + d.get(0);
  }

  /** A @Parallel loop over an array made before it (TornadoVM's CodeFail.foo): as many iterations as it has elements. */
  static void overItsLength(float[] a, int n) {
    float[] x = new float[a.length % n];
    for (@Parallel int i = 0; i < x.length; i++) a[i] = a[i] * a[i] + x[i];
  }

  /** t[i] for i up to out.length - 1: past the end of t where n < out.length. */
  static void readAt(float[] out, int n) {
    for (@Parallel int i = 0; i < out.length; i++) {
      float[] t = new float[n];
      out[i] = t[i] + 1f;
    }
  }

  /** A size read from an array: not known before the launch. */
  static void sizeFromMemory(float[] a, float[] out) {
    for (@Parallel int i = 0; i < out.length; i++) {
      float[] t = new float[(int) a[0]];
      out[i] = t.length;
    }
  }

  private static float[] ramp(int n) {
    float[] a = new float[n];
    for (int i = 0; i < n; i++) a[i] = (i % 11) * 0.25f - 1f;
    return a;
  }

  @Test
  void eachWorkItemHasItsOwnArrayOfNAsJavaDoes() {
    // 5 and 0 fit the room reserved by default (16), 300 and 16,384 need more
    for (int n : new int[] {5, 0, 300, 16384}) {
      int rows = n == 16384 ? 2 : 6;
      float[] a = ramp(rows * n), expected = new float[rows];
      int[] expectedLengths = new int[rows];
      reversedRowSums(a, expected, expectedLengths, n);
      for (Device d : Devices.all()) {
        float[] out = new float[rows];
        int[] lengths = new int[rows];
        PrintedKernels.run(new TaskGraph("g").task("t", LaunchSizedArraysTest::reversedRowSums, a, out, lengths, n)
            .transferToHost(DataTransferMode.EVERY_EXECUTION, out, lengths), d);
        assertArrayEquals(expected, out, d.id() + " n=" + n);
        assertArrayEquals(expectedLengths, lengths, d.id() + " n=" + n + ": the length is n");
      }
    }
  }

  @Test
  void sizesFromLengthsThroughVariablesOfEveryElementType() {
    float[] a = ramp(21);
    int[] expectedCounts = new int[4];
    double[] expectedSums = new double[4];
    halves(a, expectedCounts, expectedSums);
    for (Device d : Devices.all()) {
      if (d.id().startsWith("opencl") && !d.supportsFp64()) continue;
      int[] counts = new int[4];
      double[] sums = new double[4];
      PrintedKernels.run(new TaskGraph("g").task("t", LaunchSizedArraysTest::halves, a, counts, sums)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, counts, sums), d);
      assertArrayEquals(expectedCounts, counts, d.id());
      assertArrayEquals(expectedSums, sums, d.id());
    }
  }

  @Test
  void madeAnewInEveryRoundAndInAKernelOfOneWorkItem() {
    float[] in = ramp(40), expectedPrefix = new float[40];
    prefixSums(in, expectedPrefix);
    for (Device d : Devices.all()) {
      float[] out = new float[8];
      PrintedKernels.run(new TaskGraph("g").task("t", LaunchSizedArraysTest::freshEachRound, out, 2)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, out), d);
      assertArrayEquals(new float[8], out, d.id() + ": zeros in every round");

      float[] prefix = new float[40];
      PrintedKernels.run(new TaskGraph("g").task("t", LaunchSizedArraysTest::prefixSums, in, prefix)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, prefix), d);
      assertArrayEquals(expectedPrefix, prefix, d.id());
    }
  }

  @Test
  void vectorCollectionsMadeInTheKernel() {
    VectorFloat4 expected = new VectorFloat4(20);
    VectorInt2 expectedPairs = new VectorInt2(1);
    double[] expectedLengths = new double[1];
    privateVectors(expected, expectedPairs, expectedLengths);
    for (Device d : Devices.all()) {
      if (d.id().startsWith("opencl") && !d.supportsFp64()) continue;
      VectorFloat4 out = new VectorFloat4(20);
      VectorInt2 pairs = new VectorInt2(1);
      double[] lengths = new double[1];
      PrintedKernels.run(new TaskGraph("g").task("t", LaunchSizedArraysTest::privateVectors, out, pairs, lengths)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, out, pairs, lengths), d);
      for (int i = 0; i < 20; i++) assertEquals(expected.get(i).toString(), out.get(i).toString(), d.id() + " at " + i);
      assertEquals(expectedPairs.get(0).toString(), pairs.get(0).toString(), d.id());
      assertArrayEquals(expectedLengths, lengths, d.id());
    }
  }

  @Test
  void aParallelLoopOverAnArrayMadeBeforeIt() {
    for (int n : new int[] {7, 10}) {   // 25 % 7 = 4 iterations, 25 % 10 = 5
      float[] expected = ramp(25);
      overItsLength(expected, n);
      for (Device d : Devices.all()) {
        float[] a = ramp(25);
        PrintedKernels.run(new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a)
            .task("t", LaunchSizedArraysTest::overItsLength, a, n).transferToHost(DataTransferMode.EVERY_EXECUTION, a), d);
        assertArrayEquals(expected, a, d.id() + " n=" + n);
      }
    }
  }

  @Test
  void anIndexFromNUpFailsAsInJavaWhateverRoomTheDeviceReserved() {
    for (Device d : Devices.all()) {
      float[] out = new float[12];   // 7 within the 16 reserved: the check is against 7
      KernelIndexOutOfBoundsException e = assertThrows(KernelIndexOutOfBoundsException.class,
          () -> PrintedKernels.run(new TaskGraph("g").task("t", LaunchSizedArraysTest::readAt, out, 7)
              .transferToHost(DataTransferMode.EVERY_EXECUTION, out), d), d.id());
      assertTrue(e.index() >= 7 && e.index() < 12, d.id() + ": " + e.getMessage());
      assertEquals(7, e.length(), d.id() + ": " + e.getMessage());
      assertArrayEquals(new float[12], out, d.id() + ": out unchanged");

      float[] fits = new float[7];
      PrintedKernels.run(new TaskGraph("g").task("t", LaunchSizedArraysTest::readAt, fits, 7).transferToHost(DataTransferMode.EVERY_EXECUTION, fits), d);
      assertArrayEquals(new float[] {1, 1, 1, 1, 1, 1, 1}, fits, d.id());
    }
  }

  @Test
  void aNegativeOrTooLargeSizeIsRefusedBeforeAnythingRunsOnEveryDevice() {
    for (Device d : Devices.all()) {
      float[] out = new float[4];
      java.util.Arrays.fill(out, 3f);
      NegativeArraySizeException negative = assertThrows(NegativeArraySizeException.class,
          () -> PrintedKernels.run(new TaskGraph("g").task("t", LaunchSizedArraysTest::readAt, out, -2)
              .transferToHost(DataTransferMode.EVERY_EXECUTION, out), d), d.id());
      assertTrue(negative.getMessage().contains("-2"), negative.getMessage());
      IllegalArgumentException large = assertThrows(IllegalArgumentException.class,
          () -> PrintedKernels.run(new TaskGraph("g").task("t", LaunchSizedArraysTest::readAt, out, 16385)
              .transferToHost(DataTransferMode.EVERY_EXECUTION, out), d), d.id());
      assertTrue(large.getMessage().contains("16385") && large.getMessage().contains("16384"), large.getMessage());
      assertArrayEquals(new float[] {3, 3, 3, 3}, out, d.id() + ": out unchanged");
    }
  }

  @Test
  void aSizeReadFromAnArrayIsRefusedAtItsLineOnEveryDevice() {
    for (Device d : Devices.all()) {
      float[] a = {4f}, out = new float[3];
      KernelCompilationException e = assertThrows(KernelCompilationException.class,
          () -> PrintedKernels.run(new TaskGraph("g").task("t", LaunchSizedArraysTest::sizeFromMemory, a, out)
              .transferToHost(DataTransferMode.EVERY_EXECUTION, out), d), d.id());
      assertTrue(e.getMessage().contains("LaunchSizedArraysTest.java:") && e.getMessage().contains("reads an array element"), e.getMessage());
    }
  }
}
