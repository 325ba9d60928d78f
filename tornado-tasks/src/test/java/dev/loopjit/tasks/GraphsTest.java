// The ready-made graphs on every device against plain Java, executed twice (inputs changed in between); and the README's example.
package dev.loopjit.tasks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.Device;
import dev.loopjit.api.Devices;
import dev.loopjit.api.ExecutionPlan;
import dev.loopjit.api.ImmutableTaskGraph;
import dev.loopjit.testing.Inputs;
import dev.loopjit.testing.KernelCheck;
import dev.loopjit.testing.Tolerance;
import dev.loopjit.types.FloatArray;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class GraphsTest {
  private static List<Device> devices() {
    KernelCheck.checkRequiredDevices();
    return Devices.all();
  }

  /** Executes {@code graph} on {@code d}, changes the inputs with {@code change}, executes again. */
  private static void twice(ImmutableTaskGraph graph, Device d, Runnable check, Runnable change) {
    try (ExecutionPlan plan = new ExecutionPlan(graph)) {
      plan.withDevice(d).execute();
      check.run();
      change.run();
      plan.execute();
      check.run();
    }
  }

  @Test
  void gemm() {
    int m = 37, n = 70, k = 19;
    Inputs in = new Inputs(91);
    FloatArray a = in.floatArray(m * k, -1, 1), b = in.floatArray(k * n, -1, 1), c = new FloatArray(m * n), expected = new FloatArray(m * n);
    for (Device d : devices())
      twice(Graphs.gemm(a, b, c, m, n, k), d, () -> {
        Blas3.gemmNaive(a, b, expected, m, n, k);
        assertArrayEquals(expected.toArray(), c.toArray(), d.id());
      }, () -> a.set(0, a.get(0) + 1));
  }

  @Test
  void gemv() {
    int rows = 33, cols = 65;
    Inputs in = new Inputs(92);
    FloatArray a = in.floatArray(rows * cols, -1, 1), x = in.floatArray(cols, -1, 1), y = new FloatArray(rows), expected = new FloatArray(rows);
    for (Device d : devices())
      twice(Graphs.gemv(a, x, y, rows, cols), d, () -> {
        Blas.gemv(a, x, expected, rows, cols);
        assertArrayEquals(expected.toArray(), y.toArray(), d.id());
      }, () -> x.set(3, 2f));
  }

  @Test
  void dotAndNrm2ClearTheirResultEveryExecution() {
    int n = 10_001;
    Inputs in = new Inputs(93);
    FloatArray x = in.floatArray(n, 0, 1), y = in.floatArray(n, 0, 1), r = FloatArray.fromElements(123f);
    for (Device d : devices()) {
      twice(Graphs.dot(x, y, r), d, () -> {
        double exact = 0;
        for (int i = 0; i < n; i++) exact += (double) x.get(i) * y.get(i);
        assertEquals(exact, r.get(0), 1e-5 * exact, d.id());
      }, () -> x.set(0, 5f));
      twice(Graphs.nrm2(x, r), d, () -> {
        double exact = 0;
        for (int i = 0; i < n; i++) exact += (double) x.get(i) * x.get(i);
        assertEquals(Math.sqrt(exact), r.get(0), 1e-5 * Math.sqrt(exact), d.id());
      }, () -> x.set(1, 7f));
    }
  }

  @Test
  void softmaxAndTranspose() {
    int rows = 21, cols = 45;
    Inputs in = new Inputs(94);
    FloatArray x = in.floatArray(rows * cols, -5, 5), out = new FloatArray(rows * cols), expected = new FloatArray(rows * cols);
    for (Device d : devices()) {
      twice(Graphs.softmax(x, out, rows, cols), d, () -> {
        Softmax.rows(x, expected, rows, cols);
        for (int i = 0; i < rows * cols; i++)
          assertTrue(Tolerance.ulps(8).accepts(expected.get(i), out.get(i)), d.id() + ": " + out.get(i) + " vs " + expected.get(i));
      }, () -> x.set(2, 4f));
      twice(Graphs.transpose(x, out, rows, cols), d, () -> {
        Transpose.naive(x, expected, rows, cols);
        assertArrayEquals(expected.toArray(), out.toArray(), d.id());
      }, () -> x.set(2, -4f));
    }
  }

  @Test
  void readmeExampleIsLibraryExampleAndRuns() throws Exception {
    String readme = Files.readString(Path.of("README.md"));
    String example = Files.readString(Path.of("src/test/java/LibraryExample.java"));
    assertTrue(readme.contains(example.strip()), "tornado-tasks/README.md's example differs from src/test/java/LibraryExample.java");
    PrintStream stdout = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    System.setOut(new PrintStream(printed, true));
    try {
      Class.forName("LibraryExample").getMethod("main", String[].class).invoke(null, (Object) new String[0]);
    } finally {
      System.setOut(stdout);
    }
    assertEquals("50.0 50.0 50.0", printed.toString().strip());
  }
}
