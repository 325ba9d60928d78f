// Dense.forward on every device against the jvm, and against a hand-computed case.
package dev.loopjit.tasks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.FloatArray;
import org.junit.jupiter.api.Test;

class DenseTest {
  @Test
  void forwardOnEveryDevice() {
    int batch = 13, in = 37, out = 29;
    KernelCheck.of("denseForward", Dense::forward)
        .args(() -> {
          Inputs r = new Inputs(21);
          return new Object[] {r.floatArray(batch * in, -1, 1), r.floatArray(out * in, -1, 1), r.floatArray(out, -1, 1),
              new FloatArray(batch * out), batch, in, out};
        })
        .run();
  }

  @Test
  void forwardIsXTimesWTransposedPlusBias() {
    FloatArray x = FloatArray.fromArray(new float[] {1, 2, 3, 4});                 // (2, 2)
    FloatArray w = FloatArray.fromArray(new float[] {1, 0, 0, 1, 1, 1});           // (3, 2)
    FloatArray bias = FloatArray.fromArray(new float[] {0.5f, 0, -1});             // (3)
    FloatArray y = new FloatArray(6);                                               // (2, 3)
    Dense.forward(x, w, bias, y, 2, 2, 3);
    assertArrayEquals(new float[] {1.5f, 2, 2, 3.5f, 4, 6}, y.toArray());
  }
}
