// Control flow, memory of every element type, arguments, geometry, private and local arrays and atomics, simulated and compared with Java.
package dev.loopjit.backend.cuda;

import static dev.loopjit.backend.cuda.Simulated.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.loopjit.ir.Prim;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PtxProgramTest {
  @Test
  void nestedLoopsWithLabelledBreakAndContinue() {
    int[] a = new int[40], out = new int[40];
    for (int i = 0; i < a.length; i++) a[i] = i - 5;
    run(TestKernels.nestedLoops(), a.length, a, out);
    for (int i = 0; i < a.length; i++) assertEquals(TestKernels.nestedLoopsJava(a[i]), out[i], "x = " + a[i]);
  }

  @Test
  void switchWithFallThroughLabelledBlockAndReturn() {
    int[] a = {-5, 0, 1, 2, 3, 4, 99, 100, -6, Integer.MIN_VALUE, Integer.MAX_VALUE}, out = new int[a.length];
    run(TestKernels.switches(), a.length, a, out);
    for (int i = 0; i < a.length; i++) assertEquals(TestKernels.switchesJava(a[i]), out[i], "a = " + a[i]);
  }

  /** The simulator fails on any access outside an array, so this also shows that && and ?: skip what Java skips. */
  @Test
  void shortCircuitAndSelectEvaluateOnlyWhatJavaDoes() {
    Random r = new Random(7);
    for (int n : new int[] {1, 2, 3, 70}) {
      int[] a = new int[n], out = new int[n];
      for (int i = 0; i < n; i++) a[i] = r.nextInt(4);
      run(TestKernels.guarded(), n, a, out);
      for (int i = 0; i < n; i++) {
        boolean cond = (i + 1 < n && a[i + 1] > a[i]) || (i > 0 && a[i - 1] == 0);
        int expected = cond ? a[i + 1 < n ? i + 1 : i] : (i == 0 ? -1 : a[i - 1]);
        assertEquals(expected, out[i], "n = " + n + ", i = " + i);
      }
    }
  }

  @Test
  void privateArraysAreZeroedAtEachAllocation() {
    int[] a = new int[30], out = new int[30];
    for (int i = 0; i < a.length; i++) a[i] = i * 7;
    run(TestKernels.privateArrays(), a.length, a, out);
    for (int i = 0; i < a.length; i++) assertEquals(TestKernels.privateArraysJava(a[i]), out[i], "a = " + a[i]);
  }

  @Test
  void localArraysWithBarriersAndSharedAtomics() {
    int group = 8, groups = 3, n = group * groups;
    int[] a = new int[n], out = new int[n];
    for (int i = 0; i < n; i++) a[i] = i + 1;
    new PtxSimulator(dev.loopjit.testing.Emit.ptx(TestKernels.localArrays(group), STRICT)).run(new int[] {groups, 1, 1}, new int[] {group, 1, 1}, a, out);
    for (int i = 0; i < n; i++) {
      int g = i / group, lid = i % group;
      assertEquals(a[g * group + group - 1 - lid] * 1000 + group, out[i], "work-item " + i);
    }
  }

  @Test
  void globalAtomics() {
    int n = 100;
    int[] olds = new int[n], ints = new int[1];
    long[] longs = {1L << 40};
    float[] floats = {0f};
    double[] doubles = {1d};
    run(TestKernels.atomics(), n, olds, ints, longs, floats, doubles);
    assertEquals(n * (n + 1) / 2, ints[0]);
    assertEquals((1L << 40) + n * (n - 1) / 2, longs[0]);
    assertEquals(n * 0.5f, floats[0]);
    assertEquals(1 + n * 0.25, doubles[0]);
    assertEquals(n, Arrays.stream(olds).distinct().count(), "every atomic add saw a different old value");
    for (int i = 0; i < n; i++) assertTrue(olds[i] >= 0 && olds[i] + i + 1 <= n * (n + 1) / 2, "old value " + olds[i]);
  }

  @ParameterizedTest
  @EnumSource(Prim.class)
  void loadAndStoreEveryElementType(Prim element) {
    int n = 70;
    Random r = new Random(element.ordinal());
    Object a, out, wide;
    switch (element) {
      case BOOLEAN -> { boolean[] x = new boolean[n]; for (int i = 0; i < n; i++) x[i] = r.nextBoolean(); a = x; out = new boolean[n]; wide = new int[n]; }
      case BYTE -> { byte[] x = new byte[n]; r.nextBytes(x); a = x; out = new byte[n]; wide = new int[n]; }
      case CHAR -> { char[] x = new char[n]; for (int i = 0; i < n; i++) x[i] = (char) r.nextInt(); x[0] = '\uFFFF'; a = x; out = new char[n]; wide = new int[n]; }
      case SHORT -> { short[] x = new short[n]; for (int i = 0; i < n; i++) x[i] = (short) r.nextInt(); x[0] = Short.MIN_VALUE; a = x; out = new short[n]; wide = new int[n]; }
      case INT -> { int[] x = r.ints(n).toArray(); a = x; out = new int[n]; wide = new int[n]; }
      case LONG -> { long[] x = r.longs(n).toArray(); a = x; out = new long[n]; wide = new long[n]; }
      case FLOAT -> { float[] x = new float[n]; for (int i = 0; i < n; i++) x[i] = randomFloat(r); a = x; out = new float[n]; wide = new float[n]; }
      case DOUBLE -> { double[] x = r.doubles(n).toArray(); a = x; out = new double[n]; wide = new double[n]; }
      case HALF -> {
        // binary16 bits, with subnormals, infinities and a NaN among them.
        short[] x = new short[n];
        for (int i = 0; i < n; i++) x[i] = (short) r.nextInt();
        x[0] = 0x0001; x[1] = 0x7C00; x[2] = (short) 0xFC00; x[3] = (short) 0x8000; x[4] = 0x7E00;
        a = x; out = new short[n]; wide = new float[n];
      }
      default -> throw new AssertionError(element);
    }
    run(TestKernels.memory(element), n, a, out, wide);
    for (int i = 0; i < n; i++) {
      String at = element + " at " + i;
      switch (element) {
        case BOOLEAN -> { assertEquals(((boolean[]) a)[i], ((boolean[]) out)[i], at); assertEquals(((boolean[]) a)[i] ? 1 : 0, ((int[]) wide)[i], at); }
        case BYTE -> { assertEquals(((byte[]) a)[i], ((byte[]) out)[i], at); assertEquals(((byte[]) a)[i], ((int[]) wide)[i], at); }
        case CHAR -> { assertEquals(((char[]) a)[i], ((char[]) out)[i], at); assertEquals(((char[]) a)[i], ((int[]) wide)[i], at); }
        case SHORT -> { assertEquals(((short[]) a)[i], ((short[]) out)[i], at); assertEquals(((short[]) a)[i], ((int[]) wide)[i], at); }
        case INT -> { assertEquals(((int[]) a)[i], ((int[]) out)[i], at); assertEquals(((int[]) a)[i], ((int[]) wide)[i], at); }
        case LONG -> { assertEquals(((long[]) a)[i], ((long[]) out)[i], at); assertEquals(((long[]) a)[i], ((long[]) wide)[i], at); }
        case FLOAT -> { assertBits(((float[]) a)[i], ((float[]) out)[i], at); assertBits(((float[]) a)[i], ((float[]) wide)[i], at); }
        case DOUBLE -> { assertBits(((double[]) a)[i], ((double[]) out)[i], at); assertBits(((double[]) a)[i], ((double[]) wide)[i], at); }
        case HALF -> {
          short h = ((short[]) a)[i];
          assertBits(Float.float16ToFloat(h), ((float[]) wide)[i], at);
          if (!Float.isNaN(Float.float16ToFloat(h))) assertEquals(h, ((short[]) out)[i], at);
        }
      }
    }
  }

  /** Sub-32-bit scalars arrive in 4-byte slots; the kernel reads only their low bits, so junk above them is harmless. */
  @Test
  void scalarArgumentsOfEveryType() {
    int[] ints = new int[6];
    long[] longs = new long[1];
    float[] floats = new float[1];
    double[] doubles = new double[1];
    new PtxSimulator(dev.loopjit.testing.Emit.ptx(TestKernels.scalars(), STRICT)).run(new int[] {1, 1, 1}, new int[] {1, 1, 1},
        ints, longs, floats, doubles, 0x5A5A0001, 0x7A5A00FB, 0x1234FED4, 0x0F0FFFFE, -123456789, Long.MIN_VALUE + 5, -0.0f, Double.MIN_VALUE);
    assertArrayEquals(new int[] {1, -5, -300, 0xFFFE, -123456789, 7}, ints);
    assertEquals(Long.MIN_VALUE + 5, longs[0]);
    assertEquals(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits(floats[0]));
    assertEquals(Double.MIN_VALUE, doubles[0]);
  }

  @Test
  void workItemGeometryInThreeDimensions() {
    int[] blocks = {2, 3, 2}, threads = {4, 2, 3};
    int[] global = {8, 6, 6};
    int[] out = new int[8 * 6 * 6 * 15];
    new PtxSimulator(dev.loopjit.testing.Emit.ptx(TestKernels.geometry(), STRICT)).run(blocks, threads, (Object) out);
    for (int z = 0; z < global[2]; z++)
      for (int y = 0; y < global[1]; y++)
        for (int x = 0; x < global[0]; x++) {
          int k = x + global[0] * (y + global[1] * z);
          int[] g = {x, y, z};
          for (int d = 0; d < 3; d++) {
            int at = k * 15 + d * 5;
            String w = "work-item " + Arrays.toString(g) + " dimension " + d;
            assertEquals(g[d], out[at], w + " global id");
            assertEquals(g[d] % threads[d], out[at + 1], w + " local id");
            assertEquals(g[d] / threads[d], out[at + 2], w + " group id");
            assertEquals(threads[d], out[at + 3], w + " local size");
            assertEquals(global[d], out[at + 4], w + " global size");
          }
        }
  }
}
