// The benchmark report from JMH's JSON: the side-by-side table (Aparapi's column included) and the speedup chart.
package dev.loopjit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportTest {
  @TempDir Path dir;

  private static String result(String benchmark, String params, double ms) {
    return """
        {"jmhVersion": "1.37", "benchmark": "dev.loopjit.bench.%s", "mode": "avgt", "jdkVersion": "25", "vmName": "VM", "vmVersion": "25",
         "params": {%s},
         "primaryMetric": {"score": %s, "scoreError": 0.5, "scorePercentiles": {"0.0": %s, "50.0": %s}, "scoreUnit": "ms/op"}}"""
        .formatted(benchmark, params, ms, ms, ms);
  }

  @Test
  void theSideBySideTableAndTheChartShowEachColumnsSpeedupOverTheSequentialLoop() throws Exception {
    String n = "\"n\": \"1024\"";
    String json = "[" + String.join(",", result("MatMul.jvm", n, 1000), result("MatMul.parallelStreams", n, 500),
        result("MatMul.vectorApi", n, 250), result("MatMul.aparapi", n, 400),
        result("MatMul.kernelOnly", n + ", \"device\": \"opencl:0\"", 200), result("MatMul.kernelOnly", n + ", \"device\": \"jvm-mt\"", 100)) + "]";
    String report = Printed.report(Report::main, dir.resolve("steady.json"), json, "--chart", dir.resolve("speedup").toString());
    assertTrue(report.contains("| workload | size | jvm (1 thread) ms | parallel streams | Vector API (1 thread) | Aparapi 3.0.2 (OpenCL, resident) "
        + "| opencl:0 kernel only | jvm-mt kernel only |"), report);
    assertTrue(report.contains("| naive matmul | n=1024 | 1000 ± 0.500 | 500 (2.00×) | 250 (4.00×) | 400 (2.50×) | 200 (5.00×) | 100 (10.00×) |"), report);
    java.awt.image.BufferedImage png = javax.imageio.ImageIO.read(dir.resolve("speedup.png").toFile());
    assertEquals(560, png.getHeight());
    String svg = Files.readString(dir.resolve("speedup.svg"));
    assertTrue(svg.startsWith("<?xml") && svg.contains("<svg"), svg.substring(0, Math.min(200, svg.length())));
  }
}
