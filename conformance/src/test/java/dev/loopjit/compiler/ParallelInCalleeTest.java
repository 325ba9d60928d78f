// A @Parallel loop in a called method becomes the kernel's grid; one that cannot be the nest is refused, never run as one work-item.
package dev.loopjit.compiler;

import dev.loopjit.ir.Target;
import dev.loopjit.ir.MethodRef;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.KernelCompilationException;
import dev.loopjit.api.Parallel;
import dev.loopjit.ir.Launch;
import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import org.junit.jupiter.api.Test;

class ParallelInCalleeTest {
  static void scaleRows(float[] m, float[] out, int rows, int cols, float k) {
    for (@Parallel int i = 0; i < rows; i++)
      for (int j = 0; j < cols; j++) out[i * cols + j] = m[i * cols + j] * k;
  }

  /** A kernel that only forwards to a library method, as a user wraps one. */
  static void wrapper(float[] m, float[] out, int cols) {
    scaleRows(m, out, m.length / cols, cols, 3f);
  }

  /** The called nest sits inside a sequential loop: it cannot be the grid. */
  static void twice(float[] m, float[] out, int cols) {
    for (int r = 0; r < 2; r++) scaleRows(m, out, m.length / cols, cols, 3f);
  }

  @Test
  void theCalleesLoopIsTheGrid() {
    var ir = Compiler.compile(MethodRef.of(ParallelInCalleeTest.class, "wrapper", "([F[FI)V"), Target.offline("opencl", ""));
    Launch.Loops loops = assertInstanceOf(Launch.Loops.class, ir.launch());
    assertTrue(loops.counts().size() == 1, ir.launch().toString());
    KernelCheck.of("ParallelInCalleeTest.wrapper", ParallelInCalleeTest::wrapper)
        .args(() -> new Object[] {new Inputs(410).floats(97 * 13, -1, 1), new float[97 * 13], 13}).run();
  }

  @Test
  void aCalledNestThatCannotBeTheGridIsRefused() {
    KernelCompilationException e = assertThrows(KernelCompilationException.class,
        () -> Compiler.compile(MethodRef.of(ParallelInCalleeTest.class, "twice", "([F[FI)V"), Target.offline("opencl", "")));
    assertTrue(e.getMessage().contains("@Parallel loop inside"), e.getMessage());
  }
}
