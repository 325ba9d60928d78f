// A JVM without libjsig is told so, once, before an OpenCL driver loads (or the driver is refused); with libjsig, nothing is said.
package dev.loopjit.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loopjit.api.Devices;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SignalChainingTest {
  private record Run(int exit, String out, String err) {}

  /** {@code loopjit devices} in a fresh JVM, with LD_PRELOAD as given (null: unset). */
  private static Run devices(String preload, String... properties) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--enable-native-access=ALL-UNNAMED", "-Dloopjit.backends=jvm,opencl", "-Dloopjit.cacheDir=off"));
    cmd.addAll(List.of(properties));
    cmd.addAll(List.of("-cp", Path.of("target", "classes").toString(), "dev.loopjit.cli.Main", "devices"));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    Map<String, String> env = pb.environment();
    env.remove("LD_PRELOAD");
    env.remove("LOOPJIT_REQUIRE_SIGNAL_CHAINING");
    if (preload != null) env.put("LD_PRELOAD", preload);
    Process p = pb.start();
    byte[] out = p.getInputStream().readAllBytes(), err = p.getErrorStream().readAllBytes();
    return new Run(p.waitFor(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
  }

  private static void assumeOpenCl() {
    assumeTrue(Devices.all().stream().anyMatch(d -> d.backend().equals("opencl")), "no OpenCL device here");
  }

  private static int count(String s, String what) {
    int n = 0;
    for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) n++;
    return n;
  }

  @Test
  void thisJvmIsChainedWhenLibjsigIsPreloaded() {
    String preload = System.getenv("LD_PRELOAD");
    assumeTrue(preload != null && preload.contains("libjsig"), "this JVM was started without LD_PRELOAD=libjsig.so");
    SignalChaining.State s = SignalChaining.state();
    assertTrue(s.known() && s.chained(), s.toString());
    assertTrue(s.library().contains("libjsig"), s.toString());
  }

  @Test
  void withoutLibjsigTheOpenClDriverLoadsAfterOneWarningWithTheFix() throws Exception {
    assumeOpenCl();
    Run r = devices(null);
    assertEquals(0, r.exit(), r.err());
    assertTrue(r.out().contains("opencl:0"), r.out());
    assertEquals(1, count(r.err(), "without signal chaining"), r.err());
    assertTrue(r.err().contains("LD_PRELOAD=" + SignalChaining.libjsig()), r.err());
    assertTrue(r.err().contains("loopjit run") && r.err().contains("requireSignalChaining=true"), r.err());
  }

  @Test
  void requireSignalChainingRefusesTheDriverAndSaysWhy() throws Exception {
    assumeOpenCl();
    Run r = devices(null, "-Dloopjit.requireSignalChaining=true");
    assertEquals(0, r.exit(), r.err());
    assertFalse(r.out().contains("opencl:0"), "no OpenCL device without chaining: " + r.out());
    assertTrue(r.out().contains("(opencl: refusing to load"), r.out());
    assertTrue(r.out().contains("LD_PRELOAD=" + SignalChaining.libjsig()), r.out());
  }

  @Test
  void withLibjsigNothingIsSaid() throws Exception {
    assumeOpenCl();
    Run r = devices(SignalChaining.libjsig().toString(), "-Dloopjit.requireSignalChaining=true");
    assertEquals(0, r.exit(), r.err());
    assertTrue(r.out().contains("opencl:0"), r.out());
    assertFalse(r.err().contains("signal chaining"), r.err());
  }

  @Test
  void aPreloadThatDoesNotLoadIsNotTakenForChaining() throws Exception {
    assumeOpenCl();
    Run r = devices("/nonexistent/libjsig.so");
    assertEquals(0, r.exit(), r.err());
    assertEquals(1, count(r.err(), "without signal chaining"), "LD_PRELOAD names libjsig, but nothing was preloaded: " + r.err());
  }
}
