// TornadoVM's 3-D matrices and matrices of Float4 in kernels: flat indexing with the shape passed at launch, on every device equal to Java.
package dev.loopjit.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.loopjit.types.Float4;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.Matrix2DFloat4;
import dev.loopjit.types.Matrix3DDouble;
import dev.loopjit.types.Matrix3DFloat;
import dev.loopjit.types.Matrix3DFloat4;
import dev.loopjit.types.Matrix3DLong;
import dev.loopjit.types.Matrix3DShort;
import org.junit.jupiter.api.Test;

class MatrixTypesTest {
  static void sum3(Matrix3DFloat a, Matrix3DFloat b, Matrix3DLong l, Matrix3DShort s) {
    for (@Parallel int i = 0; i < a.getSizeX(); i++)
      for (@Parallel int j = 0; j < a.getSizeY(); j++)
        for (@Parallel int k = 0; k < a.getSizeZ(); k++) {
          b.set(i, j, k, a.get(i, j, k) * 2f + k);
          l.set(i, j, k, l.get(i, j, k) * 3L + i * 100 + j * 10 + k);
          s.set(i, j, k, (short) (s.get(i, j, k) + j));
        }
  }

  static void doubles3(Matrix3DDouble d) {
    for (@Parallel int i = 0; i < d.getSizeX(); i++)
      for (@Parallel int j = 0; j < d.getSizeY(); j++)
        for (int k = 0; k < d.getSizeZ(); k++) d.set(i, j, k, d.get(i, j, k) + 0.5 * k);
  }

  static void float4s(Matrix2DFloat4 a, Matrix2DFloat4 b, Matrix3DFloat4 c, Matrix3DFloat4 e) {
    for (@Parallel int i = 0; i < a.getNumRows(); i++)
      for (@Parallel int j = 0; j < a.getNumColumns(); j++) {
        b.set(i, j, Float4.add(a.get(i, j), a.get(i, j)));
        for (int k = 0; k < c.getSizeZ(); k++) e.set(i, j, k, Float4.mult(c.get(i, j, k), new Float4(1f, 2f, 3f, 4f)));
      }
  }

  private static void fill(FloatArray f, int seed) {
    for (int i = 0; i < f.getSize(); i++) f.set(i, ((i * 31 + seed) % 97) * 0.25f - 7f);
  }

  @Test
  void everyMatrixOnEveryDeviceEqualsJava() {
    int x = 5, y = 6, z = 7;
    Matrix3DFloat a = new Matrix3DFloat(x, y, z), wantB = new Matrix3DFloat(x, y, z);
    fill(a.getArray(), 1);
    Matrix3DLong wantL = new Matrix3DLong(x, y, z);
    Matrix3DShort wantS = new Matrix3DShort(x, y, z);
    wantL.fill(2L);
    wantS.fill((short) 3);
    sum3(a, wantB, wantL, wantS);
    Matrix3DDouble wantD = new Matrix3DDouble(x, y, z);
    wantD.fill(1.25);
    doubles3(wantD);
    Matrix2DFloat4 m = new Matrix2DFloat4(x, y), wantM = new Matrix2DFloat4(x, y);
    fill(m.getArray(), 2);
    Matrix3DFloat4 c = new Matrix3DFloat4(x, y, z), wantE = new Matrix3DFloat4(x, y, z);
    fill(c.getArray(), 3);
    float4s(m, wantM, c, wantE);
    for (Device d : Devices.all()) {
      Matrix3DFloat b = new Matrix3DFloat(x, y, z);
      Matrix3DLong l = new Matrix3DLong(x, y, z);
      Matrix3DShort s = new Matrix3DShort(x, y, z);
      l.fill(2L);
      s.fill((short) 3);
      Matrix3DDouble dd = new Matrix3DDouble(x, y, z);
      dd.fill(1.25);
      Matrix2DFloat4 mb = new Matrix2DFloat4(x, y);
      Matrix3DFloat4 e = new Matrix3DFloat4(x, y, z);
      TaskGraph g = new TaskGraph("m").transferToDevice(DataTransferMode.EVERY_EXECUTION, l, s)
          .task("sum3", MatrixTypesTest::sum3, a, b, l, s).task("f4", MatrixTypesTest::float4s, m, mb, c, e)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, b, l, s, mb, e);
      if (d.supportsFp64()) g.transferToDevice(DataTransferMode.EVERY_EXECUTION, dd).task("d", MatrixTypesTest::doubles3, dd)
          .transferToHost(DataTransferMode.EVERY_EXECUTION, dd);
      try (ExecutionPlan plan = new ExecutionPlan(g.snapshot()).withDevice(d)) {
        plan.execute();
      }
      assertArrayEquals(wantB.getArray().toArray(), b.getArray().toArray(), d.id());
      assertArrayEquals(wantL.getArray().toArray(), l.getArray().toArray(), d.id());
      assertArrayEquals(wantS.getArray().toArray(), s.getArray().toArray(), d.id());
      assertArrayEquals(wantM.getArray().toArray(), mb.getArray().toArray(), d.id());
      assertArrayEquals(wantE.getArray().toArray(), e.getArray().toArray(), d.id());
      if (d.supportsFp64()) assertArrayEquals(wantD.getArray().toArray(), dd.getArray().toArray(), d.id());
    }
  }

  @Test
  void theHostMatricesIndexAsTheKernelsDo() {
    Matrix3DFloat a = new Matrix3DFloat(new float[][][] {{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}});
    assertEquals(7f, a.get(1, 1, 0));
    assertEquals(6f, a.getArray().get((1 * 2 + 0) * 2 + 1));
    Matrix2DFloat4 m = new Matrix2DFloat4(2, 3);
    m.set(1, 2, new Float4(1, 2, 3, 4));
    assertEquals(3f, m.getArray().get((1 * 3 + 2) * 4 + 2));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Matrix3DFloat4(2, 2, 2, new FloatArray(31)));
    assertEquals("a 2 x 2 x 2 matrix of 4-wide values needs 32 elements, the array has 31", e.getMessage());
  }
}
