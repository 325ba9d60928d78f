// `loopjit dump --schedule CLASS METHOD` prints the schedule of the graph a static method returns, and runs nothing.
package dev.loopjit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.DataTransferMode;
import dev.loopjit.api.Parallel;
import dev.loopjit.api.TaskGraph;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class DumpScheduleTest {
  static final float[] IN = {1, 2, 3}, OUT = new float[3];

  static void twice(float[] in, float[] out) {
    for (@Parallel int i = 0; i < in.length; i++) out[i] = 2 * in[i];
  }

  /** What the command is given: a graph over this class's arrays. */
  static TaskGraph graph() {
    return new TaskGraph("d").transferToDevice(DataTransferMode.EVERY_EXECUTION, IN).task("twice", DumpScheduleTest::twice, IN, OUT)
        .transferToHost(DataTransferMode.EVERY_EXECUTION, OUT);
  }

  static int notAGraph() {
    return 1;
  }

  @Test
  void printsTheFirstExecutionsScheduleAndRunsNothing() throws Exception {
    String[] out = new String[1];
    int rc = captured(() -> Main.dump(new String[] {"--schedule", "--device", "jvm", DumpScheduleTest.class.getName(), "graph"}), out);
    assertEquals(0, rc, out[0]);
    assertEquals(List.of(
        "jvm    1  graph     d",
        "jvm    2  copy in   a0 float[3] (every execution)",
        "jvm    3  copy in   a1 float[3] (used by d.twice)",
        "jvm    4  launch    d.twice",
        "jvm    5  copy out  a1 float[3] (every execution)",
        "jvm    6  wait      for the device"), out[0].lines().toList());
    assertArrayEquals(new float[3], OUT, "nothing ran");
  }

  @Test
  void aMethodThatReturnsNoGraphIsRefused() throws Exception {
    PrintStream saved = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      assertEquals(2, Main.dump(new String[] {"--schedule", DumpScheduleTest.class.getName(), "notAGraph"}));
    } finally {
      System.setErr(saved);
    }
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("must return a TaskGraph, an ImmutableTaskGraph or an ExecutionPlan"), err.toString());
  }

  interface Call {
    int run() throws Exception;
  }

  private static int captured(Call c, String[] out) throws Exception {
    PrintStream saved = System.out;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
      return c.run();
    } finally {
      System.setOut(saved);
      out[0] = bytes.toString(StandardCharsets.UTF_8);
    }
  }
}
