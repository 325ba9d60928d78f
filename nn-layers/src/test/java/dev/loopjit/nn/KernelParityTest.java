// Every nn-layers kernel on the jvm and on each device (KernelCheck): dense and sums exact, math functions within a few ulps.
package dev.loopjit.nn;

import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.testing.Tolerance;
import dev.loopjit.types.FloatArray;
import dev.loopjit.types.IntArray;
import org.junit.jupiter.api.Test;

class KernelParityTest {
  // Shapes that are no multiple of any work-group size; V < B, so the padding rows are exercised too.
  private static final int B = 13, V = 11, IN = 37, OUT = 19, N = 50;

  // (float) Math.f(x) is within 1 float ulp of Java's on a device; results that go through one or two
  // more float operations after it (a softmax's division, GELU's products) drift a few ulps more.
  private static final Tolerance MATH = Tolerance.ulps(4);
  // Values that come out of a math function and a subtraction near zero (e.g. p - 1 for p ~ 1) are
  // compared absolutely as well.
  private static final Tolerance MATH_NEAR_ZERO = new Tolerance(4, 0, 1e-6);

  private static IntArray batch(int rows, int valid, int datasetRows, long seed) {
    IntArray a = new IntArray(1 + rows);
    a.set(0, valid);
    int[] pick = new Inputs(seed).ints(rows, 0, datasetRows);
    for (int b = 0; b < rows; b++) a.set(1 + b, pick[b]);
    return a;
  }

  @Test
  void denseForward() {
    KernelCheck.of("denseForward", DenseKernels::denseForward)
        .args(() -> { Inputs in = new Inputs(1); int p = OUT * IN + OUT;
          return new Object[] {in.floatArray(B * IN, -1, 1), in.floatArray(p + 5, -1, 1), 5, 5 + OUT * IN, new FloatArray(B * OUT), B, IN, OUT}; })
        .run();
  }

  @Test
  void denseBackwardInput() {
    KernelCheck.of("denseBackwardInput", DenseKernels::denseBackwardInput)
        .args(() -> { Inputs in = new Inputs(2);
          return new Object[] {in.floatArray(B * OUT, -1, 1), in.floatArray(OUT * IN + 3, -1, 1), 3, new FloatArray(B * IN), B, IN, OUT}; })
        .run();
  }

  @Test
  void denseBackwardWeightsAndBias() {
    KernelCheck.of("denseBackwardWeights", DenseKernels::denseBackwardWeights)
        .args(() -> { Inputs in = new Inputs(3);
          return new Object[] {in.floatArray(B * OUT, -1, 1), in.floatArray(B * IN, -1, 1), new FloatArray(OUT * IN + 7), 7, B, IN, OUT}; })
        .run();
    KernelCheck.of("denseBackwardBias", DenseKernels::denseBackwardBias)
        .args(() -> { Inputs in = new Inputs(4); return new Object[] {in.floatArray(B * OUT, -1, 1), new FloatArray(OUT + 2), 2, B, OUT}; })
        .run();
  }

  @Test
  void denseStrips() {
    // 17 rows, 300 inputs and 130 outputs: past one strip of 8 rows and of 128 columns
    int b = 17, in = 300, out = 130;
    KernelCheck.of("weightsTransposed", DenseKernels::weightsTransposed)
        .args(() -> new Object[] {new Inputs(54).floatArray(out * in + 3, -1, 1), 3, new FloatArray(in * out), in, out}).run();
    KernelCheck.of("denseForwardTransposedNaive", DenseKernels::denseForwardTransposedNaive)
        .args(() -> { Inputs g = new Inputs(58);
          return new Object[] {g.floatArray(b * in, -1, 1), g.floatArray(in * out, -1, 1), g.floatArray(out + 2, -1, 1), 2, new FloatArray(b * out), b, in, out}; })
        .run();
    KernelCheck.of("denseForwardStrips", DenseKernels::denseForwardStrips)
        .args(() -> { Inputs g = new Inputs(55);
          return new Object[] {g.floatArray(b * in, -1, 1), g.floatArray(in * out, -1, 1), g.floatArray(out + 2, -1, 1), 2, new FloatArray(b * out), b, in, out}; })
        .run();
    KernelCheck.of("denseBackwardInputStrips", DenseKernels::denseBackwardInputStrips)
        .args(() -> { Inputs g = new Inputs(56);
          return new Object[] {g.floatArray(b * out, -1, 1), g.floatArray(out * in + 1, -1, 1), 1, new FloatArray(b * in), b, in, out}; })
        .run();
    KernelCheck.of("denseBackwardWeightsStrips", DenseKernels::denseBackwardWeightsStrips)
        .args(() -> { Inputs g = new Inputs(57);
          return new Object[] {g.floatArray(b * out, -1, 1), g.floatArray(b * in, -1, 1), new FloatArray(out * in + 4), 4, b, in, out}; })
        .run();
  }

  @Test
  void naiveDenseReferences() {
    KernelCheck.of("denseForwardNaive", DenseKernels::denseForwardNaive)
        .args(() -> { Inputs in = new Inputs(51);
          return new Object[] {in.floatArray(B * IN, -1, 1), in.floatArray(OUT * IN + OUT, -1, 1), 0, OUT * IN, new FloatArray(B * OUT), B, IN, OUT}; })
        .run();
    KernelCheck.of("denseBackwardInputNaive", DenseKernels::denseBackwardInputNaive)
        .args(() -> { Inputs in = new Inputs(52);
          return new Object[] {in.floatArray(B * OUT, -1, 1), in.floatArray(OUT * IN, -1, 1), 0, new FloatArray(B * IN), B, IN, OUT}; })
        .run();
    KernelCheck.of("denseBackwardWeightsNaive", DenseKernels::denseBackwardWeightsNaive)
        .args(() -> { Inputs in = new Inputs(53);
          return new Object[] {in.floatArray(B * OUT, -1, 1), in.floatArray(B * IN, -1, 1), new FloatArray(OUT * IN), 0, B, IN, OUT}; })
        .run();
  }

  @Test
  void reluAndItsBackward() {
    KernelCheck.of("reluForward", ActivationKernels::reluForward)
        .args(() -> new Object[] {new Inputs(5).floatArray(B * IN, -2, 2), new FloatArray(B * IN), B * IN}).run();
    KernelCheck.of("reluBackward", ActivationKernels::reluBackward)
        .args(() -> { Inputs in = new Inputs(6); return new Object[] {in.floatArray(B * IN, -2, 2), in.floatArray(B * IN, -1, 1), new FloatArray(B * IN), B * IN}; })
        .run();
  }

  @Test
  void sigmoidAndItsBackward() {
    KernelCheck.of("sigmoidForward", ActivationKernels::sigmoidForward).tolerance(MATH)
        .args(() -> new Object[] {new Inputs(7).floatArray(B * IN, -30, 30), new FloatArray(B * IN), B * IN}).run();
    KernelCheck.of("sigmoidBackward", ActivationKernels::sigmoidBackward)
        .args(() -> { Inputs in = new Inputs(8); return new Object[] {in.floatArray(B * IN, 0, 1), in.floatArray(B * IN, -1, 1), new FloatArray(B * IN), B * IN}; })
        .run();
  }

  @Test
  void tanhAndItsBackward() {
    KernelCheck.of("tanhForward", ActivationKernels::tanhForward).tolerance(MATH)
        .args(() -> new Object[] {new Inputs(9).floatArray(B * IN, -5, 5), new FloatArray(B * IN), B * IN}).run();
    KernelCheck.of("tanhBackward", ActivationKernels::tanhBackward)
        .args(() -> { Inputs in = new Inputs(10); return new Object[] {in.floatArray(B * IN, -1, 1), in.floatArray(B * IN, -1, 1), new FloatArray(B * IN), B * IN}; })
        .run();
  }

  @Test
  void geluAndItsBackward() {
    KernelCheck.of("geluForward", ActivationKernels::geluForward).tolerance(MATH_NEAR_ZERO)
        .args(() -> new Object[] {new Inputs(11).floatArray(B * IN, -6, 6), new FloatArray(B * IN), B * IN}).run();
    KernelCheck.of("geluBackward", ActivationKernels::geluBackward).tolerance(MATH_NEAR_ZERO)
        .args(() -> { Inputs in = new Inputs(12); return new Object[] {in.floatArray(B * IN, -6, 6), in.floatArray(B * IN, -1, 1), new FloatArray(B * IN), B * IN}; })
        .run();
  }

  @Test
  void softmaxCrossEntropyAndItsBackward() {
    KernelCheck.of("softmaxCrossEntropyForward", LossKernels::softmaxCrossEntropyForward).tolerance(MATH)
        .args(() -> { Inputs in = new Inputs(13);
          return new Object[] {in.floatArray(B * OUT, -20, 20), in.intArray(B, 0, OUT), batch(B, V, N, 14), new FloatArray(B * OUT), new FloatArray(B), B, OUT}; })
        .run();
    KernelCheck.of("softmaxCrossEntropyBackward", LossKernels::softmaxCrossEntropyBackward)
        .args(() -> { Inputs in = new Inputs(15);
          return new Object[] {in.floatArray(B * OUT, 0, 1), in.intArray(B, 0, OUT), batch(B, V, N, 16), new FloatArray(B * OUT), B, OUT}; })
        .run();
  }

  @Test
  void bceAndItsBackward() {
    int t = 3;
    KernelCheck.of("bceForward", LossKernels::bceForward).tolerance(MATH)
        .args(() -> { Inputs in = new Inputs(17);
          return new Object[] {in.floatArray(B * t, -30, 30), in.floatArray(B * t, 0, 1), batch(B, V, N, 18), new FloatArray(B), B, t}; })
        .run();
    KernelCheck.of("bceBackward", LossKernels::bceBackward).tolerance(MATH_NEAR_ZERO)
        .args(() -> { Inputs in = new Inputs(19);
          return new Object[] {in.floatArray(B * t, -30, 30), in.floatArray(B * t, 0, 1), batch(B, V, N, 20), new FloatArray(B * t), B, t}; })
        .run();
  }

  @Test
  void mseAndItsBackward() {
    int t = 3;
    KernelCheck.of("mseForward", LossKernels::mseForward)
        .args(() -> { Inputs in = new Inputs(21);
          return new Object[] {in.floatArray(B * t, -3, 3), in.floatArray(B * t, -3, 3), batch(B, V, N, 22), new FloatArray(B), B, t}; })
        .run();
    KernelCheck.of("mseBackward", LossKernels::mseBackward)
        .args(() -> { Inputs in = new Inputs(23);
          return new Object[] {in.floatArray(B * t, -3, 3), in.floatArray(B * t, -3, 3), batch(B, V, N, 24), new FloatArray(B * t), B, t}; })
        .run();
  }

  @Test
  void lossSumAndCorrectCounts() {
    KernelCheck.of("lossSum", LossKernels::lossSum)
        .args(() -> new Object[] {new Inputs(25).floatArray(B, 0, 3), batch(B, V, N, 26), new FloatArray(1)}).run();
    int rows = 1000, classes = 10;          // several work-groups, so the reduction combines across groups
    KernelCheck.of("countCorrect", LossKernels::countCorrect)
        .args(() -> { Inputs in = new Inputs(27); IntArray start = IntArray.fromElements(5);
          return new Object[] {in.floatArray(rows * classes, -1, 1), in.intArray(rows, 0, classes), batch(rows, 977, rows, 28), start, rows, classes}; })
        .run();
    KernelCheck.of("countCorrectBinary", LossKernels::countCorrectBinary)
        .args(() -> { Inputs in = new Inputs(29); float[] y = in.floats(rows, 0, 1);
          for (int i = 0; i < rows; i++) y[i] = y[i] < 0.5f ? 0f : 1f;
          return new Object[] {in.floatArray(rows, -1, 1), FloatArray.fromArray(y), batch(rows, 977, rows, 30), new IntArray(1), rows}; })
        .run();
  }

  @Test
  void optimizers() {
    int p = 1013;
    KernelCheck.of("sgdUpdate", OptimizerKernels::sgdUpdate)
        .args(() -> { Inputs in = new Inputs(31); return new Object[] {in.floatArray(p, -1, 1), in.floatArray(p, -1, 1), FloatArray.fromElements(0.5f), 0.01f, 1e-4f, p}; })
        .run();
    KernelCheck.of("momentumUpdate", OptimizerKernels::momentumUpdate)
        .args(() -> { Inputs in = new Inputs(32);
          return new Object[] {in.floatArray(p, -1, 1), in.floatArray(p, -1, 1), FloatArray.fromElements(0.5f), in.floatArray(p, -1, 1), 0.01f, 0.9f,
              1e-4f, p}; })
        .run();
    KernelCheck.of("adamTick", OptimizerKernels::adamTick)
        .args(() -> new Object[] {FloatArray.fromElements(0.9f, 0.999f), 0.9f, 0.999f}).run();
    KernelCheck.of("adamUpdate", OptimizerKernels::adamUpdate)
        .args(() -> { Inputs in = new Inputs(33);
          return new Object[] {in.floatArray(p, -1, 1), in.floatArray(p, -1, 1), FloatArray.fromElements(0.25f), in.floatArray(p, -0.1f, 0.1f),
              in.floatArray(p, 0, 0.01f),
              FloatArray.fromElements(0.9f * 0.9f, 0.999f * 0.999f), 1e-3f, 0.9f, 0.999f, 1e-8f, 1e-2f, p}; })
        .run();
  }

  @Test
  void gathers() {
    int f = 29;
    KernelCheck.of("gatherRows", BatchKernels::gatherRows)
        .args(() -> new Object[] {new Inputs(34).floatArray(N * f, -1, 1), batch(B, V, N, 35), new Inputs(36).floatArray(B * f, 5, 6), B, f}).run();
    KernelCheck.of("gatherLabels", BatchKernels::gatherLabels)
        .args(() -> new Object[] {new Inputs(37).intArray(N, 0, 10), batch(B, V, N, 38), new IntArray(B), B}).run();
  }
}
