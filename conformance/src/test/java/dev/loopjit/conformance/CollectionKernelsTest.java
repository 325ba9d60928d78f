// TornadoVM-style types (CharArray, matrices, vectors, Float4, HalfFloat) on every device against the jvm.
package dev.loopjit.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loopjit.api.Devices;
import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.CharArray;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.HalfFloatArray;
import dev.loopjit.types.IntArray;
import dev.loopjit.types.Matrix2DDouble;
import dev.loopjit.types.Matrix2DFloat;
import dev.loopjit.types.Matrix2DInt;
import dev.loopjit.types.VectorDouble;
import dev.loopjit.types.VectorFloat;
import dev.loopjit.types.VectorFloat4;
import dev.loopjit.types.VectorInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CollectionKernelsTest {
  @ParameterizedTest
  @CsvSource({"1000, 7", "33, 65530", "5, -100"})
  void charArrays(int n, int shift) {
    KernelCheck.of("CollectionKernels.shiftChars", CollectionKernels::shiftChars)
        .args(() -> new Object[] {CharArray.fromArray(new Inputs(301).chars(n)), new CharArray(n), new IntArray(n), shift}).run();
  }

  private static Matrix2DFloat floats(int rows, int cols, long seed) {
    return new Matrix2DFloat(rows, cols, FloatArray.fromArray(new Inputs(seed).floats(rows * cols, -1, 1)));
  }

  @ParameterizedTest
  @CsvSource({"17, 9, 23", "1, 1, 1", "64, 32, 16"})
  void matrixMultiply(int m, int k, int n) {
    KernelCheck check = KernelCheck.of("CollectionKernels.matrixMultiply", CollectionKernels::matrixMultiply)
        .args(() -> new Object[] {floats(m, k, 302), floats(k, n, 303), new Matrix2DFloat(m, n)});
    Matrix2DFloat a = floats(m, k, 302), b = floats(k, n, 303), c = (Matrix2DFloat) check.runOn(Devices.jvm())[2];
    float s = 0f;
    for (int x = 0; x < k; x++) s += a.get(m - 1, x) * b.get(x, n - 1);
    assertEquals(s, c.get(m - 1, n - 1));
    check.run();
  }

  @Test
  void aNewShapeRunsTheSameKernel() {
    for (int[] shape : new int[][] {{3, 5}, {5, 3}, {40, 2}})
      KernelCheck.of("CollectionKernels.transposeInt", CollectionKernels::transposeInt)
          .args(() -> new Object[] {new Matrix2DInt(shape[0], shape[1], IntArray.fromArray(new Inputs(304).ints(shape[0] * shape[1]))),
              new Matrix2DInt(shape[1], shape[0])}).run();
  }

  @Test
  void doubleMatrices() {
    KernelCheck.of("CollectionKernels.rowPrefix", CollectionKernels::rowPrefix)
        .args(() -> new Object[] {new Matrix2DDouble(13, 21, dev.loopjit.types.DoubleArray.fromArray(new Inputs(305).doubles(13 * 21, -1e3, 1e3))),
            new Matrix2DDouble(13, 21)}).run();
  }

  @Test
  void vectorsOfEachType() {
    int n = 301;
    KernelCheck.of("CollectionKernels.vectors", CollectionKernels::vectors)
        .args(() -> new Object[] {new VectorFloat(FloatArray.fromArray(new Inputs(306).floats(n, -5, 5))),
            new VectorInt(IntArray.fromArray(new Inputs(307).ints(n, -1000, 1000))),
            new VectorDouble(dev.loopjit.types.DoubleArray.fromArray(new Inputs(308).doubles(n, -1e6, 1e6))), new VectorFloat(n)}).run();
  }

  @Test
  void float4Values() {
    int n = 97;
    KernelCheck.of("CollectionKernels.float4s", CollectionKernels::float4s)
        .args(() -> new Object[] {new VectorFloat4(FloatArray.fromArray(new Inputs(309).floats(4 * n, -3, 3))),
            new VectorFloat4(FloatArray.fromArray(new Inputs(310).floats(4 * n, 0.5f, 3))), new VectorFloat4(n), new VectorFloat(n)}).run();
  }

  @Test
  void halfFloatValues() {
    int n = 500;
    KernelCheck.of("CollectionKernels.halfFloats", CollectionKernels::halfFloats)
        .args(() -> new Object[] {HalfFloatArray.fromArray(new Inputs(311).floats(n, -8, 8)),
            HalfFloatArray.fromArray(new Inputs(312).floats(n, -8, 8)), new HalfFloatArray(n)}).run();
  }
}
