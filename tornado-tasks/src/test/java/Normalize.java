// The shape of examples/…/com/example/Normalize.java that docs/guide/testing-your-kernels.md's example names, for GuideExamplesTest.
import dev.loopjit.api.TaskGraph;
import dev.loopjit.types.FloatArray;

final class Normalize {
  private Normalize() {}

  static void rowMeans(FloatArray m, FloatArray means, int cols) {}

  static TaskGraph graph(FloatArray m, FloatArray means, int cols) {
    return new TaskGraph("normalize");
  }
}
