// jvm-mt with and without the Vector API module: vector lanes only where the JVM has it, the same results either way.
package dev.loopjit.backend.jvmmt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loopjit.api.KernelCode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The build runs tests with {@code --add-modules jdk.incubator.vector}, where the kernel of
 * {@link WithoutVectorApi} takes the vector form; a fresh JVM without the module gets the scalar
 * form, is told why {@code jvm:vector} is refused, and computes the same bits.
 */
class VectorApiModuleTest {
  @Test
  void aJvmWithoutTheModuleRunsTheScalarLanes() throws Exception {
    assertTrue(LaneVectors.available(), "tests run with --add-modules jdk.incubator.vector (the pom's loopjit.jvmArgs)");
    assertTrue(KernelCode.of(WithoutVectorApi.KERNEL, "jvm").text().contains("VectorOps"), "the kernel qualifies here");
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--enable-native-access=ALL-UNNAMED",
        "-Dloopjit.backends=jvm,jvm-mt", "-cp", Path.of("target", "classes") + java.io.File.pathSeparator + Path.of("target", "test-classes"),
        WithoutVectorApi.class.getName()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    assertTrue(out.contains("vector ops: false"), out);
    assertTrue(out.contains("jvm:vector: ") && out.contains("--add-modules jdk.incubator.vector"), out);
    assertTrue(out.contains("jvm-mt: identical"), out);
  }
}
