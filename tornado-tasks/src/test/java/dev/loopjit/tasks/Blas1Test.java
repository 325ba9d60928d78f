// Blas1 on every device against the jvm: scal exactly, the @Reduce reductions within rounding, their sequential references exactly.
package dev.loopjit.tasks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.testing.Tolerance;
import dev.loopjit.types.FloatArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class Blas1Test {
  // A @Reduce sum runs as a tree per work-group plus atomic adds on a device: another order of float additions.
  // Every term is positive (|x|, x², or x·y with x, y in [0, 1)), so there is no cancellation; the jvm's running
  // sum of 100,003 terms drifts ~1e-5 from the exact one (measured 1.4e-5 for the squares), the tree far less.
  private static final Tolerance REORDERED_SUM = Tolerance.relative(1e-4);

  @ParameterizedTest
  @ValueSource(ints = {1, 100_003})
  void scal(int n) {
    KernelCheck.of("Blas1.scal", Blas1::scal).args(() -> new Object[] {-1.5f, new Inputs(41).floatArray(n, -1, 1)}).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 257, 100_003})
  void dot(int n) {
    KernelCheck.of("Blas1.dot", Blas1::dot).tolerance(REORDERED_SUM)
        .args(() -> { Inputs in = new Inputs(42); return new Object[] {in.floatArray(n, 0, 1), in.floatArray(n, 0, 1), new FloatArray(1)}; })
        .run();
    KernelCheck.of("Blas1.dotSequential", Blas1::dotSequential)
        .args(() -> { Inputs in = new Inputs(42); return new Object[] {in.floatArray(n, 0, 1), in.floatArray(n, 0, 1), new FloatArray(1)}; })
        .run();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 257, 100_003})
  void asum(int n) {
    KernelCheck.of("Blas1.asum", Blas1::asum).tolerance(REORDERED_SUM)
        .args(() -> new Object[] {new Inputs(43).floatArray(n, -1, 1), new FloatArray(1)}).run();
    KernelCheck.of("Blas1.asumSequential", Blas1::asumSequential)
        .args(() -> new Object[] {new Inputs(43).floatArray(n, -1, 1), new FloatArray(1)}).run();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 257, 100_003})
  void sumOfSquares(int n) {
    KernelCheck.of("Blas1.sumOfSquares", Blas1::sumOfSquares).tolerance(REORDERED_SUM)
        .args(() -> new Object[] {new Inputs(44).floatArray(n, -1, 1), new FloatArray(1)}).run();
    KernelCheck.of("Blas1.sumOfSquaresSequential", Blas1::sumOfSquaresSequential)
        .args(() -> new Object[] {new Inputs(44).floatArray(n, -1, 1), new FloatArray(1)}).run();
  }

  @Test
  void sqrtAndZero() {
    KernelCheck.of("Blas1.sqrt", Blas1::sqrt).args(() -> new Object[] {FloatArray.fromElements(2f)}).run();
    KernelCheck.of("Blas1.zero", Blas1::zero).args(() -> new Object[] {FloatArray.fromElements(7f)}).run();
  }

  @Test
  void reductionsAddToWhatOutHolds() {
    // As in the Java loop, out[0]'s value takes part: 10 + 1·2 + 3·4 = 24, on every device.
    KernelCheck.of("Blas1.dot/start", Blas1::dot)
        .args(() -> new Object[] {FloatArray.fromElements(1f, 3f), FloatArray.fromElements(2f, 4f), FloatArray.fromElements(10f)}).run();
    FloatArray out = FloatArray.fromElements(10f);
    Blas1.dot(FloatArray.fromElements(1f, 3f), FloatArray.fromElements(2f, 4f), out);
    assertEquals(24f, out.get(0));
  }

  @ParameterizedTest
  @ValueSource(ints = {Blas1.CHUNK - 1, Blas1.CHUNK, 3 * Blas1.CHUNK + 5})
  void runsCoverEveryElementOnce(int n) {
    // Small integers: every partial sum is exact in any order, so the chunked kernels must equal the sequential
    // loops to the bit — an element dropped or counted twice at a run's edge would show — on the jvm and devices.
    int[] k = new Inputs(46).ints(n, -3, 4);
    float[] v = new float[n], w = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = k[i];
      w[i] = k[(i * 7) % n];
    }
    FloatArray x = FloatArray.fromArray(v), y = FloatArray.fromArray(w);
    FloatArray[] r = {new FloatArray(1), new FloatArray(1), new FloatArray(1), new FloatArray(1), new FloatArray(1), new FloatArray(1)};
    Blas1.dot(x, y, r[0]);
    Blas1.dotSequential(x, y, r[1]);
    Blas1.asum(x, r[2]);
    Blas1.asumSequential(x, r[3]);
    Blas1.sumOfSquares(x, r[4]);
    Blas1.sumOfSquaresSequential(x, r[5]);
    for (int i = 0; i < 6; i += 2) assertEquals(r[i + 1].get(0), r[i].get(0));
    KernelCheck.of("Blas1.dot/integers", Blas1::dot)
        .args(() -> new Object[] {FloatArray.fromArray(v), FloatArray.fromArray(w), new FloatArray(1)}).run();
    KernelCheck.of("Blas1.sumOfSquares/integers", Blas1::sumOfSquares)
        .args(() -> new Object[] {FloatArray.fromArray(v), new FloatArray(1)}).run();
  }
}
