// examples/spark's application, compiled from its source against this build and run on local[2]: the example a user submits keeps working.
package dev.loopjit.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.nn.FashionMnist;
import dev.loopjit.nn.Sequential;
import dev.loopjit.nn.Weights;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExampleProgramTest {
  private static final Path SOURCE = Path.of("..", "examples", "spark", "src", "main", "java", "com", "example", "spark", "FashionMnistOnSpark.java");

  @Test
  void theSparkExampleCompilesAndTrains(@TempDir Path dir) throws Exception {
    Assumptions.assumeTrue(FashionMnist.present(FashionMnist.DEFAULT_DIR), FashionMnist.howToGet(FashionMnist.DEFAULT_DIR));
    assertTrue(Files.exists(SOURCE), SOURCE.toAbsolutePath() + " exists");
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    int rc = javac.run(null, null, null, "-d", dir.toString(), "-cp", System.getProperty("java.class.path"), SOURCE.toString());
    assertEquals(0, rc, "examples/spark compiles against this build");
    Path saved = dir.resolve("model.ljnn");
    PrintStream out = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
      System.setOut(new PrintStream(captured, true));
      loader.loadClass("com.example.spark.FashionMnistOnSpark").getMethod("main", String[].class)
          .invoke(null, (Object) new String[] {FashionMnist.DEFAULT_DIR.toString(), "1", "2", "2000", saved.toString()});
    } finally {
      System.setOut(out);
    }
    String text = captured.toString();
    System.out.print(text);
    assertTrue(text.contains("epoch  1/1"), text);
    assertTrue(text.contains("predicted over an RDD: "), text);
    List<String> lines = text.lines().filter(l -> l.startsWith("predicted over an RDD")).toList();
    int right = Integer.parseInt(lines.get(0).replaceAll("predicted over an RDD: (\\d+) of .*", "$1"));
    assertTrue(right > 6000, "the model learned: " + lines.get(0));
    String driver = text.lines().filter(l -> l.startsWith("trained: test accuracy")).findFirst().orElseThrow();
    assertEquals(String.format("%.2f", right / 100.0), driver.replaceAll("trained: test accuracy ([0-9.]+) %.*", "$1"),
        "the RDD's predictions agree with the driver's evaluation");
    Sequential back = Weights.load(saved);
    assertEquals(784, back.inputs());
  }
}
