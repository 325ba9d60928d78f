// Ping-pong buffers, as TornadoVM stencils write them: an array variable that is one of two parameters, on every device against the jvm.
package dev.loopjit.tasks;

import dev.loopjit.api.Parallel;
import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.FloatArray;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An iterative stencil keeps two buffers and swaps their roles each step: {@code FloatArray src =
 * step % 2 == 0 ? a : b}. The variable refers to one parameter or the other; the device reads and
 * writes only the chosen one, as Java does.
 */
class PingPongTest {
  /** One Jacobi step of a 1-D heat equation from whichever buffer is current into the other. */
  static void jacobiStep(FloatArray a, FloatArray b, int step) {
    FloatArray src = step % 2 == 0 ? a : b;
    FloatArray dst;
    if (step % 2 == 0) dst = b;
    else dst = a;
    int n = src.getSize();
    for (@Parallel int i = 0; i < n; i++) {
      float left = i > 0 ? src.get(i - 1) : src.get(i);
      float right = i < n - 1 ? src.get(i + 1) : src.get(i);
      dst.set(i, 0.25f * left + 0.5f * src.get(i) + 0.25f * right);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 7})
  void eachStepWritesTheOtherBuffer(int step) {
    KernelCheck.of("jacobiStep", PingPongTest::jacobiStep)
        .args(() -> new Object[] {new Inputs(11).floatArray(4099, 0, 100), new Inputs(12).floatArray(4099, 0, 100), step}).run();
  }
}
