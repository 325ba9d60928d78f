// Keeps the README true: its example (Saxpy.java, the same text) compiles, runs, and its kernel computes saxpy.
package dev.loopjit.tasks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loopjit.api.Devices;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ReadmeExampleTest {
  @Test
  void readmeExampleIsThisFileAndRuns() throws Exception {
    String readme = Files.readString(Path.of("../README.md"));
    String example = Files.readString(Path.of("src/test/java/Saxpy.java"));
    assertEquals(true, readme.contains(example.strip()), "README's example differs from tornado-tasks/src/test/java/Saxpy.java");
    Class<?> saxpy = Class.forName("Saxpy");
    saxpy.getMethod("main", String[].class).invoke(null, (Object) new String[0]);
    var x = dev.loopjit.types.FloatArray.fromArray(new float[] {1, 2, 3});
    var y = dev.loopjit.types.FloatArray.fromArray(new float[] {1, 1, 1});
    var m = saxpy.getDeclaredMethod("saxpy", float.class, dev.loopjit.types.FloatArray.class, dev.loopjit.types.FloatArray.class);
    m.setAccessible(true);
    m.invoke(null, 2f, x, y);
    assertEquals(7f, y.get(2));
    assertEquals(true, Devices.best() != null);
  }
}
