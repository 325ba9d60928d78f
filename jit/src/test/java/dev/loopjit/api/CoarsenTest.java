// Coarsening on CPU devices: a work-item computes neighbouring iterations of x side by side, bit-identical to the jvm.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Where the trip count in x is a multiple of the lanes and no access needs a check, a CPU device
 * runs the coarsened kernel (the {@code coarsen} pass: lane arrays, {@code count_x / lanes}
 * work-items); otherwise the one-iteration kernel. Either way every bit equals the jvm's.
 */
class CoarsenTest {
  static void matmul(float[] a, float[] b, float[] c, int m, int n, int k) {
    for (@Parallel int i = 0; i < m; i++)
      for (@Parallel int j = 0; j < n; j++) {
        float acc = 0f;
        for (int p = 0; p < k; p++) acc += a[i * k + p] * b[p * n + j];
        c[i * n + j] = acc;
      }
  }

  /** A loop whose trip count differs between lanes: left as one iteration per work-item. */
  static void branchy(float[] a, float[] c, int n) {
    for (@Parallel int j = 0; j < n; j++) {
      float s = 0f;
      for (int p = 0; p < (j & 3); p++) s += a[p * n + j];
      c[j] = s;
    }
  }

  /** No loop reading along x: lanes do not pay, even where the count allows them. */
  static void add(float[] a, float[] b, float[] c) {
    for (@Parallel int i = 0; i < c.length; i++) c[i] = a[i] + b[i];
  }

  /** A row of m per iteration: lanes read across x. */
  static void matrixVector(float[] m, float[] v, float[] out, int cols) {
    for (@Parallel int i = 0; i < out.length; i++) {
      float s = 0f;
      for (int j = 0; j < cols; j++) s += m[i * cols + j] * v[j];
      out[i] = s;
    }
  }

  private static float[] ramp(int n, float scale) {
    float[] a = new float[n];
    for (int i = 0; i < n; i++) a[i] = ((i * 7) % 13 - 6) * scale;
    return a;
  }


  /**
   * m, n: 16 lanes × 4 rows; lanes alone (m is not a multiple of 4); rows of 8 alone (n is not a
   * multiple of 16, m is of 8); neither.
   */
  @Test
  void matmulInLanesAndRowsWhereTheCountsAllowElseOneIterationPerWorkItem() {
    int[][] sizes = {{8, 48}, {5, 48}, {8, 37}, {5, 37}};
    for (int[] size : sizes) {
      int m = size[0], n = size[1], k = 9;
      float[] a = ramp(m * k, 0.37f), b = ramp(k * n, 1.13f), expected = new float[m * n];
      matmul(a, b, expected, m, n, k);
      for (Device d : Devices.all()) {
        float[] c = new float[m * n];
        String code = PrintedKernels.run(new TaskGraph("g").task("t", CoarsenTest::matmul, a, b, c, m, n, k).transferToHost(DataTransferMode.EVERY_EXECUTION, c), d);
        String what = d.id() + " m=" + m + " n=" + n;
        for (int i = 0; i < c.length; i++) assertEquals(Float.floatToRawIntBits(expected[i]), Float.floatToRawIntBits(c[i]), what + " at " + i);
        if (d.id().startsWith("opencl") && d.kind() == Device.Kind.CPU) {
          assertEquals(n % 16 == 0, code.contains("lane_base"), what + ":\n" + code);
          // 37 columns fit no lanes: rows of 8 alone, each work-item one column of 8 rows (their sums side by side)
          assertEquals(n % 16 == 0 ? m % 4 == 0 : m % 8 == 0, code.contains("row_base"), what + ":\n" + code);
          assertEquals(n % 16 != 0 && m % 8 == 0, code.contains("(unchecked, rows 8)"), what + ":\n" + code);
          // the lane loops are found and written as float16 vectors (a signed counter once hid them from the emitter: 2.6x slower)
          if (n % 16 == 0 && code.contains("__kernel")) assertTrue(code.contains("vload16(0, b_") && code.contains("float16 acc"), what + ":\n" + code);
          // rows too: the k loop in blocks for the whole work-group, a barrier between them
          if (code.contains("__kernel")) assertEquals(n % 16 == 0 && m % 4 == 0, code.contains("block_end_ = "), what + ":\n" + code);
        } else {
          assertFalse(code.contains("lane_base"), what + ": GPUs and the jvm keep one iteration per work-item");
        }
      }
    }
  }

  /**
   * Rows read across x: 8 lanes, each lane's row read 8 elements at a time into a tile by columns
   * (one vector load per row: the rows form), the last columns (cols % 8) one at a time; 12 rows
   * fit no block of 8 lanes.
   */
  @Test
  void rowsReadAcrossXAreReadEightColumnsAtATimeWhereTheCountsAllow() {
    for (int[] size : new int[][] {{16, 21}, {16, 5}, {12, 21}}) {
      int rows = size[0], cols = size[1];
      float[] m = ramp(rows * cols, 0.37f), v = ramp(cols, 1.13f), expected = new float[rows];
      matrixVector(m, v, expected, cols);
      for (Device d : Devices.all()) {
        float[] out = new float[rows];
        String code = PrintedKernels.run(new TaskGraph("g").task("t", CoarsenTest::matrixVector, m, v, out, cols).transferToHost(DataTransferMode.EVERY_EXECUTION, out), d);
        String what = d.id() + " rows=" + rows + " cols=" + cols;
        for (int i = 0; i < rows; i++) assertEquals(Float.floatToRawIntBits(expected[i]), Float.floatToRawIntBits(out[i]), what + " at " + i);
        if (d.id().startsWith("opencl") && d.kind() == Device.Kind.CPU) {
          assertEquals(rows % 8 == 0, code.contains("lane_base"), what + ":\n" + code);
          if (code.contains("__kernel")) assertEquals(rows % 8 == 0, code.contains("vload8(0, m_"), what + ":\n" + code);   // OpenCL C, not SPIR-V
        } else {
          assertFalse(code.contains("lane_base"), what + ": GPUs and the jvm keep one iteration per work-item");
        }
      }
    }
  }

  @Test
  void aLoopThatDiffersBetweenLanesStaysOneIterationPerWorkItem() {
    int n = 64;
    float[] a = ramp(4 * n, 0.5f), expected = new float[n];
    branchy(a, expected, n);
    for (Device d : Devices.all()) {
      float[] c = new float[n];
      String code = PrintedKernels.run(new TaskGraph("g").task("t", CoarsenTest::branchy, a, c, n).transferToHost(DataTransferMode.EVERY_EXECUTION, c), d);
      for (int i = 0; i < n; i++) assertEquals(Float.floatToRawIntBits(expected[i]), Float.floatToRawIntBits(c[i]), d.id() + " at " + i);
      assertFalse(code.contains("lane_base"), d.id() + ":\n" + code);
    }
  }

  @Test
  void aKernelWithNoLoopAlongXStaysOneIterationPerWorkItem() {
    float[] a = ramp(64, 0.5f), b = ramp(64, 0.25f);
    for (Device d : Devices.all()) {
      float[] c = new float[64];
      String code = PrintedKernels.run(new TaskGraph("g").task("t", CoarsenTest::add, a, b, c).transferToHost(DataTransferMode.EVERY_EXECUTION, c), d);
      for (int i = 0; i < 64; i++) assertEquals(a[i] + b[i], c[i], d.id() + " at " + i);
      assertFalse(code.contains("lane_base"), d.id() + ":\n" + code);
    }
  }

  @Test
  void aLanesSettingThatIsNotAPowerOfTwoIsRefusedBeforeAnythingRuns() {
    float[] a = ramp(64, 0.5f), b = ramp(64, 0.25f), c = new float[64];
    for (Device d : Devices.all()) {
      if (!(d.id().startsWith("opencl") && d.kind() == Device.Kind.CPU)) continue;   // the setting is read where it applies
      try (ExecutionPlan plan = new ExecutionPlan(new TaskGraph("g").task("t", CoarsenTest::matmul, a, b, c, 4, 16, 4)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, c).snapshot()).withDevice(d).withSetting("lanes", "12")) {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, plan::execute, d.id());
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("loopjit.lanes"), e.getMessage());
        org.junit.jupiter.api.Assertions.assertArrayEquals(new float[64], c, d.id() + ": c unchanged");
      }
    }
  }
}
