// The activations on every device against the jvm (edge values included), and on the JVM against their definitions.
package dev.loopjit.tasks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.testing.Tolerance;
import dev.loopjit.types.FloatArray;
import org.junit.jupiter.api.Test;

class ActivationsTest {
  // exp on a device is within about an ulp of Java's (in double); rounding to float and the float arithmetic after
  // it leave the results a few float ulps apart at most.
  private static final Tolerance DEVICE_EXP = Tolerance.ulps(4);
  private static final int N = 100_003;

  /** x: the float edge cases, then values in [-12, 12); y: zeros. */
  private static Object[] operands() {
    Inputs in = new Inputs(81);
    float[] x = in.floats(N, -12, 12);
    System.arraycopy(Inputs.FLOAT_EDGES, 0, x, 0, Inputs.FLOAT_EDGES.length);
    return new Object[] {FloatArray.fromArray(x), new FloatArray(N)};
  }

  @Test
  void relu() {
    KernelCheck.of("Activations.relu", Activations::relu).args(ActivationsTest::operands).run();
  }

  @Test
  void sigmoid() {
    KernelCheck.of("Activations.sigmoid", Activations::sigmoid).tolerance(DEVICE_EXP).args(ActivationsTest::operands).run();
  }

  @Test
  void tanh() {
    KernelCheck.of("Activations.tanh", Activations::tanh).tolerance(DEVICE_EXP).args(ActivationsTest::operands).run();
  }

  @Test
  void gelu() {
    KernelCheck.of("Activations.gelu", Activations::gelu).tolerance(DEVICE_EXP).args(ActivationsTest::operands).run();
  }

  @Test
  void reluIsMathMaxForEveryFloat() {
    for (long bits = 0; bits <= 0xffffffffL; bits += 65_537) {
      float v = Float.intBitsToFloat((int) bits);
      FloatArray y = new FloatArray(1);
      Activations.relu(FloatArray.fromElements(v), y);
      assertEquals(Float.floatToIntBits(Math.max(0f, v)), Float.floatToIntBits(y.get(0)), "relu(" + v + ")");
    }
    for (float v : Inputs.FLOAT_EDGES) assertEquals(Float.floatToIntBits(Math.max(0f, v)), Float.floatToIntBits(reluOf(v)), "relu(" + v + ")");
  }

  @Test
  void tanhIsMathTanhForEveryFloatSampled() {
    // Every 4099th bit pattern, both signs, plus the edge cases: bit for bit.
    for (long bits = 0; bits <= 0xffffffffL; bits += 4099) {
      float v = Float.intBitsToFloat((int) bits);
      assertEquals(Float.floatToIntBits((float) Math.tanh(v)), Float.floatToIntBits(Activations.tanhOf(v)), "tanh(" + v + ")");
    }
    for (float v : Inputs.FLOAT_EDGES) assertEquals(Float.floatToIntBits((float) Math.tanh(v)), Float.floatToIntBits(Activations.tanhOf(v)));
  }

  @Test
  void sigmoidAndGeluMatchTheirFormulas() {
    float[] x = {-30, -3, -0.5f, 0, 0.5f, 3, 30};
    FloatArray in = FloatArray.fromArray(x), s = new FloatArray(x.length), g = new FloatArray(x.length);
    Activations.sigmoid(in, s);
    Activations.gelu(in, g);
    for (int i = 0; i < x.length; i++) {
      double v = x[i];
      assertEquals(1 / (1 + Math.exp(-v)), s.get(i), 1e-7);
      assertEquals(0.5 * v * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (v + 0.044715 * v * v * v))), g.get(i), 1e-6 * Math.max(1, Math.abs(v)));
    }
    assertEquals(0f, g.get(3));
    assertTrue(g.get(0) <= 0 && g.get(0) > -1e-6);   // gelu of a large negative number is a tiny negative or zero
  }

  private static float reluOf(float v) {
    FloatArray y = new FloatArray(1);
    Activations.relu(FloatArray.fromElements(v), y);
    return y.get(0);
  }
}
