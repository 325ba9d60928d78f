// The tornado-tasks table from JMH's JSON: one row per kernel and device, the kernel read from the @Param, Java's time beside the device's.
package dev.loopjit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LibraryReportTest {
  @TempDir Path dir;

  private static String result(String benchmark, String params, double ms) {
    return """
        {"benchmark": "dev.loopjit.bench.%s", "mode": "avgt", "params": {%s},
         "primaryMetric": {"score": %s, "scoreError": 0.5, "scoreUnit": "ms/op"}}""".formatted(benchmark, params, ms);
  }

  @Test
  void eachKernelOnEachDeviceIsARowBesideItsJava() throws Exception {
    String naive = "\"kernel\": \"naive\", \"n\": \"1024\"", tiled = "\"kernel\": \"tiled\", \"n\": \"1024\"";
    String json = "[" + String.join(",", result("LibraryGemm.jvm", naive, 4000), result("LibraryGemm.jvm", tiled, 4000),
        result("LibraryGemm.device", naive + ", \"device\": \"opencl:0\"", 2000), result("LibraryGemm.device", tiled + ", \"device\": \"opencl:0\"", 400),
        result("LibraryGemm.device", tiled + ", \"device\": \"jvm-mt\"", 1000), result("VectorAdd.jvm", "\"n\": \"16\"", 1)) + "]";
    String report = Printed.report(LibraryReport::main, dir.resolve("steady.json"), json);
    // 2·1024³ flops: 0.537 GFLOP/s in 4 s, 1.07 in 2 s, 5.37 in 0.4 s, 2.15 in 1 s.
    assertEquals("""
        | family | kernel | size | jvm ms/op | device | device ms/op | ÷ jvm | jvm / device rate |
        |---|---|---|---:|---|---:|---:|---|
        | Gemm | naive | n=1024 | 4000 ± 0.500 | opencl:0 | 2000 ± 0.500 | 0.500 | 0.537 / 1.07 GFLOP/s |
        | Gemm | tiled | n=1024 | 4000 ± 0.500 | opencl:0 | 400 ± 0.500 | 0.100 | 0.537 / 5.37 GFLOP/s |
        | Gemm | tiled | n=1024 | 4000 ± 0.500 | jvm-mt | 1000 ± 0.500 | 0.250 | 0.537 / 2.15 GFLOP/s |
        """, report);
  }
}
