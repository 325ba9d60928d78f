// Bounds proven at launch: an index built from sums and products of counts, lengths and parameters runs unchecked only when the host proves it in range.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@code a[i * k + p]} is not proven by the compiler, but for a task's arguments the host evaluates
 * its bound, {@code (m - 1) · k + (k - 1)}, and runs the unchecked kernel when it is below
 * {@code a.length} with every step within int. Where the bound is not below the length, or a step
 * would wrap (Java's int arithmetic would have given another index), or a parameter is negative,
 * the checked kernel runs and fails as the jvm does.
 */
class LaunchProofTest {
  /** Naive matmul, with its row offsets in variables. */
  static void matmul(float[] a, float[] b, float[] c, int m, int n, int k) {
    for (@Parallel int i = 0; i < m; i++)
      for (@Parallel int j = 0; j < n; j++) {
        int row = i * k;
        float acc = 0f;
        for (int p = 0; p < k; p++) acc += a[row + p] * b[p * n + j];
        c[i * n + j] = acc;
      }
  }

  /** {@code out[i] = a[i * s]}: in range only for some strides. */
  static void strided(float[] a, float[] out, int s) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = a[i * s] + 1f;
  }

  /** A dense layer through a helper with offsets: the helper's parameters are locals assigned once, bounds all the same. */
  static void dense(float[] x, float[] w, float[] y, int batch, int in, int out) {
    denseAt(x, w, 0, y, batch, in, out);
  }

  static void denseAt(float[] x, float[] w, int offset, float[] y, int batch, int in, int out) {
    for (@Parallel int r = 0; r < batch; r++)
      for (@Parallel int o = 0; o < out; o++) {
        float acc = 0f;
        for (int i = 0; i < in; i++) acc += x[r * in + i] * w[offset + o * in + i];
        y[r * out + o] = acc;
      }
  }

  /** A parameter the kernel assigns is no bound: s grows in one work-item. */
  static void grows(float[] a, float[] out, int s) {
    for (@Parallel int i = 0; i < out.length; i++) {
      if (i == 3) s = 1 << 20;
      else s = 1;   // every iteration assigns s before reading it (else it would be a value carried between iterations, refused)
      out[i] = a[i * s];
    }
  }

  /** {@code p - 1} wraps to Integer.MAX_VALUE for p = Integer.MIN_VALUE: it is not below p. */
  static void belowAParameter(float[] a, float[] out, int p) {
    for (@Parallel int i = 0; i < out.length; i++) {
      int t = p - 1;
      if (t >= 0) out[i] = a[t];
    }
  }

  /** Two rows of c from one offset moved on ({@code o += n}): the new offset's bound is the old one's plus n. */
  static void twoRows(float[] a, float[] c, int n) {
    for (@Parallel int j = 0; j < n; j++) {
      int o = j;
      c[o] = a[o] + 1f;
      o += n;
      c[o] = a[o] + 2f;
    }
  }

  /** A row as long as a private array: its constant length is a bound like any other. */
  static void privateRow(float[] a, float[] out) {
    for (@Parallel int i = 0; i < out.length; i++) {
      float[] t = new float[4];
      for (int k = 0; k < t.length; k++) t[k] = a[i * t.length + k];
      out[i] = t[0] + t[3];
    }
  }

  /** Max-pool backward's gather: plane, row and window from {@code /} and {@code %}, the window clamped with {@code Math.min}. */
  static void poolGather(float[] dy, float[] dx, int planes, int height, int width, int stride, int outH, int outW) {
    for (@Parallel int r = 0; r < planes * height; r++)
      for (@Parallel int iw = 0; iw < width; iw++) {
        int plane = r / height, ih = r % height, oh = ih / stride, ow = iw / stride;
        int o = plane * outH * outW + Math.min(oh, outH - 1) * outW + Math.min(ow, outW - 1);
        dx[r * width + iw] = dy[o] + 1f;
      }
  }

  /** Blocks of four per row, their count computed inside the parallel loop: {@code blocks} and {@code last} are assigned once from parameters, bounds like them. */
  static void blockEnds(float[] a, float[] out, int rows, int n) {
    for (@Parallel int rb = 0; rb < rows * ((n + 3) / 4); rb++) {
      int blocks = (n + 3) / 4, r = rb / blocks, j = rb % blocks * 4, last = n - 1;
      out[rb] = a[r * n + j] + a[r * n + Math.min(j + 3, last)];
    }
  }

  /**
   * A 3 × 3 box sum with zeros outside the image (a convolution's padding): {@code x} is read only
   * where the {@code ?:}'s guard holds, and the guard bounds the index.
   */
  static void box(float[] x, float[] out, int planes, int height, int width) {
    for (@Parallel int r = 0; r < planes * height; r++)
      for (@Parallel int c = 0; c < width; c++) {
        int plane = r / height, h = r % height, from = plane * height * width;
        float s = 0f;
        for (int kh = 0; kh < 3; kh++)
          for (int kw = 0; kw < 3; kw++) {
            int ih = h + kh - 1, iw = c + kw - 1;
            s += ih >= 0 && ih < height && iw >= 0 && iw < width ? x[from + ih * width + iw] : 0f;
          }
        out[r * width + c] = s;
      }
  }

  /** {@link #box} with a guard that lets {@code iw} reach {@code width} (the next row's first pixel, past the end in the last row). */
  static void boxOffByOne(float[] x, float[] out, int planes, int height, int width) {
    for (@Parallel int r = 0; r < planes * height; r++)
      for (@Parallel int c = 0; c < width; c++) {
        int plane = r / height, h = r % height, from = plane * height * width;
        float s = 0f;
        for (int kh = 0; kh < 3; kh++)
          for (int kw = 0; kw < 3; kw++) {
            int ih = h + kh - 1, iw = c + kw - 1;
            s += ih >= 0 && ih < height && iw >= 0 && iw <= width ? x[from + ih * width + iw] : 0f;
          }
        out[r * width + c] = s;
      }
  }

  /** Each pixel plus its plane's first pixel: a quotient by a product of parameters ({@code im2col}'s image of a position). */
  static void plusPlaneStart(float[] x, float[] out, int height, int width) {
    for (@Parallel int i = 0; i < out.length; i++) out[i] = x[i] + x[i / (height * width) * height * width];
  }

  /** The pixel above, read only where the {@code &&}'s left side says there is one: 1 where it is positive. */
  static void positiveAbove(float[] x, int[] out, int planes, int height, int width) {
    for (@Parallel int r = 0; r < planes * height; r++)
      for (@Parallel int c = 0; c < width; c++) {
        int plane = r / height, ih = r % height - 1;
        out[r * width + c] = ih >= 0 && ih < height && x[(plane * height + ih) * width + c] > 0f ? 1 : 0;
      }
  }

  private static float[] ramp(int n) {
    float[] a = new float[n];
    for (int i = 0; i < n; i++) a[i] = (i % 7) * 0.5f;
    return a;
  }


  @Test
  void matmulRunsUncheckedWhenTheArraysHoldTheProductsAndCheckedOtherwise() {
    int m = 5, n = 7, k = 6;
    float[] b = ramp(k * n), expected = new float[m * n];
    matmul(ramp(m * k), b, expected, m, n, k);
    for (Device d : Devices.all()) {
      float[] a = ramp(m * k), c = new float[m * n];
      String code = PrintedKernels.run(new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a, b)
          .task("t", LaunchProofTest::matmul, a, b, c, m, n, k).transferToHost(DataTransferMode.EVERY_EXECUTION, c), d);
      assertArrayEquals(expected, c, d.id());
      if (!d.equals(Devices.jvm())) assertFalse(code.contains("bounds_report"), d.id() + " runs the unchecked kernel:\n" + code);

      float[] shortA = ramp(m * k - 1), c2 = new float[m * n];
      KernelIndexOutOfBoundsException e = assertThrows(KernelIndexOutOfBoundsException.class,
          () -> PrintedKernels.run(new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, shortA, b)
              .task("t", LaunchProofTest::matmul, shortA, b, c2, m, n, k).transferToHost(DataTransferMode.EVERY_EXECUTION, c2), d), d.id());
      assertEquals("a", e.array(), e.getMessage());
      assertEquals(m * k - 1, e.index(), e.getMessage());   // only the last row's last product is past the end
      assertArrayEquals(new float[m * n], c2, d.id() + ": c unchanged");
    }
  }

  /**
   * A kernel proven at launch computes the proven indices as plain signed int, which a C compiler
   * may treat as never wrapping: {@code a[row + p]}, {@code b[p * n + j]}, {@code c[i * n + j]} and the
   * variable {@code row = i * k} in OpenCL C, with no {@code as_int((uint)…)} (coarsening off, so that
   * the indices stay as written).
   */
  @Test
  void provenIndicesAreSignedArithmetic() {
    int m = 8, n = 8, k = 8;
    float[] b = ramp(k * n), expected = new float[m * n];
    matmul(ramp(m * k), b, expected, m, n, k);
    int openClC = 0;
    for (Device d : Devices.all()) {
      float[] a = ramp(m * k), c = new float[m * n];
      String code = PrintedKernels.run(new TaskGraph("g").transferToDevice(DataTransferMode.EVERY_EXECUTION, a, b)
          .task("t", LaunchProofTest::matmul, a, b, c, m, n, k).transferToHost(DataTransferMode.EVERY_EXECUTION, c), d, java.util.Map.of("lanes", "1"));
      assertArrayEquals(expected, c, d.id());
      if (!code.contains("__kernel")) continue;   // not OpenCL C
      openClC++;
      for (String array : new String[] {"a_[", "b_[", "c_["}) {
        int at = code.indexOf(array);
        assertTrue(at >= 0, code);
        String index = code.substring(at, code.indexOf(']', at));
        assertFalse(index.contains("(uint)"), d.id() + ": " + index + " is signed:\n" + code);
      }
      java.util.regex.Matcher row = java.util.regex.Pattern.compile("\\n\\s*row_ = ([^;]*);").matcher(code);
      assertTrue(row.find(), code);
      assertFalse(row.group(1).contains("(uint)"), d.id() + ": the index variable row is computed signed too: " + row.group(1));
    }
    boolean openClC1 = Devices.all().stream().anyMatch(d -> d.id().startsWith("opencl") && !"spirv".equals(System.getProperty("loopjit.opencl.program")));
    assertTrue(!openClC1 || openClC > 0, "no OpenCL C was printed");
  }

  /**
   * A read under a {@code ?:} or the right side of {@code &&} is bounded by the conditions Java
   * evaluates it under, as a read inside an {@code if} is: the padded box sum and the pixel above run
   * unchecked on every device. A guard that does not bound the index (one pixel too far) leaves the
   * kernel checked, and it fails where Java fails, {@code out} unchanged.
   */
  @Test
  void readsUnderAConditionAreBoundedByIt() {
    int planes = 3, height = 5, width = 6;
    float[] x = ramp(planes * height * width), expected = new float[planes * height * width];
    int[] expectedAbove = new int[planes * height * width];
    for (int i = 0; i < x.length; i++) x[i] -= 1.25f;   // some negative, some positive
    box(x, expected, planes, height, width);
    positiveAbove(x, expectedAbove, planes, height, width);
    for (Device d : Devices.all()) {
      float[] out = new float[expected.length];
      String code = PrintedKernels.run(new TaskGraph("g").task("t", LaunchProofTest::box, x, out, planes, height, width)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, out), d);
      assertArrayEquals(expected, out, d.id());
      if (!d.equals(Devices.jvm())) assertFalse(code.contains("bounds_report"), d.id() + " runs the unchecked kernel:\n" + code);

      int[] above = new int[expectedAbove.length];
      code = PrintedKernels.run(new TaskGraph("g").task("t", LaunchProofTest::positiveAbove, x, above, planes, height, width)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, above), d);
      assertArrayEquals(expectedAbove, above, d.id());
      if (!d.equals(Devices.jvm())) assertFalse(code.contains("bounds_report"), d.id() + " runs the unchecked kernel:\n" + code);

      float[] out2 = new float[expected.length];
      KernelIndexOutOfBoundsException e = assertThrows(KernelIndexOutOfBoundsException.class,
          () -> PrintedKernels.run(new TaskGraph("g").task("t", LaunchProofTest::boxOffByOne, x, out2, planes, height, width)
              .transferToHost(DataTransferMode.EVERY_EXECUTION, out2), d), d.id());
      assertEquals("x", e.array(), e.getMessage());
      assertEquals(x.length, e.index(), e.getMessage());   // the last row's last pixel, reaching one past its end
      assertArrayEquals(new float[expected.length], out2, d.id() + ": out unchanged");
    }
  }

  /** A quotient by a product of parameters is bounded as one by a parameter: {@code i / (h · w) · h · w} runs unchecked. */
  @Test
  void quotientsByProductsOfParametersAreBounded() {
    int planes = 3, height = 4, width = 5;
    float[] x = ramp(planes * height * width), expected = new float[x.length];
    plusPlaneStart(x, expected, height, width);
    for (Device d : Devices.all()) {
      float[] out = new float[x.length];
      String code = PrintedKernels.run(new TaskGraph("g").task("t", LaunchProofTest::plusPlaneStart, x, out, height, width)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, out), d);
      assertArrayEquals(expected, out, d.id());
      if (!d.equals(Devices.jvm())) assertFalse(code.contains("bounds_report"), d.id() + " runs the unchecked kernel:\n" + code);
    }
  }

  /**
   * Quotients, remainders and minima by values fixed for the launch are bounded too: {@code dy[o]}
   * runs unchecked when the host proves {@code o < dy.length}. Where it cannot — dy too short, a
   * negative stride (a quotient below 0), {@code outH = 0} (so {@code outH - 1} is negative) — the
   * checked kernel runs and fails as the jvm does, dx unchanged.
   */
  @Test
  void quotientsRemaindersAndMinimaAreBoundedAtLaunch() {
    int planes = 3, height = 5, width = 7, stride = 2, outH = 3, outW = 4;
    float[] dy = ramp(planes * outH * outW), expected = new float[planes * height * width];
    poolGather(dy, expected, planes, height, width, stride, outH, outW);
    for (Device d : Devices.all()) {
      float[] dx = new float[planes * height * width];
      String code = PrintedKernels.run(new TaskGraph("g").task("t", LaunchProofTest::poolGather, dy, dx, planes, height, width, stride, outH, outW)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, dx), d);
      assertArrayEquals(expected, dx, d.id());
      if (!d.equals(Devices.jvm())) assertFalse(code.contains("bounds_report"), d.id() + " runs the unchecked kernel:\n" + code);

      // {dy length, stride, outH}: too short by one; a negative stride; no output rows
      for (int[] bad : new int[][] {{planes * outH * outW - 1, stride, outH}, {planes * outH * outW, -1, outH}, {planes * outH * outW, stride, 0}}) {
        float[] shortDy = ramp(bad[0]), dx2 = new float[planes * height * width];
        java.util.Set<Integer> javaFails = new java.util.HashSet<>();
        for (int r = 0; r < planes * height; r++)
          for (int iw = 0; iw < width; iw++) {
            int o = r / height * bad[2] * outW + Math.min(r % height / bad[1], bad[2] - 1) * outW + Math.min(iw / bad[1], outW - 1);
            if (o < 0 || o >= bad[0]) javaFails.add(o);
          }
        KernelIndexOutOfBoundsException e = assertThrows(KernelIndexOutOfBoundsException.class,
            () -> PrintedKernels.run(new TaskGraph("g").task("t", LaunchProofTest::poolGather, shortDy, dx2, planes, height, width, bad[1], bad[2], outW)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, dx2), d), d.id() + " " + java.util.Arrays.toString(bad));
        assertEquals("dy", e.array(), e.getMessage());
        assertTrue(javaFails.contains(e.index()), e.getMessage() + ": an index Java fails at, of " + javaFails);
        assertArrayEquals(new float[planes * height * width], dx2, d.id() + ": dx unchanged");
      }
    }
  }

  @Test
  void aLocalAssignedOnceFromParametersIsABound() {
    int rows = 3, n = 10, blocks = (n + 3) / 4;
    float[] a = ramp(rows * n), expected = new float[rows * blocks];
    blockEnds(a, expected, rows, n);
    for (Device d : Devices.all()) {
      float[] out = new float[rows * blocks];
      String code = PrintedKernels.run(new TaskGraph("g").task("t", LaunchProofTest::blockEnds, a, out, rows, n).transferToHost(DataTransferMode.EVERY_EXECUTION, out), d);
      assertArrayEquals(expected, out, d.id());
      if (!d.equals(Devices.jvm())) assertFalse(code.contains("bounds_report"), d.id() + " runs the unchecked kernel:\n" + code);

      float[] shortA = ramp(rows * n - 1), out2 = new float[rows * blocks];
      KernelIndexOutOfBoundsException e = assertThrows(KernelIndexOutOfBoundsException.class,
          () -> PrintedKernels.run(new TaskGraph("g").task("t", LaunchProofTest::blockEnds, shortA, out2, rows, n)
              .transferToHost(DataTransferMode.EVERY_EXECUTION, out2), d), d.id());
      assertEquals("a", e.array(), e.getMessage());
      assertEquals(rows * n - 1, e.index(), e.getMessage());   // only the last row's last block ends past it
      assertArrayEquals(new float[rows * blocks], out2, d.id() + ": out unchanged");
    }
  }

  @Test
  void aProductThatWouldWrapOrANegativeParameterKeepsTheChecks() {
    for (Device d : Devices.all()) {
      float[] a = ramp(8), out = new float[4];
      String code = PrintedKernels.run(new TaskGraph("g").task("t", LaunchProofTest::strided, a, out, 2).transferToHost(DataTransferMode.EVERY_EXECUTION, out), d);
      for (int i = 0; i < 4; i++) assertEquals(a[2 * i] + 1f, out[i], d.id());
      if (!d.equals(Devices.jvm())) assertFalse(code.contains("bounds_report"), d.id() + " runs the unchecked kernel:\n" + code);

      // 2 · 2^30 wraps to Integer.MIN_VALUE in Java; 3 · 2^30 to -2^30: the bound does not fit in an int
      for (int s : new int[] {1 << 30, -1, 3}) {
        float[] o = new float[4];
        KernelIndexOutOfBoundsException e = assertThrows(KernelIndexOutOfBoundsException.class,
            () -> PrintedKernels.run(new TaskGraph("g").task("t", LaunchProofTest::strided, a, o, s).transferToHost(DataTransferMode.EVERY_EXECUTION, o), d),
            d.id() + " s=" + s);
        assertEquals("a", e.array(), e.getMessage());
        assertTrue(e.index() < 0 || e.index() >= 8, e.getMessage());
        assertTrue(e.index() == 1 * s || e.index() == 2 * s || e.index() == 3 * s, e.getMessage() + ": an index Java computes");
        assertArrayEquals(new float[4], o, d.id() + ": out unchanged");
      }
    }
  }

  @Test
  void aHelpersCopiesOfItsParametersAreBoundsToo() {
    int batch = 3, in = 5, out = 4;
    float[] x = ramp(batch * in), w = ramp(out * in), expected = new float[batch * out];
    dense(x, w, expected, batch, in, out);
    for (Device d : Devices.all()) {
      float[] y = new float[batch * out];
      String code = PrintedKernels.run(new TaskGraph("g").task("t", LaunchProofTest::dense, x, w, y, batch, in, out).transferToHost(DataTransferMode.EVERY_EXECUTION, y), d);
      assertArrayEquals(expected, y, d.id());
      if (!d.equals(Devices.jvm())) assertFalse(code.contains("bounds_report"), d.id() + " runs the unchecked kernel:\n" + code);
    }
  }

  @Test
  void aParameterTheKernelAssignsIsNoBound() {
    for (Device d : Devices.all()) {
      float[] a = ramp(4), out = new float[4];
      KernelIndexOutOfBoundsException e = assertThrows(KernelIndexOutOfBoundsException.class,
          () -> PrintedKernels.run(new TaskGraph("g").task("t", LaunchProofTest::grows, a, out, 1).transferToHost(DataTransferMode.EVERY_EXECUTION, out), d), d.id());
      assertEquals(3 << 20, e.index(), e.getMessage());
      assertArrayEquals(new float[4], out, d.id() + ": out unchanged");
    }
  }

  @Test
  void aParameterMinusOneIsNotBelowIt() {
    for (Device d : Devices.all()) {
      float[] a = ramp(4), out = new float[4];
      KernelIndexOutOfBoundsException e = assertThrows(KernelIndexOutOfBoundsException.class,
          () -> PrintedKernels.run(new TaskGraph("g").task("t", LaunchProofTest::belowAParameter, a, out, Integer.MIN_VALUE)
              .transferToHost(DataTransferMode.EVERY_EXECUTION, out), d), d.id());
      assertEquals(Integer.MAX_VALUE, e.index(), e.getMessage());
      assertArrayEquals(new float[4], out, d.id() + ": out unchanged");
      float[] ok = new float[4];
      PrintedKernels.run(new TaskGraph("g").task("t", LaunchProofTest::belowAParameter, a, ok, 3).transferToHost(DataTransferMode.EVERY_EXECUTION, ok), d);
      for (int i = 0; i < 4; i++) assertEquals(a[2], ok[i], d.id());
    }
  }

  @Test
  void anOffsetMovedOnKeepsItsBound() {
    int n = 6;
    for (Device d : Devices.all()) {
      float[] a = ramp(2 * n), c = new float[2 * n];
      String code = PrintedKernels.run(new TaskGraph("g").task("t", LaunchProofTest::twoRows, a, c, n).transferToHost(DataTransferMode.EVERY_EXECUTION, c), d);
      for (int j = 0; j < n; j++) {
        assertEquals(a[j] + 1f, c[j], d.id());
        assertEquals(a[j + n] + 2f, c[j + n], d.id());
      }
      if (!d.equals(Devices.jvm())) assertFalse(code.contains("bounds_report"), d.id() + " runs the unchecked kernel:\n" + code);
      float[] shortC = new float[2 * n - 1];
      KernelIndexOutOfBoundsException e = assertThrows(KernelIndexOutOfBoundsException.class,
          () -> PrintedKernels.run(new TaskGraph("g").task("t", LaunchProofTest::twoRows, a, shortC, n).transferToHost(DataTransferMode.EVERY_EXECUTION, shortC), d));
      assertEquals(2 * n - 1, e.index(), e.getMessage());
      assertArrayEquals(new float[2 * n - 1], shortC, d.id() + ": c unchanged");
    }
  }

  @Test
  void aPrivateArraysLengthIsABound() {
    for (Device d : Devices.all()) {
      float[] a = ramp(24), out = new float[6];
      String code = PrintedKernels.run(new TaskGraph("g").task("t", LaunchProofTest::privateRow, a, out).transferToHost(DataTransferMode.EVERY_EXECUTION, out), d);
      for (int i = 0; i < 6; i++) assertEquals(a[4 * i] + a[4 * i + 3], out[i], d.id());
      if (!d.equals(Devices.jvm())) assertFalse(code.contains("bounds_report"), d.id() + " runs the unchecked kernel:\n" + code);
      float[] shortA = ramp(23), out2 = new float[6];
      KernelIndexOutOfBoundsException e = assertThrows(KernelIndexOutOfBoundsException.class,
          () -> PrintedKernels.run(new TaskGraph("g").task("t", LaunchProofTest::privateRow, shortA, out2).transferToHost(DataTransferMode.EVERY_EXECUTION, out2), d));
      assertEquals(23, e.index(), e.getMessage());
    }
  }
}
