// The kernels and the graph, each run on the jvm and on every device of this machine and compared element by element.
package com.example;

import dev.loopjit.testing.GraphCheck;
import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.types.FloatArray;
import org.junit.jupiter.api.Test;

class NormalizeTest {
  static final int ROWS = 300, COLS = 77;

  @Test
  void rowMeansMatchTheJvmOnEveryDevice() {
    KernelCheck.of("rowMeans", Normalize::rowMeans)
        .args(() -> new Object[] {new Inputs(1).floatArray(ROWS * COLS, -1, 1), new FloatArray(ROWS), COLS})
        .run();   // exact: the same additions in the same order everywhere
  }

  @Test
  void centreMatchesTheJvmOnEveryDevice() {
    KernelCheck.of("centre", Normalize::centre)
        .args(() -> {
          Inputs in = new Inputs(2);
          return new Object[] {in.floatArray(ROWS * COLS, -1, 1), in.floatArray(ROWS, -1, 1), COLS};
        })
        .run();
  }

  @Test
  void theGraphMatchesTheJvmOnEveryDevice() {
    GraphCheck.of("normalize", () -> {
      FloatArray m = new Inputs(3).floatArray(ROWS * COLS, -1, 1), means = new FloatArray(ROWS);
      return GraphCheck.graph(Normalize.graph(m, means, COLS)).compare("m", m).compare("means", means);
    }).run();
  }
}
