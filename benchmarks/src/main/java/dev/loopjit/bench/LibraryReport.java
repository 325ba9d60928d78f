// Turns the JSON of the Library* JMH benchmarks into the markdown table of docs/PERFORMANCE.md's "tornado-tasks" section.
package dev.loopjit.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code java -cp benchmarks.jar dev.loopjit.bench.LibraryReport results.json [more.json ...]}
 * prints one row per kernel and device: plain Java ({@code jvm}) beside the kernel on the device
 * ({@code device}), the device's time divided by Java's (below 1 is faster), and the rate of each —
 * GFLOP/s for gemm, else GB/s of the least memory traffic the kernel needs (each input read once,
 * each output written once). A KernelContext kernel's plain Java is the naive loop it replaces
 * ({@link LibraryBenchmarks}).
 */
public final class LibraryReport {
  private record Score(double ms, double error) {}

  private LibraryReport() {}

  public static void main(String[] args) throws IOException {
    if (args.length == 0) {
      System.err.println("usage: LibraryReport RESULTS.json [MORE.json ...]   (JMH -rf json output)");
      System.exit(2);
    }
    // "Family|kernel|size" -> "jvm" or a device id -> score
    Map<String, Map<String, Score>> rows = new LinkedHashMap<>();
    for (String file : args)
      for (Object o : (java.util.List<?>) Json.parse(Files.readString(Path.of(file)))) {
        Map<?, ?> r = (Map<?, ?>) o;
        String[] name = ((String) r.get("benchmark")).split("\\.");
        String family = name[name.length - 2], method = name[name.length - 1];
        if (!family.startsWith("Library") || !(method.equals("jvm") || method.equals("device"))) continue;
        Map<String, String> params = new TreeMap<>();
        if (r.get("params") instanceof Map<?, ?> p) p.forEach((k, v) -> params.put((String) k, (String) v));
        String device = params.remove("device"), kernel = params.remove("kernel");
        String where = method.equals("jvm") ? "jvm" : device;
        Map<?, ?> m = (Map<?, ?>) r.get("primaryMetric");
        if (!"ms/op".equals(m.get("scoreUnit"))) throw new IllegalArgumentException(method + ": unit " + m.get("scoreUnit"));
        rows.computeIfAbsent(family + "|" + kernel + "|" + size(params), k -> new LinkedHashMap<>())
            .put(where, new Score(number(m.get("score")), number(m.get("scoreError"))));
      }
    System.out.println("| family | kernel | size | jvm ms/op | device | device ms/op | ÷ jvm | jvm / device rate |");
    System.out.println("|---|---|---|---:|---|---:|---:|---|");
    for (var row : rows.entrySet()) {
      String[] key = row.getKey().split("\\|", -1);
      Score jvm = row.getValue().get("jvm");
      double work = work(key[0], key[1], key[2]);
      String unit = key[0].equals("LibraryGemm") ? "GFLOP/s" : "GB/s";
      for (var d : row.getValue().entrySet()) {
        if (d.getKey().equals("jvm")) continue;
        System.out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s / %s %s |%n", key[0].substring("Library".length()), key[1], key[2],
            ms(jvm), d.getKey(), ms(d.getValue()), jvm == null ? "–" : String.format(Locale.ROOT, "%.3f", d.getValue().ms() / jvm.ms()),
            rate(work, jvm), rate(work, d.getValue()), unit);
      }
    }
  }

  /** Flops (gemm) or the least bytes moved of one call. */
  private static double work(String family, String kernel, String size) {
    Map<String, Double> p = new TreeMap<>();
    for (String kv : size.split(" ")) if (kv.contains("=")) p.put(kv.split("=")[0], Double.parseDouble(kv.split("=")[1]));
    return switch (family) {
      case "LibraryGemm" -> 2 * Math.pow(p.get("n"), 3);
      case "LibraryBlas1" -> switch (kernel) {
        case "scal", "dot", "dotSequential" -> 8 * p.get("n");   // scal: read and write x; dot: read x and y
        default -> 4 * p.get("n");                                // asum, nrm2: read x
      };
      case "LibraryBlas2" -> (kernel.equals("ger") ? 8 : 4) * p.get("n") * p.get("n");   // ger reads and writes A; Aᵀ·x reads A
      case "LibraryTranspose" -> 8 * p.get("n") * p.get("n");
      case "LibrarySoftmax" -> 8 * p.get("rows") * p.get("cols");
      case "LibraryActivations" -> 8 * p.get("n");
      default -> Double.NaN;
    };
  }

  private static String size(Map<String, String> params) {
    StringBuilder b = new StringBuilder();
    params.forEach((k, v) -> b.append(b.isEmpty() ? "" : " ").append(k).append('=').append(v));
    return b.toString();
  }

  private static double number(Object o) {
    return o instanceof Double d ? d : Double.NaN;   // JMH writes "NaN" (a string) for the error of one sample
  }

  private static String ms(Score s) {
    if (s == null) return "–";
    return Double.isNaN(s.error()) ? fmt(s.ms()) : fmt(s.ms()) + " ± " + fmt(s.error());
  }

  private static String rate(double work, Score s) {
    return s == null || Double.isNaN(work) ? "–" : fmt(work / (s.ms() * 1e-3) / 1e9);
  }

  /** Three significant digits, no exponent. */
  private static String fmt(double v) {
    if (Double.isNaN(v)) return "–";
    double a = Math.abs(v);
    return String.format(Locale.ROOT, a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : a >= 1 ? "%.2f" : "%.3f", v);
  }
}
